import Foundation

/// An interface language, named by its ISO 639 code: the name of its `Locales/<code>.json`.
/// A type rather than a `String` so a language is never confused with the text it describes, a
/// whisper code or a voice name. Stored as the bare code (`ja`) in journals, notes, sets and
/// config files. Only the fallback is named here: every other language is known from its file.
public struct Language: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let code: String

    public init(_ code: String) { self.code = code }

    /// The fallback: its file must exist, and fills any key another language's file lacks.
    public static let english = Language("en")

    public var description: String { code }

    public static func < (lhs: Language, rhs: Language) -> Bool { lhs.code < rhs.code }
}

/// The bare code, so every file that holds a language reads as it did when it was a string.
extension Language: Codable {
    public init(from decoder: any Decoder) throws {
        code = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}

/// A dictionary keyed by language encodes as an object keyed by code, not as an array of pairs.
extension Language: CodingKeyRepresentable {
    public var codingKey: any CodingKey { Key(stringValue: code) }

    public init?<T: CodingKey>(codingKey: T) { self.init(codingKey.stringValue) }

    private struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}
