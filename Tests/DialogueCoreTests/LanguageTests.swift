import Foundation
import Testing
@testable import DialogueCore

/// A language is stored as its bare code, so journals, notes, sets and JSON outputs read and
/// write exactly what they did when the language was a `String`.
@Suite struct LanguageTests {
    /// The supported codes, codes of no language, and random printable ASCII and Unicode text.
    static func codes() -> [String] {
        var random = SeededRandom(seed: 40)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABC-_ \"\\/é日本")
        let randomCodes = (0..<200).map { _ in
            String((0..<Int.random(in: 0...6, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
        }
        return LanguagePackLoader.supportedLanguages.map(\.code) + ["none", "zz", ""] + randomCodes
    }

    @Test func encodesAsTheBareCodeString() throws {
        for code in Self.codes() {
            let encoded = try JSONEncoder().encode(Language(code))
            #expect(encoded == (try JSONEncoder().encode(code)), "\(code)")
            #expect(try JSONDecoder().decode(Language.self, from: encoded) == Language(code))
        }
        #expect(String(decoding: try JSONEncoder().encode(Language.english), as: UTF8.self) == #""en""#)
    }

    @Test func aFieldAndADictionaryKeyReadAsStrings() throws {
        struct Stored: Codable, Equatable { var language: Language; var counts: [Language: Int] }
        struct Plain: Codable, Equatable { var language: String; var counts: [String: Int] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for code in Self.codes() {
            let stored = Stored(language: Language(code), counts: [Language(code): 1])
            let plain = Plain(language: code, counts: [code: 1])
            let data = try encoder.encode(stored)
            #expect(data == (try encoder.encode(plain)), "\(code)")
            #expect(try JSONDecoder().decode(Stored.self, from: data) == stored)
        }
    }

    @Test func aJournalLineIsUnchanged() {
        let event = JournalEvent.started(id: "memo-1", created: Date(timeIntervalSince1970: 0), timeZone: "UTC", language: Language("ja"))
        #expect(Journal.line(event)
                == #"{"created":"1970-01-01T00:00:00.000Z","event":"started","id":"memo-1","language":"ja","timeZone":"UTC"}"# + "\n")
    }

    @Test func printsAndOrdersAsItsCode() {
        let codes = Self.codes()
        #expect(codes.map { Language($0).description } == codes)
        #expect(codes.map { Language($0) }.sorted().map(\.code) == codes.sorted())
    }
}
