import Dialogue
import DialogueCore
import Foundation
import Speech
import Synchronization
import Transcription

/// The voice half of an exchange: one audio session (server connection, output stream, record
/// stream) for the whole exchange, every prompt rendered once up front, answers heard with
/// endpointing and the watchdog, then transcribed in process.
public struct VoicePorts: Sendable {
    public let speaker: VoiceSpeaker
    public let answers: VoiceAnswers

    /// Opens everything a voice exchange needs, so a missing piece is reported (and typing
    /// mode offered) before the first question. `person`, in the demo, speaks the answers.
    public static func open(_ context: SessionContext, person: SyntheticPerson? = nil) async throws -> VoicePorts {
        let configuration = context.configuration, pack = context.pack
        let transcriber = try Transcriber(modelPath: configuration.whisperModel)
        let arbiter = EngineArbiter()
        let finals = FinalPass(transcriber: transcriber, arbiter: arbiter,
                               language: pack.whisperLanguage)
        let server = try AudioServer(server: configuration.audioServer)
        let speaker = try Speaker(server: server, device: configuration.outputDevice)
        let listener = try Listener(server: server, device: configuration.inputDevice,
                                    configuration: configuration.silence.endpointing)
        // The demo's devices are virtual: its questions cannot reach its microphone.
        if person != nil { listener.ownVoice = .unheard } else { try? listener.detectEchoCancellation() }
        // The opening now (it also proves the voice works); the other prompts while it plays.
        var texts = promptTexts(pack)
        let openingText = texts.removeValue(forKey: .question(.opening)) ?? pack.opening.spoken
        let opening = try PromptCache(rendering: [SpokenPrompt.question(.opening): openingText], voice: pack.voice)
        let others = Task { [texts] in try PromptCache(rendering: texts, voice: pack.voice) }
        let feedback = ListenFeedback(pack: pack, display: context.display, events: context.events)
        return VoicePorts(
            speaker: VoiceSpeaker(speaker: speaker, opening: opening, others: others, listener: listener),
            answers: VoiceAnswers(listener: listener, transcriber: transcriber, whisperLanguage: pack.whisperLanguage,
                                  feedback: feedback, person: person, overlap: configuration.overlap,
                                  adaptive: configuration.fixedSilence ? nil : configuration.silence.adaptiveWait.shifted(by: pack.turnThresholdShift),
                                  rules: context.rules, arbiter: arbiter, finals: finals))
    }

    /// Every line the exchange may say, in the speech form (kana for Japanese).
    static func promptTexts(_ pack: LanguagePack) -> [SpokenPrompt: String] {
        var texts: [SpokenPrompt: String] = [.question(.opening): pack.opening.spoken]
        for choice in QuestionChoice.questions { texts[.question(.choice(choice))] = pack.line(for: choice).spoken }
        for choice in QuestionChoice.finals { texts[.closing(choice)] = pack.line(for: choice).spoken }
        return texts
    }
}

/// Plays the pre-rendered prompt; no synthesis sits between a decision and its audio (the
/// prompts after the opening are rendered while the opening plays).
public struct VoiceSpeaker: PromptSpeaking {
    let speaker: Speaker
    let opening: PromptCache<SpokenPrompt>
    let others: Task<PromptCache<SpokenPrompt>, Error>
    /// Told when a question or a closing line starts (a loudspeaker's sound must not pass for
    /// the person).
    var listener: Listener?

    public func say(_ prompt: SpokenPrompt) async throws {
        var buffer = opening[prompt]
        if buffer == nil { buffer = try await others.value[prompt] }
        guard let buffer else { return }
        // A closing line is listened over as a question is: the person may take its ending back.
        guard let listener else { _ = try await speaker.play(buffer); return }
        let silence = speaker.nextLeadingSilence
        listener.questionStarts(playing: buffer, leadingSilence: silence)
        do {
            try await speaker.play(buffer, leadingSilence: silence)
            listener.questionEnds()
        } catch {
            listener.questionEnds(stopped: true)
            throw error
        }
    }
}

