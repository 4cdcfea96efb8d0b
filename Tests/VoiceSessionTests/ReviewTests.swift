import Dialogue
import DialogueCore
import Foundation
import Notes
import Testing
@testable import VoiceSession

/// The review prompt's keys and what each leaves on disk.
@Suite struct ReviewTests {
    static let note = MemoFinisherTests.note

    func finish(_ scratch: Scratch, input: String, refused: Bool = false, display: RecordingDisplay = RecordingDisplay(),
                interrupts: Interrupts = Interrupts(catchesSignals: false)) throws -> MemoFinisher.Result {
        let journal = try FileJournal(directory: scratch.journals, id: "t")
        try journal.append(.started(id: "t", created: Date(timeIntervalSince1970: 0), timeZone: "UTC", language: "en"))
        try journal.append(.answered("People borrow a drill."))
        let finisher = MemoFinisher(context: try makeContext(scratch, yes: false, input: input, display: display),
                                    interrupts: interrupts, edit: { $0 })
        return finisher.finish(note: Self.note, title: "A tool library", memo: Memo(id: "t", created: Date(), language: "en"),
                               journal: journal, refused: refused)
    }

    @Test func theEndOfInputNeverSaves() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        #expect(try finish(scratch, input: "") == .keptInJournal)
        #expect(scratch.files(in: scratch.notes).isEmpty)
        let replay = try JournalReplay(Journal.read(try String(contentsOfFile: scratch.journals + "/t.jsonl", encoding: .utf8)).events)
        #expect(replay.editedNote == Self.note, "recover gets the note back as it stood")
    }

    @Test func endOfInputAtTheDiscardConfirmationKeepsTheNote() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        #expect(try finish(scratch, input: "d\n") == .keptInJournal)
        #expect(scratch.files(in: scratch.journals) == ["t.jsonl"])
    }

    @Test func ctrlCAtThePromptKeepsTheNoteForRecover() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let interrupts = Interrupts(catchesSignals: false)
        // Standard input stays open (nothing to read): only the interrupt ends the prompt.
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[1]) }
        let context = try makeContext(scratch, yes: false)
        let finisher = MemoFinisher(context: try SessionContext(configuration: context.configuration, display: RecordingDisplay(),
                                                            input: LineInput(descriptor: ends[0])),
                                    interrupts: interrupts, edit: { $0 })
        let firing = Thread { usleep(300_000); interrupts.fire(.interrupt) }
        firing.start()
        let result = finisher.finish(note: Self.note, title: "A tool library", memo: Memo(id: "t", created: Date(), language: "en"), journal: nil)
        #expect(result == .keptInJournal)
        #expect(scratch.files(in: scratch.notes).isEmpty)
        #expect(scratch.files(in: scratch.journals) == ["t.jsonl"], "a journal is made for the note")
    }

    @Test func anUnknownKeySaysWhichKeysWork() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let display = RecordingDisplay()
        guard case .saved = try finish(scratch, input: "x\n\ns\n", display: display) else { Issue.record("not saved"); return }
        #expect(display.lines.filter { $0 == "line: Press s to save, e to edit again or d to discard." }.count == 2)
    }

    @Test func aRefusedExchangeDiscardsOnEnterAndSaysWhatWasKept() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let display = RecordingDisplay()
        #expect(try finish(scratch, input: "\n", refused: true, display: display) == .discarded)
        #expect(display.lines.contains { $0.hasPrefix("line: You asked not to record that answer") })
        #expect(display.lines.last == "line: Nothing was saved, as you asked.")
        #expect(scratch.files(in: scratch.notes).isEmpty)
        #expect(scratch.files(in: scratch.journals).isEmpty)
    }

    @Test func aRefusedExchangeIsSavedOnlyOnTheSaveKey() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        guard case .saved = try finish(scratch, input: "s\n", refused: true) else { Issue.record("not saved"); return }
        #expect(scratch.files(in: scratch.notes).count == 1)
    }

    @Test func aRefusedExchangeUnderYesIsDiscarded() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let finisher = MemoFinisher(context: try makeContext(scratch), interrupts: Interrupts(catchesSignals: false))
        #expect(finisher.finish(note: Self.note, title: "T", memo: Memo(id: "t", created: Date(), language: "en"), journal: nil, refused: true) == .discarded)
        #expect(scratch.files(in: scratch.notes).isEmpty)
    }

    @Test func aFailedSaveKeepsTheEditsRetriesAndSavesElsewhere() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = FileManager.default.createFile(atPath: scratch.notes, contents: Data())   // not a folder
        let elsewhere = scratch.path + "/elsewhere"
        let display = RecordingDisplay()
        let journal = try FileJournal(directory: scratch.journals, id: "t")
        let finisher = MemoFinisher(context: try makeContext(scratch, yes: false, input: "s\nr\ne\n\(elsewhere)\n", display: display),
                                    interrupts: Interrupts(catchesSignals: false), edit: { $0 + "My edit.\n" })
        let result = finisher.finish(note: Self.note, title: "A tool library", memo: Memo(id: "t", created: Date(), language: "en"), journal: journal)
        guard case .saved(let path) = result else { Issue.record("\(result)"); return }
        #expect(path.hasPrefix(elsewhere + "/"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.note + "My edit.\n")
        #expect(display.lines.filter { $0.hasPrefix("error: Could not save the note") }.count == 2, "the first try and the retry")
        #expect(scratch.files(in: scratch.journals).isEmpty, "saved in the end: the journal goes")
    }

    @Test func aFailedSaveLeftForRecoverBringsBackTheEdits() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = FileManager.default.createFile(atPath: scratch.notes, contents: Data())
        let journal = try FileJournal(directory: scratch.journals, id: "t")
        try journal.append(.started(id: "t", created: Date(timeIntervalSince1970: 0), timeZone: "UTC", language: "en"))
        try journal.append(.answered("People borrow a drill."))
        let finisher = MemoFinisher(context: try makeContext(scratch, yes: false, input: "s\n\n"),
                                    interrupts: Interrupts(catchesSignals: false), edit: { $0 + "My edit.\n" })
        #expect(finisher.finish(note: Self.note, title: "T", memo: Memo(id: "t", created: Date(), language: "en"), journal: journal) == .keptInJournal)
        #expect(try FileManager.default.attributesOfItem(atPath: journal.path)[.posixPermissions] as? Int == 0o600)
        // recover, into a folder that works now: the edited text, not a fresh rendering.
        try FileManager.default.removeItem(atPath: scratch.notes)
        let recovery = Recovery(context: try makeContext(scratch), finisher: nil)
        #expect(recovery.recover(journal.path) == 0)
        let notes = scratch.files(in: scratch.notes)
        try #require(notes.count == 1)
        #expect(try String(contentsOfFile: scratch.notes + "/" + notes[0], encoding: .utf8) == Self.note + "My edit.\n")
    }
}
