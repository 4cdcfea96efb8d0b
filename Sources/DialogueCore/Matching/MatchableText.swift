import Foundation

/// Text reduced to what phrase matching should see: sentences of clauses of word tokens.
/// Case, accents, apostrophes, full-width forms and katakana/hiragana are folded away, so
/// "That’s ALL." and "thats all", or "ｲｼﾞｮｳ" and "いじょう", compare equal. Japanese and
/// Chinese characters become one token each, so a phrase without spaces ("以上です") is
/// matched character by character, with the same clause rules as words.
struct MatchableText: Sendable, Equatable {
    /// sentence → clause → tokens; no empty clause or sentence.
    let sentences: [[[String]]]

    var clauses: [[String]] { sentences.flatMap { $0 } }
    /// All tokens, ignoring punctuation (how a phrase from a list is read).
    var tokens: [String] { clauses.flatMap { $0 } }

    init(_ text: String) {
        var sentences: [[[String]]] = []
        var clauses: [[String]] = []
        var tokens: [String] = []
        var word = ""
        func endWord() { if !word.isEmpty { tokens.append(word); word = "" } }
        func endClause() { endWord(); if !tokens.isEmpty { clauses.append(tokens); tokens = [] } }
        func endSentence() { endClause(); if !clauses.isEmpty { sentences.append(clauses); clauses = [] } }

        let scalars = Array(Self.fold(text).unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            if Self.apostrophes.contains(scalar) {
                if Self.isElision(word, before: index + 1 < scalars.count ? scalars[index + 1] : nil) { endWord() }
                continue
            }
            if Self.sentenceMarks.contains(scalar) { endSentence(); continue }
            if Self.clauseMarks.contains(scalar) { endClause(); continue }
            if Self.isIdeographicOrKana(scalar) {
                endWord()
                tokens.append(String(scalar))
                continue
            }
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                word.unicodeScalars.append(scalar)
            } else {
                endWord()  // spaces, hyphens, symbols, emoji
            }
        }
        endSentence()
        self.sentences = sentences
    }

    /// NFKC, lower case, Latin accents removed, ß → ss, œ → oe, katakana → hiragana.
    static func fold(_ text: String) -> String {
        let compatible = text.precomposedStringWithCompatibilityMapping.lowercased()
        var folded = String.UnicodeScalarView()
        for scalar in compatible.decomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar.value {
            case 0x0300...0x036F: continue  // combining accents of Latin letters
            case 0x00DF: folded.append(contentsOf: "ss".unicodeScalars)
            case 0x0153: folded.append(contentsOf: "oe".unicodeScalars)
            case 0x00E6: folded.append(contentsOf: "ae".unicodeScalars)
            case 0x30A1...0x30F6: folded.append(Unicode.Scalar(scalar.value - 0x60)!)
            default: folded.append(scalar)
            }
        }
        // Recompose so that kana with voicing marks (が) are single tokens again.
        return String(folded).precomposedStringWithCanonicalMapping
    }

    /// French-style elision ("l'appli", "c'est", "qu'il") separates two words; any other
    /// apostrophe ("that's", "don't", "war's", "aujourd'hui") is dropped inside one word.
    static func isElision(_ word: String, before next: Unicode.Scalar?) -> Bool {
        guard let next, "aeiouyh".unicodeScalars.contains(next) else { return false }
        return word.unicodeScalars.count == 1 || word.hasSuffix("qu")
    }

    static func isIdeographicOrKana(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3005...0x3007, 0x3041...0x309F, 0x30A0...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xF900...0xFAFF, 0x20000...0x2FFFF:
            true
        default:
            false
        }
    }

    static let apostrophes: Set<Unicode.Scalar> = ["'", "\u{2019}", "\u{2018}", "\u{02BC}", "`", "\u{00B4}"]
    static let sentenceMarks: Set<Unicode.Scalar> = [".", "!", "?", "\u{3002}", "\u{FF61}", "\u{2026}", "\u{203C}", "\u{2047}", "\u{2048}", "\u{2049}", "\u{00A1}", "\u{00BF}", "\n"]
    static let clauseMarks: Set<Unicode.Scalar> = [
        ",", ";", ":", "\u{3001}", "\u{FF64}", "(", ")", "[", "]", "{", "}", "\"", "\u{201C}", "\u{201D}",
        "\u{201E}", "\u{00AB}", "\u{00BB}", "\u{2014}", "\u{2013}", "\u{300C}", "\u{300D}", "\u{300E}",
        "\u{300F}", "\u{FF08}", "\u{FF09}", "/", "\u{30FB}",
    ]
}
