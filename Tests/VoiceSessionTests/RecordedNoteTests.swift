import Dialogue
import DialogueCore
import Foundation
@testable import Speech
import Testing
import Transcription
@testable import VoiceSession

/// `record` after the microphone: what the heard answer becomes on disk.
@Suite struct RecordedNoteTests {
    static func recorded(_ context: SessionContext, keepAudio: Bool = false) -> RecordedNote {
        RecordedNote(context: context,
                     finisher: MemoFinisher(context: context, interrupts: Interrupts(catchesSignals: false), edit: { $0 }),
                     keepAudio: keepAudio)
    }

    static func journal(_ scratch: Scratch) throws -> FileJournal {
        let journal = try FileJournal(directory: scratch.journals, id: "r")
        try journal.append(.started(id: "r", created: Date(), timeZone: "UTC", language: "en"))
        try journal.append(.asked(.opening))
        return journal
    }

    /// Every file under the scratch folder, with its text.
    static func everything(in scratch: Scratch) -> [(path: String, text: String)] {
        let files = FileManager.default.enumerator(atPath: scratch.path)?.compactMap { $0 as? String } ?? []
        return files.compactMap { name in
            let path = scratch.path + "/" + name
            return (try? Data(contentsOf: URL(fileURLWithPath: path))).map { (path, String(decoding: $0, as: UTF8.self)) }
        }
    }