/// One answer as heard: what it became, and its audio (for `record --keep-audio`).
public struct HeardAnswer: Sendable {
    public var outcome: AnswerOutcome
    public var recording: ListenResult?
    /// A recording's end as read at its last pause when that reading ended it ("…That's all for
    /// now."): how it ended, even where the final reading of the whole words it otherwise.
    public var endingRead: String?
}

/// Listens for one answer and transcribes it. Silence is never transcribed; an interrupted
/// answer is transcribed as far as it went, so those words reach the editor too.
///
/// With `overlap` (the default) transcription starts when the person pauses, while the
/// listener still waits out the hangover to be sure they have finished; if they go on, that
/// work is thrown away. So the hangover hides the transcription instead of adding to it.
public struct VoiceAnswers: ResumableAnswers {
    public let listener: Listener
    let transcriber: Transcriber
    /// whisper's code for the language (`LanguagePack.whisperLanguage`).
    let whisperLanguage: String
    let feedback: ListenFeedback
    let person: SyntheticPerson?
    var overlap = true
    /// With overlap: the answer ends after a silence that follows how finished its transcript
    /// at the pause sounds (`TurnCompletion`), instead of the preset's fixed one.
    var adaptive: AdaptiveWait?
    /// An answer the rules read as ending the exchange ("that's all", a refusal) is finished,
    /// however unsure whisper was of its final mark.
    var rules: Rules?
    /// Say "Transcribing N s of audio…" while transcribing (record: a long note takes a while).
    var showsRecordingLength = false
    /// Keeps the final passes off the cores while the live path or the model works.
    public var arbiter = EngineArbiter()
    /// Each answer's final transcript, for the note (nil: the live transcript is the note's).
    var finals: FinalPass?
    /// Transcribe with the final pass's settings from the start (record: nothing is read live,
    /// so its one transcription is the note's).
    var finalDecoding = false
    /// Read the last seconds at each pause for an ending ("that's all", record): said, the
    /// recording ends at once; otherwise it goes on until its long silence. A thinking pause
    /// never ends it.
    var endsOnPhrase = false
    /// Work of the other engine (the language model warming up or deciding early) that must
    /// finish before whisper runs.
    public let engineGate = EngineGate()
    /// With `endsOnPhrase`: the latest pause's reading, when it ended the recording.
    let endingRead = EndingRead()

    public func answer(to question: TurnQuestion) async throws -> AnswerOutcome {
        try await hear(question, early: nil).outcome
    }

    public func answer(to question: TurnQuestion,
                       early: @escaping @Sendable (AnswerSoFar) -> Task<Void, Never>) async throws -> AnswerOutcome {
        try await hear(question, early: early).outcome
    }

    public func speechOverQuestion() async -> TalkOver? {
        switch await listener.speechOverQuestion() {
        case .goesOn: .goesOn
        case .answers: .answers
        case nil: nil
        }
    }

    public func continueAnswer(to question: TurnQuestion,
                               early: @escaping @Sendable (AnswerSoFar) -> Task<Void, Never>) async throws -> AnswerOutcome {
        try await hear(question, continuing: true, early: early).outcome
    }

