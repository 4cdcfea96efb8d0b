import Foundation

/// A pattern in a language file that is no regular expression: where it is, for the error.
public struct InvalidPattern: Error, Sendable, Equatable {
    /// Its key path in the file ("dates.times.0.pattern").
    public let key: String
    public let pattern: String
}

extension NSRegularExpression {
    /// A regular expression from a language file; case is ignored in every one of them.
    static func languagePattern(_ pattern: String, key: String) throws(InvalidPattern) -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
        } catch {
            throw InvalidPattern(key: key, pattern: pattern)
        }
    }

    /// Whether it matches anywhere in `text`.
    func matches(_ text: String) -> Bool {
        firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
