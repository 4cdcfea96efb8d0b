import Foundation
import Testing
@testable import DialogueCore

/// What a journal cut short mid-answer gives back: the answer as heard at the last pause.
@Suite struct JournalHeardTests {
    static let start = JournalEvent.started(id: "j", created: Date(timeIntervalSince1970: 0), timeZone: "UTC", language: "ja")

    func replay(_ events: [JournalEvent]) throws -> JournalReplay {
        try JournalReplay(Journal.read(events.map(Journal.line).joined()).events)
    }

    @Test func theLastHeardTextIsTheAnswerAfterAKill() throws {
        let replay = try replay([Self.start, .asked(.opening), .answered("新しいアプリです。"), .asked(.choice(.problem)),
                                 .heard("予約が"), .heard("予約が大変です。")])
        #expect(replay.conversation.turns == [Turn(question: .opening, answer: "新しいアプリです。"),
                                              Turn(question: .choice(.problem), answer: "予約が大変です。")])
    }

    @Test func theFinalAnswerReplacesWhatWasHeard() throws {
        let replay = try replay([Self.start, .asked(.opening), .heard("A tool"), .answered("A tool library."),
                                 .asked(.choice(.problem)), .answered("Drills sit unused.")])
        #expect(replay.conversation.answers == ["A tool library.", "Drills sit unused."])
    }

    @Test func aPauseTranscriptAfterItsAnswerIsStale() throws {
        let replay = try replay([Self.start, .asked(.opening), .answered("A tool library."), .heard("A tool")])
        #expect(replay.conversation.answers == ["A tool library."])
    }

    @Test func anEditedNoteIsWhatRecoverGives() throws {
        let pack = try LanguagePackLoader().load("ja")
        let replay = try replay([Self.start, .asked(.opening), .answered("新しいアプリです。"), .edited("# 私のメモ\n")])
        #expect(replay.note(pack: pack) == "# 私のメモ\n")
    }
}
