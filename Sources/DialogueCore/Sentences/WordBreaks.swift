import CICU
import Foundation

/// The words of a text as ICU's word breaks find them: spaces and punctuation between words
/// are dropped, and Japanese, which has no spaces, is cut at its dictionary's words ("田中さん"
/// → "田中", "さん"). Whole-word matching rests on it, so "Tom" is not a word of "Tomatoes".
public enum WordBreaks {
    /// The words of `text` in order; the text whole when ICU cannot read it.
    public static func words(in text: String, language: String = "") -> [String] {
        let units = Array(text.utf16)
        guard !units.isEmpty, units.count < Int(Int32.max) else { return [] }
        // ICU keeps a pointer to the text, so all iteration happens while the buffer is pinned.
        return units.withUnsafeBufferPointer { buffer -> [String] in
            var status: Int32 = 0
            guard let iterator = cicu_word_iterator(language, buffer.baseAddress, Int32(buffer.count), &status),
                  cicu_failure(status) == 0 else { return [text] }
            defer { cicu_close(iterator) }
            var words: [String] = []
            var start = Int(cicu_first(iterator))
            while true {
                let end = Int(cicu_next(iterator))
                if end == Int(CICU_DONE) || end <= start || end > buffer.count { break }
                if cicu_rule_status(iterator) >= CICU_WORD_NONE_LIMIT {
                    words.append(String(decoding: buffer[start..<end], as: UTF16.self))
                }
                start = end
            }
            return words
        }
    }
}
