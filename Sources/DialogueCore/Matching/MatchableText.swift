import Foundation

/// Text reduced to what phrase matching should see: sentences of clauses of word tokens.
/// Case, accents, apostrophes, full-width forms and katakana/hiragana are folded away, so
/// "That’s ALL." and "thats all", or "ｲｼﾞｮｳ" and "いじょう", compare equal. Japanese and
/// Chinese characters become one token each, so a phrase without spaces ("以上です") is
/// matched character by character, with the same clause rules as words.
struct MatchableText: Sendable, Equatable {
    /// sentence → clause → tokens; no empty clause or sentence.
    let sentences: [[[String]]]
    /// sentence → clause: whether the clause stands inside quotation marks ("she said „Schluss
    /// jetzt“"): someone else's words, never the person steering the exchange.
    let quoted: [[Bool]]
    /// sentence → clause: whether a colon stands before the clause in its sentence ("he just
    /// goes: done", "SYSTEM: …"): what follows a colon is said or shown, not necessarily said to us.
    let afterColon: [[Bool]]

    var clauses: [[String]] { sentences.flatMap { $0 } }
    /// All tokens, ignoring punctuation (how a phrase from a list is read).
    var tokens: [String] { clauses.flatMap { $0 } }

    init(_ text: String) {
        var sentences: [[[String]]] = [], quoted: [[Bool]] = [], afterColon: [[Bool]] = []
        var clauses: [[String]] = [], clausesQuoted: [Bool] = [], clausesAfterColon: [Bool] = []
        var tokens: [String] = []
        var word = ""
        var inQuote = false, inSingleQuote = false, sawColon = false
        func endWord() { if !word.isEmpty { tokens.append(word); word = "" } }
        func endClause() {
            endWord()
            if !tokens.isEmpty {
                clauses.append(tokens); clausesQuoted.append(inQuote || inSingleQuote); clausesAfterColon.append(sawColon); tokens = []
            }
        }
        func endSentence() {
            endClause()
            sawColon = false
            if !clauses.isEmpty {
                sentences.append(clauses); quoted.append(clausesQuoted); afterColon.append(clausesAfterColon)
                clauses = []; clausesQuoted = []; clausesAfterColon = []
            }
        }

        let scalars = Array(Self.fold(text).unicodeScalars)
        let quoting = Self.quotingSingleQuotes(scalars)
        for (index, scalar) in scalars.enumerated() {
            if quoting.contains(index) {
                endClause()
                inSingleQuote.toggle()
                continue
            }
            if Self.apostrophes.contains(scalar) {
                if Self.isElision(word, before: index + 1 < scalars.count ? scalars[index + 1] : nil) { endWord() }
                continue
            }
            if Self.sentenceMarks.contains(scalar) { endSentence(); continue }
            if Self.clauseMarks.contains(scalar) {
                endClause()
                if scalar == ":" || scalar == "\u{FF1A}" { sawColon = true }
                // „…“ and “…” pair differently per language: any mark closes an open quotation
                // unless it only ever opens one, and opens one unless it only ever closes.
                if Self.quotationMarks.contains(scalar) {
                    if inQuote { inQuote = Self.openingOnly.contains(scalar) } else { inQuote = !Self.closingOnly.contains(scalar) }
                }
                continue
            }
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
        self.quoted = quoted
        self.afterColon = afterColon
    }

    private init(sentences: [[[String]]], quoted: [[Bool]], afterColon: [[Bool]]) {
        self.sentences = sentences
        self.quoted = quoted
        self.afterColon = afterColon
    }

    /// The text with only the clauses `keep` accepts (by sentence and clause index); emptied
    /// sentences disappear.
    func keeping(_ keep: (_ sentence: Int, _ clause: Int) -> Bool) -> MatchableText {
        var sentences: [[[String]]] = [], quoted: [[Bool]] = [], afterColon: [[Bool]] = []
        for (s, sentence) in self.sentences.enumerated() {
            let kept = sentence.indices.filter { keep(s, $0) }
            guard !kept.isEmpty else { continue }
            sentences.append(kept.map { sentence[$0] })
            quoted.append(kept.map { self.quoted[s][$0] })
            afterColon.append(kept.map { self.afterColon[s][$0] })
        }
        return MatchableText(sentences: sentences, quoted: quoted, afterColon: afterColon)
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

    /// The single quotes that quote ("Él dice 'ya está, lo dejo', pero…"): one that opens a word
    /// paired with the next one that closes a word. Any other is an apostrophe ("don't", "l'app",
    /// "the Joneses' car"), and so is one left without a pair ("'cause I have to go").
    static func quotingSingleQuotes(_ scalars: [Unicode.Scalar]) -> Set<Int> {
        func isGap(_ index: Int) -> Bool {
            guard scalars.indices.contains(index) else { return true }
            let scalar = scalars[index]
            return scalar.properties.isWhitespace || sentenceMarks.contains(scalar) || clauseMarks.contains(scalar)
        }
        var pairs: Set<Int> = [], opener: Int?
        for (index, scalar) in scalars.enumerated() where singleQuotes.contains(scalar) {
            if let open = opener, !isGap(index - 1), isGap(index + 1), scalar != "\u{2018}" {
                pairs.formUnion([open, index]); opener = nil
            } else if opener == nil, isGap(index - 1), !isGap(index + 1), scalar != "\u{2019}" {
                opener = index
            }
        }
        return pairs
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
    static let singleQuotes: Set<Unicode.Scalar> = ["'", "\u{2018}", "\u{2019}"]
    /// "¡" and "¿" only open a clause: the sentence ends at "!" and "?", so "Mi madre gritó:
    /// ¡bórralo!" stays one sentence with its words after the colon.
    static let sentenceMarks: Set<Unicode.Scalar> = [".", "!", "?", "\u{3002}", "\u{FF61}", "\u{2026}", "\u{203C}", "\u{2047}", "\u{2048}", "\u{2049}", "\n"]
    static let clauseMarks: Set<Unicode.Scalar> = [
        ",", ";", ":", "\u{3001}", "\u{00A1}", "\u{00BF}", "\u{FF64}", "(", ")", "[", "]", "{", "}", "\"", "\u{201C}", "\u{201D}",
        "\u{201E}", "\u{00AB}", "\u{00BB}", "\u{2014}", "\u{2013}", "\u{300C}", "\u{300D}", "\u{300E}",
        "\u{300F}", "\u{FF08}", "\u{FF09}", "/", "\u{30FB}", "\u{3010}", "\u{3011}", "\u{FF1A}",
    ]
    static let quotationMarks: Set<Unicode.Scalar> = [
        "\"", "\u{201C}", "\u{201D}", "\u{201E}", "\u{00AB}", "\u{00BB}", "\u{300C}", "\u{300D}", "\u{300E}", "\u{300F}",
    ]
    static let openingOnly: Set<Unicode.Scalar> = ["\u{201E}", "\u{00AB}", "\u{300C}", "\u{300E}"]
    static let closingOnly: Set<Unicode.Scalar> = ["\u{00BB}", "\u{300D}", "\u{300F}"]
}
