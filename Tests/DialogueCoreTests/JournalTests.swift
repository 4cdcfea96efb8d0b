import Foundation
import Testing
@testable import DialogueCore

@Suite struct JournalTests {
    static let created = Date(timeIntervalSince1970: 1_764_433_543.25)

    static func exchange() -> [JournalEvent] {
        [
            .started(id: "memo-7", created: created, timeZone: "Europe/Berlin", language: "en"),
            .asked(.opening),
            .answered("A bike bell that counts. Every ring saves the spot."),
            .decided(Decision(choice: .reason, source: .model, suggestion: .reason)),
            .asked(.choice(.reason)),
            .answered("Because nobody reports near misses."),
            .decided(Decision(choice: .ready, source: .rules, suggestion: .reason)),
            .laidOut(Layout(firstSourceIsTitle: true, groups: [[1], [2, 3]]), .model),
        ]
    }

    static func text(_ events: [JournalEvent]) -> String { events.map(Journal.line).joined() }

    @Test func linesAreOneJSONObjectEachAndRoundTrip() {
        let events = Self.exchange()
        let text = Self.text(events)
        #expect(text.split(separator: "\n").count == events.count)
        #expect(Journal.line(.asked(.opening)) == "{\"event\":\"asked\",\"question\":\"opening\"}\n")
        #expect(Journal.line(.answered("a/b \"c\"\nd")) == "{\"event\":\"answered\",\"text\":\"a/b \\\"c\\\"\\nd\"}\n")
        let read = Journal.read(text)
        #expect(read.events == events && read.damagedLines.isEmpty && !read.truncatedTail)
    }

    @Test func rebuildGivesTheSameNoteAsTheExchange() throws {
        let pack = try Fixtures.pack("en")
        let rebuilt = try Journal.rebuild(from: Self.text(Self.exchange()), loader: Fixtures.loader)
        let sources = SentenceSplitter.sources(from: ["A bike bell that counts. Every ring saves the spot.", "Because nobody reports near misses."], language: "en")
        let direct = NoteRenderer(pack: pack).render(
            sources: sources, layout: Layout(firstSourceIsTitle: true, groups: [[1], [2, 3]]),
            metadata: NoteMetadata(id: "memo-7", created: Self.created, timeZone: TimeZone(identifier: "Europe/Berlin")!,
                                   language: "en", questions: [.reason], layoutSource: .model))
        #expect(rebuilt == direct)
        #expect(rebuilt.contains("# A bike bell that counts."))
    }

    @Test func aCrashAtAnyPointLosesNothingAlreadyWritten() throws {
        let events = Self.exchange()
        let full = Self.text(events)
        // Cut the journal at every byte: whatever was fully written is read back.
        let bytes = Array(full.utf8)
        for cut in 1..<bytes.count {
            let text = String(decoding: bytes[..<cut], as: UTF8.self)
            let read = Journal.read(text)
            let complete = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().count
            #expect(read.events.count >= complete)
            #expect(Array(events.prefix(read.events.count)) == read.events)
            #expect(read.damagedLines.isEmpty)
            if read.events.count > 0 {
                let note = try JournalReplay(read.events).note(pack: try Fixtures.pack("en"))
                let answers = read.events.compactMap { if case .answered(let text) = $0 { return text } else { return nil } }
                for sentence in SentenceSplitter.sources(from: answers, language: "en") {
                    #expect(note.contains(sentence.text))
                }
            }
        }
    }

    @Test func withoutALayoutTheFallbackIsUsed() throws {
        let events = Array(Self.exchange().dropLast())
        let note = try Journal.rebuild(from: Self.text(events), loader: Fixtures.loader)
        #expect(note.contains("layout: \"fallback\"") && note.contains("- Because nobody reports near misses."))
    }

    @Test func damagedMiddleLinesAreSkippedAndReported() {
        var lines = Self.exchange().map(Journal.line)
        lines.insert("{not json\n", at: 3)
        let read = Journal.read(lines.joined())
        #expect(read.damagedLines == [4])
        #expect(read.events == Self.exchange())
    }

    @Test func aJournalWithoutStartIsRejected() {
        #expect(throws: JournalError.missingStart) { try Journal.rebuild(from: Journal.line(.answered("x")), loader: Fixtures.loader) }
    }
}
