import Foundation
import Testing
@testable import DialogueCore

/// The front matter codec: what `render` writes, `read` gives back, whatever the strings hold.
@Suite struct FrontMatterTests {
    /// Characters that YAML or our reading could trip on: quotes, backslashes, the flow
    /// sequence's commas and brackets, the `key: value` separator, line breaks, control
    /// characters, C1 controls, a `---` line, and text in other scripts.
    static let pieces = ["\"", "\\", ",", "[", "]", "{", "}", ": ", "\n", "\t", "\r", "\u{7}", "\u{85}", "\n---\n",
                         "#", "x", "idea", " ", "é", "日本", "🙂", "\\x41", "\\n", "'"]

    static func randomText(_ random: inout SeededRandom) -> String {
        (0..<Int.random(in: 0..<8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    @Test func whatIsWrittenIsReadBack() throws {
        var random = SeededRandom(seed: 0xF207_7E55)
        let zones = [TimeZone(secondsFromGMT: 0)!, TimeZone(secondsFromGMT: 3_600)!, TimeZone(secondsFromGMT: -34_200)!,
                     TimeZone(identifier: "Asia/Tokyo")!]
        for round in 0..<2_000 {
            let created = Date(timeIntervalSince1970: Double(Int.random(in: 0..<2_000_000_000, using: &random)))
            var metadata = NoteMetadata(id: Self.randomText(&random), created: created,
                                        timeZone: zones.randomElement(using: &random)!, language: Language(Self.randomText(&random)),
                                        questions: (0..<Int.random(in: 0..<4, using: &random)).map { _ in
                                            QuestionChoice.allCases.randomElement(using: &random)!
                                        },
                                        layoutSource: [LayoutSource.model, .fallback, .recording].randomElement(using: &random)!,
                                        ending: Bool.random(using: &random) ? Self.randomText(&random) : nil)
            metadata.tags = (0..<Int.random(in: 0..<3, using: &random)).map { _ in Self.randomText(&random) }
            metadata.people = (0..<Int.random(in: 0..<3, using: &random)).map { _ in Self.randomText(&random) }
            let body = "\n# Title\n\nText.\n"
            let read = FrontMatter.read(FrontMatter.render(metadata) + "\n" + body)

            #expect(read.string("id") == metadata.id, "round \(round)")
            #expect(read.string("language") == metadata.language.code, "round \(round)")
            #expect(read.created == created, "round \(round)")
            #expect(read.timeZone?.secondsFromGMT(for: created) == metadata.timeZone.secondsFromGMT(for: created), "round \(round)")
            #expect(read.list("questions") == metadata.questions.map(\.rawValue), "round \(round)")
            #expect(read.string("layout") == metadata.layoutSource.rawValue, "round \(round)")
            #expect(read.string("ended") == metadata.ending, "round \(round)")
            #expect((read.list("tags") ?? []) == metadata.tags, "round \(round)")
            #expect((read.list("people") ?? []) == metadata.people, "round \(round)")
            #expect(read.body.map(String.init) == body, "round \(round)")
        }
    }

    @Test func aNoteWithoutFrontMatterIsAllBodyAndAnUnclosedOneHasNoBody() {
        #expect(FrontMatter.read("# Title\n\nid: \"x\"\n") == FrontMatter.Reading(values: [:], body: "# Title\n\nid: \"x\"\n"))
        let unclosed = FrontMatter.read("---\nid: \"x\"\n# Title\n")
        #expect(unclosed.string("id") == "x" && unclosed.body == nil)
        let empty = FrontMatter.read("---\n---\n# Title\n")
        #expect(empty.values.isEmpty && empty.body == "# Title\n")
    }

    @Test func handWrittenValuesAreReadAsTheyAre() {
        let read = FrontMatter.read("---\nid:   plain  \nid: \"later \\x41\"\ntags: []\nodd\n---\n")
        #expect(read.string("id") == "later A", "a later line wins, escapes are read")
        #expect(read.list("tags") == [])
        #expect(read.list("id") == nil, "a scalar is not a list")
        #expect(read.string("odd") == nil)
    }
}
