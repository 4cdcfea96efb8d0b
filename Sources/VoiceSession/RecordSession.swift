import Dialogue
import DialogueCore
import Foundation
import Notes
import Speech
import Transcription

/// `record`: the plain voice note of a classic voice-notes app, built from the exchange's own
/// pieces: one answer heard by `VoiceAnswers` until the person ends it (a key, Ctrl-C, an
/// ending such as "that's all", or a long silence; a thinking pause never does), journaled,
/// rendered with the person's first sentence as the title when the title rule allows and with
/// the key sentence and next steps a talk note gets, finished by the same `MemoFinisher`.
/// No questions.
public struct RecordSession: Sendable {
    /// A voice note may be long; the recording stops here even if the person keeps talking.
    public static let longestRecording: Double = 600

    /// The silence that ends a recording: long enough for any thinking pause, by the preset
    /// (relaxed 10 s, default 8 s, aggressive 6 s), never under 6 s.
    public static func silence(_ preset: SilencePreset) -> Double {
        switch preset {
        case .relaxed: 10
        case .default: 8
        case .aggressive: 6
        }
    }

    let context: SessionContext
    let answers: VoiceAnswers
    let interrupts: Interrupts
    let recorded: RecordedNote

    /// Opens the microphone and the speech model; a missing one is reported before recording.
    public static func open(_ context: SessionContext, keepAudio: Bool) throws -> RecordSession {
        let configuration = context.configuration
        let transcriber = try Transcriber(modelPath: configuration.whisperModel)
        let silence = Self.silence(configuration.silence)
        let endpointing = Endpointing.Configuration(hangover: silence, maximumAnswer: longestRecording,
                                                    noAnswerTimeout: max(Endpointing.Configuration.default.noAnswerTimeout, silence))
        let listener = try Listener(server: try AudioServer(server: configuration.audioServer),
                                    device: configuration.inputDevice, configuration: endpointing)
        let feedback = ListenFeedback(pack: context.pack, display: context.display, events: context.events, countdown: silence)
        let answers = VoiceAnswers(listener: listener, transcriber: transcriber, whisperLanguage: context.pack.whisperLanguage,
                                   feedback: feedback, person: nil, overlap: false, rules: context.rules,
                                   showsRecordingLength: true, finalDecoding: true, endsOnPhrase: true)
        let interrupts = Interrupts()
        return RecordSession(context: context, answers: answers, interrupts: interrupts,
                             recorded: RecordedNote(context: context, finisher: MemoFinisher(context: context, interrupts: interrupts),
                                                    keepAudio: keepAudio))
    }

    /// Records, transcribes, reviews and saves. Exit status: 0 saved, discarded or nothing
    /// heard; 1 a failure; 143 asked to stop by the system (the journal keeps the words).
    public func run() async -> Int32 {
        let pack = context.pack, display = context.display
        let memo = Memo(id: ExchangeSession.newID(), created: Date(), language: pack.language)
        let journal = try? FileJournal.start(memo, in: context.configuration.journalDirectory)
        try? journal?.append(.asked(.opening))
        // The model loads while the person speaks; it reads the key sentence and next steps after.
        let context = self.context
        let loading = Task { await Deciders.make(context) }
        let waiting = Deciders.Waiting(loading: loading, arbiter: answers.arbiter)

        // Every way of stopping keeps what was recorded: a key, Ctrl-C, or the system.
        let listener = answers.listener
        interrupts.onInterrupt { _ in listener.stop() }
        interrupts.watchKeys()
        // "Recording" only once the microphone delivers: words said earlier would be lost (a
        // first sentence went missing from the note).
        await listener.waitForFirstAudio()
        display.hint(pack.ui(.recordingHint, ["seconds": String(format: "%.0f", listener.configuration.hangover)]))
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
        return await recorded.conclude(heard, memo: memo, journal: journal, terminated: interrupts.cause == .terminate,
                                       highlights: { await waiting.highlights(for: $0, language: $1) })
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
    /// `highlights` reads the key sentence and next steps (the model, or its fallback).
    func conclude(_ heard: HeardAnswer, memo: Memo, journal: FileJournal?, terminated: Bool,
                  highlights: @Sendable ([Source], Language) async -> (Highlights, HighlightsSource) = { _, _ in (.fallback, .fallback) }) async -> Int32 {
        let pack = context.pack, display = context.display
        let text: String
        switch heard.outcome {
        case .answer(let answer): text = answer
        case .ended(let partial): text = partial ?? ""
        case .noAnswer, .unclear: text = ""
        }
        var refused = context.rules.refusal(in: text) != nil
        if !text.isEmpty, !refused {
            try? journal?.append(.answered(text))
            display.answer(UserText.sanitized(text))
        }
        if refused { journal?.remove() }
        if terminated { display.line(pack.ui(.interrupted)); return 143 }

        // As in an exchange: a person at the terminal is asked before the refusal discards.
        var takenBack: RefusalConfirmation.Verdict?
        if refused, context.canConfirm {
            let verdict = RefusalConfirmation(context: context, interrupts: finisher.interrupts).ask(about: .everything)
            if verdict != .discard { (refused, takenBack) = (false, verdict) }
        }
        let conversation = Conversation(turns: [Turn(question: .opening, answer: text)])
        let sources = refused ? [] : context.rules.noteSources(conversation, keepingRefusals: takenBack != nil)
        guard !sources.isEmpty else {
            journal?.remove()
            display.line(pack.ui(refused ? .refusedDiscarded : .nothingRecorded))
            return 0
        }
        // No questions; how it ended, its kind and its highlights, as a talk note has them (a
        // refusal taken back: one sentence per bullet, as after a refusal in an exchange).
        var fields = Memo.ExchangeFields(ending: takenBack == nil ? Self.ending(of: heard, conversation: conversation, rules: context.rules)
                                                                  : EndReason.refused.rawValue)
        if takenBack == nil {
            (fields.highlights, fields.highlightsSource) = await highlights(sources, pack.language)
            fields.highlights = context.rules.highlights(fields.highlights, of: sources)
        }
        let note = memo.note(conversation, sources: sources, layout: .recording(sourceCount: sources.count),
                             layoutSource: .recording, exchange: fields, pack: pack, rules: context.rules)
        let kept = takenBack == nil ? journal
            : FileJournal.start(memo, holding: conversation, note: note.markdown, in: context.configuration.journalDirectory)
        switch finisher.finish(note: note.markdown, title: note.title, memo: memo, journal: kept, editFirst: takenBack != .keep) {
        case .saved(let path):
            guard keepAudio, let recording = heard.recording else { return 0 }
            return saveAudio(recording, besideNoteAt: path)
        case .discarded: return 0
        case .keptInJournal: return 1
        }
    }

    /// How a recording ended, in the words of a talk note's `ended`: an ending it said
    /// ("userEnded", as the rules name it), its long silence ("noAnswer"), the longest recording
    /// ("recordingLimit"), or a key or Ctrl-C ("interrupted").
    static func ending(of heard: HeardAnswer, conversation: Conversation, rules: Rules) -> String {
        switch heard.recording?.ending {
        case .maximumLength?: return "recordingLimit"
        case .stopped?, .cancelled?: return "interrupted"
        case .endOfSpeech?, .noAnswer?, nil:
            // The ending read live ended it, however the final reading of the whole words it.
            let live = heard.endingRead.map { Conversation(turns: [Turn(question: .opening, answer: $0)]) }
            let said = [live, conversation].compactMap { $0 }.first { rules.endSignal(of: $0) != nil }
            return said.map { rules.ending(of: $0, decisions: [], stopped: nil) } ?? "noAnswer"
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