    /// Listens and transcribes the answer to `question` (the demo's person answers it). `early`
    /// receives the answer as heard at a pause (overlap only), so the next question is decided
    /// within the hangover, and as drafted while the person speaks, so that decision starts
    /// from a prompt the model has mostly read.
    /// With `continuing`, the answer the person went on with is heard on, all of it.
    public func hear(_ question: TurnQuestion = .opening, continuing: Bool = false,
                     early: (@Sendable (AnswerSoFar) -> Task<Void, Never>)?) async throws -> HeardAnswer {
        let feedback = self.feedback
        feedback.started()
        finals?.takeLatest()?.cancel()   // a pass not taken in is no kept answer's
        // Every pause transcribes the whole answer so far: stretches transcribed apart lose
        // their context and read worse than the whole answer (see `Speculation`).
        let speculation = overlap ? Speculation() : nil
        // Whisper's text of the answer so far, kept while the person speaks: each transcript of
        // it starts from there (see `DraftKeeper`).
        let drafts = DraftKeeper()
        let whileSpeaking = draftWhileSpeaking(early: early)
        let atPause = readAtPause(question, drafts: drafts, early: early)
        let speaking = continuing ? nil : person.map { person in Task { try await person.speakAnswer(to: question) } }
        defer {
            speculation?.abandon()
            drafts.stop()
        }
        var listening = listener.configuration
        listening.adaptive = overlap ? adaptive : nil
        if endsOnPhrase {
            listening.adaptive = AdaptiveWait(shortest: Self.afterEndingPhrase, longest: listening.hangover, threshold: 1)
        }
        let result: ListenResult, longWait = listening.hangover
        do {
            result = try await listener.listen(configuration: listening, continuing: continuing) { event in
                feedback.show(event)
                switch event {
                case .pause(let clip):
                    drafts.stop()
                    speculation?.start(clip, transcribe: atPause)
                    if endsOnPhrase { readEnding(clip, wait: longWait) }
                case .resumed: speculation?.resumed()
                case .speaking(let clip) where speculation != nil: drafts.speaking(clip, transcribe: whileSpeaking)
                default: break
                }
            }
        } catch {
            speaking?.cancel()
            throw error
        }
        // Past its silence the person may go on (the listener keeps listening); otherwise stop.
        if result.ending != .endOfSpeech { speaking?.cancel() }
        var heard = try await conclude(result, speculation: speculation, drafts: drafts)
        if endsOnPhrase, result.ending == .endOfSpeech { heard.endingRead = endingRead.text(at: result.samples.count) }
        if case .answer = heard.outcome, let recording = heard.recording {
            finals?.start(recording.speech(margin: listener.configuration.pause), continuing: continuing)
        }
        return heard
    }

    /// While the person speaks: the answer so far, drafted from the last draft on; the model
    /// reads the prompt up to it, so the decision at the pause evaluates only what it gains.
    func draftWhileSpeaking(early: (@Sendable (AnswerSoFar) -> Task<Void, Never>)?) -> DraftKeeper.Transcribe {
        let engineGate = self.engineGate
        return { clip, draft in
            guard let transcript = try await self.transcript(clip, draft: draft, unlessBackground: true) else {
                throw DraftSkipped()
            }
            let heard = transcript.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if let early, !heard.isEmpty, !Task.isCancelled { engineGate.hold(early(.speaking(heard))) }
            return transcript.tokens
        }
    }

    /// At a pause: the answer so far, transcribed; with adaptive waiting, the silence still to
    /// wait follows from how finished it sounds; the next question is decided on it early.
    func readAtPause(_ question: TurnQuestion, drafts: DraftKeeper,
                     early: (@Sendable (AnswerSoFar) -> Task<Void, Never>)?) -> Speculation.Transcribe {
        let feedback = self.feedback, engineGate = self.engineGate, listener = self.listener
        let adaptive = overlap ? self.adaptive : nil
        return { clip in
            let transcript: Transcript
            do {
                transcript = try await self.transcript(clip, draft: drafts.tokens)
                drafts.update(transcript.tokens)
            } catch {
                // Unread, the pause falls back to the preset's silence.
                if adaptive != nil { listener.decidePause(hangover: listener.configuration.hangover, clipLength: clip.count) }
                throw error
            }
            let heard = transcript.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if let adaptive, !Task.isCancelled { decidePause(transcript, heard: heard, question, clip: clip, adaptive: adaptive) }
            if !Task.isCancelled, !heard.isEmpty {
                feedback.heard(heard)
                if let early {
                    feedback.events.emit(.decidingEarly)
                    engineGate.hold(early(.paused(heard)))
                }
            }
            return transcript.text
        }
    }

