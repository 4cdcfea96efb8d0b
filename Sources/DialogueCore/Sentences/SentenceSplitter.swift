import CICU
import Foundation

/// Splits answers into sentences with ICU's sentence break iterator for the interface
/// language. ICU's abbreviation suppressions (`@ss=standard`) are not used: for German they
/// join ordinary sentences ending in "klar." or "Art.", which is worse than splitting "Dr.".
public enum SentenceSplitter {
    /// The sentences of one answer, trimmed, empty ones dropped. If they do not add back up
    /// to the answer (modulo whitespace), the whole answer is one unit: a sentence must never
    /// lose a character.
    public static func sentences(in answer: String, language: Language) -> [String] {
        let text = UserText.sanitized(answer)
        let whole = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !whole.isEmpty else { return [] }
        guard let segments = icuSentences(text, language: language) else { return [whole] }
        let pieces = joiningAfterTitles(segments, titles: LanguagePackLoader.standardPack(language)?.people.abbreviations ?? [])
        let sentences = pieces.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        guard withoutWhitespace(sentences.joined()) == withoutWhitespace(text) else { return [whole] }
        return sentences
    }

    /// All answers as sources numbered 1…N, each with the index of its answer.
    public static func sources(from answers: [String], language: Language) -> [Source] {
        var sources: [Source] = []
        for (index, answer) in answers.enumerated() {
            for sentence in sentences(in: answer, language: language) {
                sources.append(Source(id: sources.count + 1, text: sentence, answerIndex: index))
            }
        }
        return sources
    }

    /// ICU ends a sentence at "Mr. Okafor" or "Sra. López": a segment whose last word is such a
    /// title (the language's `people.titles` that end in a full stop) runs on into the next.
    static func joiningAfterTitles(_ segments: [String], titles: [String]) -> [String] {
        guard !titles.isEmpty else { return segments }
        var joined: [String] = []
        for segment in segments {
            if let previous = joined.last, let word = previous.split(whereSeparator: \.isWhitespace).last, titles.contains(String(word)) {
                joined[joined.count - 1] += segment
            } else {
                joined.append(segment)
            }
        }
        return joined
    }

    static func withoutWhitespace(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { !$0.properties.isWhitespace }))
    }

    /// The raw segments, or nil when ICU fails (then the caller keeps the answer whole).
    static func icuSentences(_ text: String, language: Language) -> [String]? {
        let units = Array(text.utf16)
        guard !units.isEmpty, units.count < Int(Int32.max) else { return nil }
        let locale = language.code
        // ICU keeps a pointer to the text, so all iteration happens while the buffer is pinned.
        return units.withUnsafeBufferPointer { buffer -> [String]? in
            var status: Int32 = 0
            guard let iterator = cicu_sentence_iterator(locale, buffer.baseAddress, Int32(buffer.count), &status),
                  cicu_failure(status) == 0 else { return nil }
            defer { cicu_close(iterator) }
            var boundaries = [Int(cicu_first(iterator))]
            while true {
                let end = Int(cicu_next(iterator))
                if end == Int(CICU_DONE) || end <= boundaries[boundaries.count - 1] || end > buffer.count { break }
                boundaries.append(end)
            }
            return zip(boundaries, boundaries.dropFirst()).map { String(decoding: buffer[$0..<$1], as: UTF16.self) }
        }
    }
}
