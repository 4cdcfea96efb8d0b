/// When the first sentence may be the note's title: the model says it reads as a heading,
/// and our rule agrees that it is short (at most 6 words and 60 characters; text that is
/// mostly Japanese or Chinese, at most 15 characters besides closing punctuation), has no
/// line break, is not just filler ("Okay, so."), and other sentences remain.
public enum NoteTitle {
    public static let maxWords = 6
    public static let maxCharacters = 60
    public static let maxCharactersCJK = 15

    public static func isShort(_ sentence: String) -> Bool {
        let text = sentence.trimmingCharacters(in: .whitespaces)
        if isMostlyCJK(text) {
            var characters = text.filter { !$0.isWhitespace }
            while let last = characters.last, last.isPunctuation { characters.removeLast() }
            return !characters.isEmpty && characters.count <= maxCharactersCJK
        }
        let words = text.split(whereSeparator: \.isWhitespace).filter { $0.contains { $0.isLetter || $0.isNumber } }
        return !words.isEmpty && words.count <= maxWords && text.count <= maxCharacters
    }

    static func isMostlyCJK(_ text: String) -> Bool {
        var cjk = 0, letters = 0
        for scalar in text.unicodeScalars where scalar.properties.isAlphabetic {
            letters += 1
            if MatchableText.isIdeographicOrKana(scalar) { cjk += 1 }
        }
        return letters > 0 && cjk * 2 >= letters
    }

    static func firstSentenceIsTitle(_ sources: [Source], layout: Layout, book: PhraseBook) -> Bool {
        guard layout.firstSourceIsTitle, sources.count >= 2, let first = sources.first else { return false }
        let text = first.text
        guard !text.contains(where: \.isNewline), text.contains(where: { $0.isLetter || $0.isNumber }),
              isShort(text) else { return false }
        return !book.isFillerOnly(text)
    }
}

extension PhraseBook {
    /// "Okay, so.", "Bueno, a ver.": only filler words.
    func isFillerOnly(_ text: String) -> Bool {
        let clauses = MatchableText(text).clauses
        return !clauses.isEmpty && clauses.allSatisfy { fillers.composes($0, from: 0, to: $0.count) }
    }
}