    /// The silence to wait after this pause: by how finished `heard` sounds (an ending the
    /// rules read is finished); nothing heard (a cough, a knock) says nothing of the answer,
    /// so the preset's silence.
    func decidePause(_ transcript: Transcript, heard: String, _ question: TurnQuestion, clip: [Float], adaptive: AdaptiveWait) {
        let ends = rules?.endSignal(in: heard, answering: question) != nil
        let completion = heard.isEmpty ? nil : ends ? 1 : TurnCompletion.probability(
            of: heard, finalMarkProbability: transcript.finalMarkProbability.map(Double.init), phrases: feedback.pack.phrases)
        let hangover = Self.pauseHangover(completion: completion, adaptive: adaptive, preset: listener.configuration.hangover)
        feedback.events.emit(.turnRead(completion: completion, hangover: hangover))
        listener.decidePause(hangover: hangover, clipLength: clip.count)
    }

    /// The silence awaited after a pause whose transcript sounds finished with probability
    /// `completion`: the adaptive wait's (short when finished, long when not); nothing read,
    /// the preset's.
    static func pauseHangover(completion: Double?, adaptive: AdaptiveWait, preset: Double) -> Double {
        completion.map(adaptive.hangover) ?? preset
    }

    /// The silence that ends a recording once its last words were read as an ending.
    static let afterEndingPhrase = 0.3
    /// How much of a recording's end is read for an ending at a pause: whisper's whole window,
    /// since a few seconds alone gave it too little to hear a short "That's all." by.
    static let endingTail = 30.0

    /// At a pause in a recording: its last seconds, read; an ending there ("that's all",
    /// "das war's") ends it after a short silence, anything else only after `wait`.
    func readEnding(_ clip: [Float], wait: Double) {
        let listener = self.listener, rules = self.rules, feedback = self.feedback, events = feedback.events
        endingRead.supersede(with: Task {
            let tail = Array(clip.suffix(Int(Self.endingTail * Double(Listener.sampleRate))))
            // Read as the note will be (the greedy reading of a short tail misheard endings):
            // a recording has nothing else for the cores to do, and seconds to wait anyway.
            guard let heard = try? await transcript(tail).text else { return }
            let ends = rules?.endsRecording(heard) == true
            endingRead.read(ends ? heard : nil, clipLength: clip.count)
            let hangover = ends ? Self.afterEndingPhrase : wait
            if !heard.isEmpty { feedback.heard(heard) }
            events.emit(.turnRead(completion: ends ? 1 : 0, hangover: hangover))
            listener.decidePause(hangover: hangover, clipLength: clip.count)
        })
    }

    /// What the answer heard became: its transcript (the one made at its last pause when that
    /// covers all its speech), nothing heard, or, ended by a key or a signal, its words so far.
    func conclude(_ result: ListenResult, speculation: Speculation?, drafts: DraftKeeper) async throws -> HeardAnswer {
        let feedback = self.feedback, pack = feedback.pack
        switch result.ending {
        case .noAnswer:
            return HeardAnswer(outcome: .noAnswer, recording: nil)
        case .endOfSpeech, .maximumLength:
            feedback.display.status(showsRecordingLength
                ? pack.ui(.transcribingRecording, ["seconds": String(format: "%.0f", result.duration)]) : pack.ui(.thinking))
            let early = result.ending == .endOfSpeech ? await speculation?.result(coveringAllSpeechIn: result.samples) : nil
            var text: String
            if let early {
                text = early
            } else {
                drafts.stop()
                text = try await transcribeHeard(result.speech(margin: listener.configuration.pause), draft: drafts.tokens)
            }
            if Self.readsAgain(text, timing: result.timing, readCarefully: finalDecoding) {
                text = try await transcribeHeard(result.speech(margin: listener.configuration.pause), carefully: true)
            }
            feedback.events.emit(.transcribed(text: text, speculative: early != nil,
                                              speechEnd: result.timing.speechEnd ?? 0, endpoint: result.timing.endpoint))
            if text.isEmpty { person?.sayItAgain() }
            return HeardAnswer(outcome: text.isEmpty ? .unclear : .answer(text), recording: result)
        case .stopped, .cancelled:
            drafts.stop()
            let partial = result.heardSpeech ? try? await transcribeHeard(result.samples, draft: drafts.tokens) : nil
            return HeardAnswer(outcome: .ended(partial: partial), recording: result)
        }
    }

