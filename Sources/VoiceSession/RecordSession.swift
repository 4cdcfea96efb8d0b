import Dialogue
import DialogueCore
import Foundation
import Notes
import Speech
import Transcription

/// `record`: the plain voice note of a classic voice-notes app, built from the exchange's own
/// pieces: one answer heard by `VoiceAnswers` (no pauses speculated on), journaled, rendered
/// with the person's first sentence as the title when the title rule allows, finished by the
/// same `MemoFinisher`. No questions, no model.
public struct RecordSession: Sendable {
    /// A voice note may be long; the recording stops here even if the person keeps talking.
    public static let longestRecording: Double = 600

    let context: SessionContext
    let answers: VoiceAnswers
    let interrupts: Interrupts
    let recorded: RecordedNote

    /// Opens the microphone and the speech model; a missing one is reported before recording.
    public static func open(_ context: SessionContext, keepAudio: Bool) throws -> RecordSession {
        let configuration = context.configuration
        let transcriber = try Transcriber(modelPath: configuration.whisperModel)
        let endpointing = Endpointing.Configuration(hangover: configuration.silence.endpointing.hangover,
                                                    maximumAnswer: longestRecording)
        let listener = try Listener(server: try AudioServer(server: configuration.audioServer),
                                    device: configuration.inputDevice, configuration: endpointing)
        let feedback = ListenFeedback(pack: context.pack, display: context.display, events: context.events)
        let answers = VoiceAnswers(listener: listener, transcriber: transcriber, language: context.pack.whisperLanguage,
                                   feedback: feedback, person: nil, overlap: false, showsRecordingLength: true,
                                   finalDecoding: true)
        let interrupts = Interrupts()
        return RecordSession(context: context, answers: answers, interrupts: interrupts,
                             recorded: RecordedNote(context: context, finisher: MemoFinisher(context: context, interrupts: interrupts),
                                                    keepAudio: keepAudio))
    }

    /// Records, transcribes, reviews and saves. Exit status: 0 saved, discarded or nothing
    /// heard; 1 a failure; 143 asked to stop by the system (the journal keeps the words).
    public func run() async -> Int32 {
        let pack = context.pack, display = context.display
        let memo = Memo(id: ExchangeSession.newID(), created: Date(), language: pack.code)
        let journal = try? FileJournal.start(memo, in: context.configuration.journalDirectory)
        try? journal?.append(.asked(.opening))

        // Every way of stopping keeps what was recorded: a key, Ctrl-C, or the system.
        let listener = answers.listener
        interrupts.onInterrupt { _ in listener.stop() }
        interrupts.watchKeys()
        // "Recording" only once the microphone delivers: words said earlier would be lost (a
        // first sentence went missing from the note).
        await listener.waitForFirstAudio()
        display.hint(pack.ui(.recordingHint))
        let heard: HeardAnswer
        do {
            heard = try await answers.hear(early: nil)
        } catch {
            interrupts.stopWatchingKeys()
            journal?.remove()
            display.error(pack.ui(.audioFailed, ["reason": "\(error)"]))
            return 1
        }
        interrupts.stopWatchingKeys()
        display.status("", level: nil, partial: nil)
        return recorded.conclude(heard, memo: memo, journal: journal, terminated: interrupts.cause == .terminate)
    }
}

/// What follows the recording, apart from the audio so it is tested with fakes: the words
/// journaled (or, refused, no trace), the note rendered and finished, the audio kept beside it
/// when asked.
struct RecordedNote: Sendable {
    let context: SessionContext
    let finisher: MemoFinisher
    /// Keep the recording as a WAV file beside the note.
    let keepAudio: Bool

    /// `terminated`: the system asked to stop, so the journal keeps the words for `recover`.
    func conclude(_ heard: HeardAnswer, memo: Memo, journal: FileJournal?, terminated: Bool) -> Int32 {
        let pack = context.pack, display = context.display
        let text: String
        switch heard.outcome {
        case .answer(let answer): text = answer
        case .ended(let partial): text = partial ?? ""
        case .noAnswer, .unclear: text = ""
        }
        let refusal = context.rules.refusal(in: text)
        if !text.isEmpty, refusal == nil {
            try? journal?.append(.answered(text))
            display.answer(UserText.sanitized(text))
        }
        if refusal != nil { journal?.remove() }
        if terminated { display.line(pack.ui(.interrupted)); return 143 }

        let sources = refusal == nil ? SentenceSplitter.sources(from: [text], language: pack.code) : []
        guard !sources.isEmpty else {
            journal?.remove()
            display.line(pack.ui(refusal != nil ? .refusedDiscarded : .nothingRecorded))
            return 0
        }
        // A plain recording: no questions, no ending, kind or highlights in its front matter.
        let note = memo.note(Conversation(turns: [Turn(question: .opening, answer: text)]), sources: sources,
                             layout: .recording(sourceCount: sources.count), layoutSource: .recording, exchange: nil,
                             pack: pack, rules: context.rules)
        switch finisher.finish(note: note.markdown, title: note.title, memo: memo, journal: journal) {
        case .saved(let path):
            guard keepAudio, let recording = heard.recording else { return 0 }
            return saveAudio(recording, besideNoteAt: path)
        case .discarded: return 0
        case .keptInJournal: return 1
        }
    }

    private func saveAudio(_ recording: ListenResult, besideNoteAt path: String) -> Int32 {
        do {
            let wav = try context.store.saveAudio(WAVFile.encode(mono: recording.samples, sampleRate: recording.sampleRate),
                                                  besideNoteAt: path)
            context.display.line(context.pack.ui(.audioKept, ["path": wav]))
            context.events.emit(.audio(path: wav))
            return 0
        } catch {
            context.display.error("\(error)")
            return 1
        }
    }
}
