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

    /// The same exchange in Japanese: every answer is multi-byte UTF-8 (3 bytes a character).
    static func japaneseExchange() -> [JournalEvent] {
        [
            .started(id: "memo-8", created: created, timeZone: "Asia/Tokyo", language: "ja"),
            .asked(.opening),
            .answered("数える自転車のベル。鳴らすたびに場所を記録します。"),
            .decided(Decision(choice: .reason, source: .model, suggestion: .reason)),
            .asked(.choice(.reason)),
            .answered("ヒヤリハットを誰も報告しないからです。"),
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

    /// Every kind of line, byte for byte as journals on disk hold them: they are written and
    /// read exactly so.
    static let everyKind: [(JournalEvent, String)] = [
        (.started(id: "memo-7", created: created, timeZone: "Europe/Berlin", language: "en"),
         #"{"created":"2025-11-29T16:25:43.250Z","event":"started","id":"memo-7","language":"en","timeZone":"Europe/Berlin"}"#),
        (.asked(.opening), #"{"event":"asked","question":"opening"}"#),
        (.asked(.choice(.nextStep)), #"{"event":"asked","question":"nextStep"}"#),
        (.answered("a/b \"c\"\nd"), #"{"event":"answered","text":"a/b \"c\"\nd"}"#),
        (.heard("so far"), #"{"event":"heard","text":"so far"}"#),
        (.continued("so far and on"), #"{"event":"continued","text":"so far and on"}"#),
        (.edited("---\n# Mine\n"), #"{"event":"edited","text":"---\n# Mine\n"}"#),
        (.decided(Decision(choice: .reason, source: .model, suggestion: .reason)),
         #"{"choice":"reason","event":"decided","source":"model","suggestion":"reason"}"#),
        (.decided(Decision(choice: .ready, source: .fallback)), #"{"choice":"ready","event":"decided","source":"fallback"}"#),
        (.laidOut(Layout(firstSourceIsTitle: true, groups: [[1], [2, 3]]), .model),
         #"{"event":"laidOut","layout":{"firstSourceIsTitle":true,"groups":[[1],[2,3]]},"source":"model"}"#),
    ]

    @Test func everyKindOfLineIsWrittenAndReadAsOnDisk() {
        for (event, line) in Self.everyKind {
            #expect(Journal.line(event) == line + "\n")
            #expect(Journal.read(line + "\n").events == [event], "\(line)")
        }
        let old = #"{"created":"2025-11-29T16:25:43Z","event":"started","id":"m","language":"de"}"#
        #expect(Journal.read(old + "\n").events == [.started(id: "m", created: Date(timeIntervalSince1970: 1_764_433_543),
                                                                timeZone: "UTC", language: "de")],
                "whole seconds and no time zone are read too")
        let bad = [#"{"event":"asked"}"#, #"{"event":"said","text":"x"}"#, #"{"event":"decided","choice":"ready","source":"oracle"}"#,
                   #"{"created":"yesterday","event":"started","id":"m","language":"de"}"#]
        #expect(Journal.read(bad.joined(separator: "\n") + "\n").damagedLines == [1, 2, 3, 4])
    }

    @Test func rebuildGivesTheSameNoteAsTheExchange() throws {
        let pack = try Fixtures.pack("en")
        let rebuilt = try Journal.rebuild(from: Self.text(Self.exchange()), loader: Fixtures.loader)
        let sources = SentenceSplitter.sources(from: ["A bike bell that counts. Every ring saves the spot.", "Because nobody reports near misses."], language: "en")
        // As a live exchange's note: how it ended (on the final choice), its kind, its highlights
        // (the fallback: no model is asked when recovering).
        let replay = try JournalReplay(Self.exchange())
        let rules = Rules(pack: pack)
        var metadata = NoteMetadata(id: "memo-7", created: Self.created, timeZone: TimeZone(identifier: "Europe/Berlin")!,
                                    language: "en", questions: [.reason], layoutSource: .model,
                                    ending: rules.ending(of: replay.conversation, decisions: replay.decisions, stopped: nil))
        metadata.tags = [rules.kind(of: replay.conversation).tag(pack)]
        metadata.highlights = .fallback
        let direct = NoteRenderer(pack: pack).render(
            sources: sources, layout: Layout(firstSourceIsTitle: true, groups: [[1], [2, 3]]), metadata: metadata)
        #expect(rebuilt == direct.markdown)
        let front = FrontMatter.read(rebuilt)
        #expect(front.string("ended") == "rulesChoseReady" && front.list("tags")?.count == 1 && front.string("next_steps") == "fallback",
                "\(front.values)")
        let cut = try JournalReplay(Array(Self.exchange().prefix(6))).note(pack: pack)
        #expect(FrontMatter.read(cut).string("ended") == "interrupted", "no final choice: the exchange was cut")
        #expect(direct.title == "A bike bell that counts.", "the renderer says the title it gave")
        #expect(rebuilt.contains("# A bike bell that counts."))
    }

    /// Cut the journal at every byte, as a crash mid-write would: whatever was fully written is
    /// read back, and the note holds every answer given so far. In Japanese most cuts fall
    /// inside a character; the bytes are decoded as the program decodes a file.
    @Test(arguments: ["en", "ja"])
    func aCrashAtAnyPointLosesNothingAlreadyWritten(language: Language) throws {
        let events = language == "ja" ? Self.japaneseExchange() : Self.exchange()
        let pack = try Fixtures.pack(language), rules = try Fixtures.rules(language)
        let bytes = Array(Self.text(events).utf8)
        var cutsInsideACharacter = 0, cuts = 0
        for cut in 1..<bytes.count {
            if bytes[cut] & 0xC0 == 0x80 { cutsInsideACharacter += 1 }
            let text = String(decoding: bytes[..<cut], as: UTF8.self)
            let read = Journal.read(text)
            // Lines that were written whole: the newlines before the cut.
            let complete = bytes[..<cut].filter { $0 == 0x0A }.count
            #expect(read.events == Array(events.prefix(complete)) || read.events == Array(events.prefix(complete + 1)),
                    "cut at byte \(cut): read \(read.events.count) events, \(complete) lines were complete")
            #expect(read.damagedLines.isEmpty)
            if complete > 0 {
                let note = try JournalReplay(read.events).note(pack: pack, rules: rules)
                let answers = read.events.compactMap { if case .answered(let text) = $0 { return text } else { return nil } }
                for answer in answers {
                    for sentence in SentenceSplitter.sources(from: [answer], language: language) {
                        #expect(note.contains(sentence.text), "cut at byte \(cut): \(sentence.text) missing")
                    }
                }
            }
            cuts += 1
        }
        #expect(cuts == bytes.count - 1)
        if language == "ja" {
            try #require(cutsInsideACharacter > 50, "only \(cutsInsideACharacter) cuts inside a UTF-8 character")
        }
    }

    /// Read back whole, the Japanese journal gives exactly the events written, characters intact.
    @Test func aJapaneseJournalRoundTrips() throws {
        let events = Self.japaneseExchange()
        let text = Self.text(events)
        #expect(text.utf8.contains { $0 >= 0x80 }, "the answers are written as UTF-8, not escaped")
        let read = Journal.read(text)
        #expect(read.events == events && read.damagedLines.isEmpty && !read.truncatedTail)
        let note = try Journal.rebuild(from: text, loader: Fixtures.loader)
        #expect(note.contains("# 数える自転車のベル。"))
        #expect(note.contains("鳴らすたびに場所を記録します。"))
        #expect(note.contains("ヒヤリハットを誰も報告しないからです。"))
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