    /// Speech heard for at least this long is a voice, not a cough or a knock: whisper's quick
    /// reading of it coming back empty is whisper lost (the voices bench: a greedy read of a real
    /// disfluent answer, "word, word, word…", and of a French answer heard on, gave nothing for
    /// 5-8 s of speech), so it is read again as the final pass reads, before the person is asked
    /// to say it again and the words are gone.
    static let voiceHeldSeconds = 0.5

    /// Whether an answer's reading `text` is read again carefully: it came back empty over a
    /// voice, and was not read carefully already.
    static func readsAgain(_ text: String, timing: ListenTiming, readCarefully: Bool) -> Bool {
        guard text.isEmpty, !readCarefully, let start = timing.speechStart, let end = timing.speechEnd else { return false }
        return end - start >= voiceHeldSeconds
    }

    /// With `draft` (whisper's tokens for the start of this audio) the text is the same, sooner;
    /// `carefully`: with the final pass's decoding (beam, temperature fallback), slower.
    private func transcript(_ samples: [Float], draft: [Int32]? = nil, carefully: Bool = false) async throws -> Transcript {
        try await transcript(samples, draft: draft, unlessBackground: false, carefully: carefully)!
    }

    /// `unlessBackground`: a draft, skipped (nil) while a final pass runs (`EngineArbiter`).
    private func transcript(_ samples: [Float], draft: [Int32]?, unlessBackground: Bool,
                            carefully: Bool = false) async throws -> Transcript? {
        await engineGate.wait()
        let careful = finalDecoding || carefully
        var options = careful ? FinalPass.options(language: whisperLanguage, samples: samples.count) : TranscriptionOptions(language: whisperLanguage)
        options.draft = careful ? nil : draft
        let transcriber = self.transcriber
        let run = { [options] in try await transcriber.transcribe(samples, options: options) }
        return unlessBackground ? try await arbiter.unlessBackground(run) : try await arbiter.foreground(run)
    }

    /// A draft not made: a final pass had the cores.
    struct DraftSkipped: Error {}

    /// An answer that was heard is transcribed in a task of its own: an interrupt cancels the
    /// exchange, and must not cost the person the words they already said.
    private func transcribeHeard(_ samples: [Float], draft: [Int32]? = nil, carefully: Bool = false) async throws -> String {
        try await Task { try await transcript(samples, draft: draft, carefully: carefully).text }.value
    }
}

extension VoiceAnswers: FinalTranscribing {
    public func finalPassOfLatestAnswer() -> (any FinalPassing)? { finals?.takeLatest() }
}

/// The latest pause's reading of a recording's end, when it ended the recording: the pauses are
/// read in tasks of their own, so the longest clip read wins.
final class EndingRead: Sendable {
    private let latest = Mutex<(clipLength: Int, text: String?)>((0, nil))
    private let reading = Mutex<Task<Void, Never>?>(nil)

    /// A new pause's read replaces the one under way: speech went on since that pause, so its
    /// reading no longer decides anything, and left to run it held whisper while the next pause
    /// (the "That's all." after a short gap) waited behind it past the whole long silence.
    func supersede(with task: Task<Void, Never>) {
        reading.withLock { running in
            running?.cancel()
            running = task
        }
    }

    func read(_ text: String?, clipLength: Int) {
        latest.withLock { if clipLength >= $0.clipLength { $0 = (clipLength, text) } }
    }

    /// The reading that ended a recording of `length` samples: the last pause's, when it is
    /// within that recording (a pause read after speech went on does not count).
    func text(at length: Int) -> String? {
        latest.withLock { $0.clipLength <= length ? $0.text : nil }
    }
}
