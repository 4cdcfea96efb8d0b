import DialogueCore
import Foundation

/// Word error rate of a transcript against its reference; for a language without spaces
/// between words (Japanese), the character error rate. The same normalisation as the bench (scripts/bench/dmbench/
/// scoring.py), so the two report the same figure: NFKC, lower case, punctuation and symbols
/// as spaces.
public enum ErrorRate {
    public static func words(_ text: String) -> [String] {
        let folded = text.precomposedStringWithCompatibilityMapping.lowercased()
        let spaced = String(folded.unicodeScalars.map { scalar -> Character in
            switch scalar.properties.generalCategory {
            case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
                 .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
                " "
            default: Character(scalar)
            }
        })
        return spaced.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// Edits (insertions, deletions, substitutions) between two sequences.
    public static func editDistance<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// The units scored: words, or characters in a language its file says does not space its
    /// words (`DateRules.spaced`: Japanese).
    public static func units(_ text: String, language: Language) -> [String] {
        (LanguagePackLoader.standardPack(language)?.dates.spaced ?? true) ? words(text) : words(text).joined().map(String.init)
    }

    /// The edits per reference unit (word, or character where words are not spaced).
    public static func of(_ hypothesis: String, reference: String, language: Language) -> (errors: Int, units: Int) {
        let ref = units(reference, language: language)
        return (editDistance(ref, units(hypothesis, language: language)), ref.count)
    }
}