    @Test func theWordsBecomeTheNoteAndTheJournalGoes() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let said = "I need to buy paint for the fence. Then I call Anna about the ladder."
        let status = await Self.recorded(try makeContext(scratch)).conclude(
            HeardAnswer(outcome: .answer(said)), memo: Memo(id: "r", created: Date(), language: "en"), journal: try Self.journal(scratch), terminated: false)
        #expect(status == 0)
        let notes = scratch.files(in: scratch.notes).filter { $0.hasSuffix(".md") }
        try #require(notes.count == 1)
        let note = try String(contentsOfFile: scratch.notes + "/" + notes[0], encoding: .utf8)
        #expect(note.contains("I need to buy paint for the fence."))
        #expect(note.contains("Then I call Anna about the ladder."))
        #expect(scratch.files(in: scratch.journals).isEmpty)
    }

    @Test func anAnswerCutShortKeepsItsWords() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let status = await Self.recorded(try makeContext(scratch)).conclude(
            HeardAnswer(outcome: .ended(partial: "The garden needs a second bed by the wall")), memo: Memo(id: "r", created: Date(), language: "en"),
            journal: try Self.journal(scratch), terminated: false)
        #expect(status == 0)
        let notes = scratch.files(in: scratch.notes).filter { $0.hasSuffix(".md") }
        try #require(notes.count == 1)
        #expect(try String(contentsOfFile: scratch.notes + "/" + notes[0], encoding: .utf8).contains("The garden needs a second bed by the wall"))
    }

    /// A recording that ends on "That's all." keeps its content, not the ending, and gets a talk
    /// note's fields: how it ended, its kind, the key sentence and the next steps it was given.
    @Test func anEndingIsNoContentAndTheNoteGetsHighlights() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let said = "I need to buy paint for the fence. Then I call Anna about the ladder. That's all."
        let listened = ListenResult(ending: .endOfSpeech, samples: [], sampleRate: 16_000, clipStart: 0,
                                    timing: ListenTiming(endpoint: 1, declaredAfter: 1))
        let status = await Self.recorded(try makeContext(scratch)).conclude(
            HeardAnswer(outcome: .answer(said), recording: listened), memo: Memo(id: "r", created: Date(), language: "en"),
            journal: try Self.journal(scratch), terminated: false,
            highlights: { _, _ in (Highlights(nextSteps: [2], key: 1), .model) })
        #expect(status == 0)
        let notes = scratch.files(in: scratch.notes).filter { $0.hasSuffix(".md") }
        try #require(notes.count == 1)
        let note = try String(contentsOfFile: scratch.notes + "/" + notes[0], encoding: .utf8)
        #expect(!note.contains("That's all"), "\(note)")
        #expect(note.contains("ended: \"userEnded\""), "\(note)")
        #expect(note.contains("- [ ] Then I call Anna about the ladder."), "\(note)")
        #expect(note.contains("layout: \"recording\""))
    }

    @Test(arguments: [(AnswerEnding.endOfSpeech, "noAnswer"), (.stopped, "interrupted"), (.cancelled, "interrupted"),
                      (.maximumLength, "recordingLimit")])
    func theEndingSaysHowTheRecordingEnded(ending: AnswerEnding, expected: String) throws {
        let rules = Rules(pack: try LanguagePackLoader().load("en"))
        let listened = ListenResult(ending: ending, samples: [], sampleRate: 16_000, clipStart: 0,
                                    timing: ListenTiming(endpoint: 1, declaredAfter: 1))
        let heard = HeardAnswer(outcome: .answer("We need a bigger shed."), recording: listened)
        #expect(RecordedNote.ending(of: heard, conversation: Conversation(turns: [Turn(question: .opening, answer: "We need a bigger shed.")]),
                                    rules: rules) == expected)
    }

    /// The recording ended on "That's all for now." read at its last pause: that is how it ended,
    /// even where the final reading of the whole left the short ending out (seen on the real
    /// stack: `ended: "noAnswer"` for a recording the phrase had ended).
    @Test func anEndingReadLiveSaysHowItEndedWhateverTheFinalReading() throws {
        let rules = Rules(pack: try LanguagePackLoader().load("en"))
        let listened = ListenResult(ending: .endOfSpeech, samples: [], sampleRate: 16_000, clipStart: 0,
                                    timing: ListenTiming(endpoint: 1, declaredAfter: 1))
        let final = Conversation(turns: [Turn(question: .opening, answer: "I need to paint the fence. Then I will buy new tires.")])
        var heard = HeardAnswer(outcome: .answer(final.answers[0]), recording: listened)
        #expect(RecordedNote.ending(of: heard, conversation: final, rules: rules) == "noAnswer")
        heard.endingRead = "Then I will buy new tires. That's all for now."
        #expect(RecordedNote.ending(of: heard, conversation: final, rules: rules) == "userEnded")
    }

    /// Only the last pause's reading counts, and only within the recording it ended.
    @Test func theLastPauseReadIsTheEnding() {
        let read = EndingRead()
        read.read("That's all.", clipLength: 100)
        read.read(nil, clipLength: 50)   // an earlier pause, read late
        #expect(read.text(at: 120) == "That's all.")
        read.read(nil, clipLength: 150)  // the person went on: the next pause did not end it
        #expect(read.text(at: 160) == nil)
        read.read("Das war's.", clipLength: 200)
        #expect(read.text(at: 180) == nil, "a pause after the recording's end")
    }

    /// A pause's read gives way to the next pause's: the earlier one is cancelled, the new one runs.
    @Test func aNewPauseReadCancelsTheOneUnderWay() async {
        let read = EndingRead()
        let earlier = Task { _ = try? await Task.sleep(for: .seconds(60)) }
        let later = Task { _ = try? await Task.sleep(for: .seconds(60)) }
        read.supersede(with: earlier)
        #expect(!earlier.isCancelled)
        read.supersede(with: later)
        #expect(earlier.isCancelled)
        #expect(!later.isCancelled)
        later.cancel()
    }

    /// A thinking pause never ends a recording: whatever the preset, at least 6 s of silence.
    @Test func theRecordingSilenceIsNeverUnderSixSeconds() {
        #expect(SilencePreset.allCases.allSatisfy { RecordSession.silence($0) >= 6 })
        #expect(RecordSession.silence(.default) == 8)
    }

    @Test(arguments: [false, true])
    func aRefusalLeavesNoTrace(terminated: Bool) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let display = RecordingDisplay()
        let said = "My salary is forty thousand. Please don't record this."
        let status = await Self.recorded(try makeContext(scratch, display: display)).conclude(
            HeardAnswer(outcome: .answer(said)), memo: Memo(id: "r", created: Date(), language: "en"), journal: try Self.journal(scratch), terminated: terminated)
        #expect(status == (terminated ? 143 : 0))
        #expect(scratch.files(in: scratch.journals).isEmpty)
        #expect(scratch.files(in: scratch.notes).isEmpty)
        for file in Self.everything(in: scratch) {
            #expect(!file.text.contains("salary"), "\(file.path) keeps refused words")
        }
        if !terminated { #expect(display.lines.contains("line: Nothing was saved, as you asked.")) }
    }

    /// At a terminal the recording's refusal is confirmed first: Enter discards as before, `n`
    /// keeps every word (the review's prompt then saves), `e` opens the editor first.
    @Test(arguments: ["\n", "n\ns\n", "e\ns\n"])
    func aRefusalAtATerminalIsConfirmedFirst(typed: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let display = RecordingDisplay()
        let context = try makeContext(scratch, yes: false, input: typed, display: display, terminal: true)
        let edited = Log()
        let recorded = RecordedNote(context: context, finisher: MemoFinisher(context: context, interrupts: Interrupts(catchesSignals: false),
                                                                             edit: { text in edited.withLock { $0.append(text) }; return text }),
                                    keepAudio: false)
        let said = "My salary is forty thousand. Please don't record this."
        let status = await recorded.conclude(HeardAnswer(outcome: .answer(said)), memo: Memo(id: "r", created: Date(), language: "en"),
                                       journal: try Self.journal(scratch), terminated: false)
        #expect(status == 0)
        #expect(display.lines.contains("line: You asked me not to keep any of this. Discard it? [Y/n/e]"))
        #expect(scratch.files(in: scratch.journals).isEmpty)
        if typed == "\n" {
            for file in Self.everything(in: scratch) { #expect(!file.text.contains("salary"), "\(file.path) keeps refused words") }
            #expect(display.lines.last == "line: Nothing was saved, as you asked.")
        } else {
            let notes = scratch.files(in: scratch.notes).filter { $0.hasSuffix(".md") }
            try #require(notes.count == 1)
            let note = try String(contentsOfFile: scratch.notes + "/" + notes[0], encoding: .utf8)
            #expect(note.contains("My salary is forty thousand.") && note.contains("Please don't record this."), "\(note)")
            #expect(edited.withLock { $0.count } == (typed.hasPrefix("e") ? 1 : 0))
        }
    }

    @Test func nothingHeardMakesNoNote() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let display = RecordingDisplay()
        let status = await Self.recorded(try makeContext(scratch, display: display)).conclude(
            HeardAnswer(outcome: .noAnswer), memo: Memo(id: "r", created: Date(), language: "en"), journal: try Self.journal(scratch), terminated: false)
        #expect(status == 0)
        #expect(scratch.files(in: scratch.notes).isEmpty)
        #expect(scratch.files(in: scratch.journals).isEmpty)
        #expect(display.lines.contains("line: Nothing was heard, so no note was made."))
    }

    @Test func stoppedByTheSystemTheJournalKeepsTheWordsForRecover() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let status = await Self.recorded(try makeContext(scratch)).conclude(
            HeardAnswer(outcome: .answer("The bakery opens at six.")), memo: Memo(id: "r", created: Date(), language: "en"),
            journal: try Self.journal(scratch), terminated: true)
        #expect(status == 143)
        #expect(scratch.files(in: scratch.notes).isEmpty)
        let journals = scratch.files(in: scratch.journals)
        try #require(journals.count == 1)
        #expect(try String(contentsOfFile: scratch.journals + "/" + journals[0], encoding: .utf8).contains("The bakery opens at six."))
    }

    @Test func keptAudioIsSavedBesideTheNoteAsRecorded() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let tone = (0..<8_000).map { Float(sin(Double($0) * 2 * .pi * 440 / 16_000) * 0.5) }
        let recording = ListenResult(ending: .endOfSpeech, samples: tone, sampleRate: 16_000, clipStart: 0,
                                     timing: ListenTiming(speechStart: 0, speechEnd: 0.5, endpoint: 1.2, declaredAfter: 1.2))
        let status = await Self.recorded(try makeContext(scratch), keepAudio: true).conclude(
            HeardAnswer(outcome: .answer("A tone for the test."), recording: recording), memo: Memo(id: "r", created: Date(), language: "en"),
            journal: try Self.journal(scratch), terminated: false)
        #expect(status == 0)
        let notes = scratch.files(in: scratch.notes)
        let note = try #require(notes.first { $0.hasSuffix(".md") })
        let wav = try WAVFile(contentsOf: scratch.notes + "/" + note.dropLast(3) + ".wav")
        #expect(wav.sampleRate == 16_000)
        #expect(wav.samples.count == tone.count)
        #expect(zip(wav.samples, tone).allSatisfy { abs($0 - $1) < 0.001 })
    }
}
