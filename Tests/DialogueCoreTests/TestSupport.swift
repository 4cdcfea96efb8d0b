@testable import DialogueCore
import Evaluation
import Foundation
import Testing

/// Shared fixtures: the real locale files (found through the loader's `#filePath` fallback),
/// the labelled scenario sets in `Tests/Fixtures`, a seeded random generator and a reader for
/// rendered notes.
enum Fixtures {
    static let loader = LanguagePackLoader()

    static let packs: [Language: LanguagePack] = {
        var packs: [Language: LanguagePack] = [:]
        for language in LanguagePackLoader.supportedLanguages {
            packs[language] = try? loader.load(language)
        }
        return packs
    }()

    static func pack(_ language: Language) throws -> LanguagePack {
        try #require(packs[language], "Locales/\(language).json did not load: \(loadError(language))")
    }

    /// Compiled once per language: compiling the phrase lists is the expensive part.
    static let allRules: [Language: Rules] = packs.mapValues { Rules(pack: $0) }

    static func rules(_ language: Language) throws -> Rules {
        try #require(allRules[language], "Locales/\(language).json did not load: \(loadError(language))")
    }

    static func loadError(_ language: Language) -> String {
        do { _ = try loader.load(language); return "no error" } catch { return "\(error)" }
    }

    /// `<repository>/Tests/Fixtures/<name>`: the labelled sets the project keeps, found from this
    /// file's path so that a fresh clone needs nothing beside it.
    static func fixture(_ name: String) throws -> URL {
        let tests = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
        let url = tests.appendingPathComponent("Fixtures").appendingPathComponent(name)
        try #require(FileManager.default.fileExists(atPath: url.path), "\(url.path) is missing")
        return url
    }

    static func choiceScenarios() throws -> [ChoiceScenario] {
        try ChoiceScenarioSet.load(from: fixture("choice-scenarios.json")).cases
    }

    static func conversation(_ pairs: [(String, String)]) -> Conversation {
        Conversation(turns: pairs.map { Turn(question: TurnQuestion(name: $0.0)!, answer: $0.1) })
    }
}

/// SplitMix64: small, fast and reproducible across platforms.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A rendered note taken apart again, to check it from the outside.
struct ReadNote {
    var frontMatter: [String] = []
    var titleLine = ""
    /// Blocks between blank lines after the title; each block's lines.
    var blocks: [[String]] = []

    init(_ note: String) throws {
        var lines = note.components(separatedBy: "\n")
        #expect(lines.last == "", "a note ends with a newline")
        if lines.last == "" { lines.removeLast() }
        try #require(lines.first == "---", "front matter opens the note")
        let close = try #require(lines.dropFirst().firstIndex(of: "---"), "front matter is closed")
        frontMatter = Array(lines[1..<close])
        var rest = Array(lines[(close + 1)...])
        try #require(rest.first == "", "a blank line follows the front matter")
        rest.removeFirst()
        titleLine = try #require(rest.first, "a title line")
        rest.removeFirst()
        var block: [String] = []
        for line in rest {
            if line.isEmpty {
                if !block.isEmpty { blocks.append(block) }
                block = []
            } else {
                block.append(line)
            }
        }
        if !block.isEmpty { blocks.append(block) }
    }

    /// The title as a reader sees it.
    var title: String { MarkdownEscaping.unescape(String(titleLine.dropFirst(2))) }
}

func withoutWhitespace(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.filter { !$0.properties.isWhitespace }))
}
