import Dialogue
import DialogueCore
import Foundation
import Speech
import Transcription

/// The voice half of an exchange: one audio session (server connection, output stream, record
/// stream) for the whole exchange, every prompt rendered once up front, answers heard with
/// endpointing and the watchdog, then transcribed in process.
struct VoicePorts {
    let speaker: VoiceSpeaker
    let answers: VoiceAnswers

    /// Opens everything a voice exchange needs, so a missing piece is reported (and typing
    /// mode offered) before the first question. `person`, in the demo, speaks the answers.
    static func open(setup: SessionSetup, options: Options, serverAddress: String? = nil,
                     person: SyntheticPerson? = nil) async throws -> VoicePorts {
        let modelPath = options.values["--whisper-model"] ?? DefaultModels.whisper
        let transcriber = try Transcriber(modelPath: modelPath)
        let server = try AudioServer(server: serverAddress)
        let speaker = try Speaker(server: server, device: options.values["--output"])
        let preset = options.values["--silence"].flatMap(Endpointing.Configuration.preset(named:)) ?? .default
        let listener = try Listener(server: server, device: options.values["--input"], configuration: preset)
        // The opening now (it also proves the voice works); the other prompts while it plays.
        var texts = Self.promptTexts(setup.pack)
        let openingText = texts.removeValue(forKey: .question(.opening)) ?? setup.pack.opening.spoken
        let opening = try PromptCache(rendering: [SpokenPrompt.question(.opening): openingText], voice: setup.pack.voice)
        let others = Task { [texts] in try PromptCache(rendering: texts, voice: setup.pack.voice) }
        return VoicePorts(
            speaker: VoiceSpeaker(speaker: speaker, opening: opening, others: others),
            answers: VoiceAnswers(listener: listener, transcriber: transcriber, language: setup.pack.whisperLanguage,
                                  pack: setup.pack, screen: setup.screen, events: setup.events, person: person,
                                  overlap: !options.flags.contains("--no-overlap")))
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
struct VoiceSpeaker: PromptSpeaking {
    let speaker: Speaker
    let opening: PromptCache<SpokenPrompt>
    let others: Task<PromptCache<SpokenPrompt>, Error>

    func say(_ prompt: SpokenPrompt) async throws {
        var buffer = opening[prompt]
        if buffer == nil { buffer = try await others.value[prompt] }
        guard let buffer else { return }
        try await speaker.play(buffer)
    }
}

/// Listens for one answer and transcribes it. Silence is never transcribed; an interrupted
/// answer is transcribed as far as it went, so those words reach the editor too.
///
/// With `overlap` (the default) transcription starts when the person pauses, while the
/// listener still waits out the hangover to be sure they have finished; if they go on, that
/// work is thrown away. So the hangover hides most of the transcription instead of adding to it.
struct VoiceAnswers: AnswerSource {
    let listener: Listener
    let transcriber: Transcriber
    let language: String
    let pack: LanguagePack
    let screen: Screen
    let events: EventLog
    let person: SyntheticPerson?
    var overlap = true
    /// Work of the other engine (the language model warming up) that must finish before
    /// whisper runs: two ggml engines at full threads on 2 cores collapse.
    let engineGate = EngineGate()

    func answer(to question: TurnQuestion) async throws -> AnswerOutcome {
        try await answer(to: question) { _ in Task {} }
    }

    func answer(to question: TurnQuestion,
                early: @escaping @Sendable (String) -> Task<Void, Never>) async throws -> AnswerOutcome {
        let screen = self.screen, events = self.events, pack = self.pack, engineGate = self.engineGate
        events.emit("listening")
        screen.status(pack.ui(.listening), level: 0)
        let meter = LevelMeter()
        let speculation = overlap ? Speculation() : nil
        // At a pause: the answer so far is transcribed and the next question decided on it,
        // both within the hangover.
        let transcribeAndDecide = { @Sendable (clip: [Float]) async throws -> String in
            let text = try await self.transcribe(clip)
            if !Task.isCancelled, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                events.emit("decidingEarly")
                engineGate.hold(early(text))
            }
            return text
        }
        let speaking = person.map { person in Task { try await person.speakNextAnswer() } }
        defer { speaking?.cancel(); speculation?.abandon() }
        let result = try await listener.listen { event in
            switch event {
            case .state(.hearingSpeech):
                meter.state = pack.ui(.hearingYou)
                events.emit("hearing")
            case .state(.ended(let ending)):
                meter.state = pack.ui(.thinking)
                events.emit("endpoint", ["ending": ending.rawValue])
            case .state(.listening): break
            case .level(let dBFS):
                if let level = meter.throttled(dBFS) {
                    screen.status(meter.state ?? pack.ui(.listening), level: level)
                    events.emit("level", ["dbfs": (dBFS * 10).rounded() / 10])
                }
            case .pause(let clip):
                guard let speculation else { break }
                events.emit("pause", ["seconds": Double(clip.count) / Double(Listener.sampleRate)])
                speculation.start(clip, transcribe: transcribeAndDecide)
            case .resumed:
                guard let speculation else { break }
                speculation.resumed()
                events.emit("resumed")
            }
        }
        switch result.ending {
        case .noAnswer:
            return .noAnswer
        case .endOfSpeech, .maximumLength:
            screen.status(pack.ui(.thinking))
            let early = result.ending == .endOfSpeech ? await speculation?.result(coveringAllSpeechIn: result.samples) : nil
            let text: String
            if let early {
                text = early
            } else {
                text = try await transcribeHeard(result.speech(margin: listener.configuration.pause))
            }
            events.emit("transcribed", ["text": text, "speculative": early != nil,
                                        "speechEnd": result.timing.speechEnd ?? 0, "endpoint": result.timing.endpoint])
            return text.isEmpty ? .noAnswer : .answer(text)
        case .stopped, .cancelled:
            let partial = result.heardSpeech ? try? await transcribeHeard(result.samples) : nil
            return .ended(partial: partial)
        }
    }

    private func transcribe(_ samples: [Float]) async throws -> String {
        await engineGate.wait()
        return try await transcriber.transcribe(samples, options: TranscriptionOptions(language: language)).text
    }

    /// An answer that was heard is transcribed in a task of its own: an interrupt cancels the
    /// exchange, and must not cost the person the words they already said.
    private func transcribeHeard(_ samples: [Float]) async throws -> String {
        try await Task { try await transcribe(samples) }.value
    }
}

/// Lets whisper wait for llama.cpp work started earlier (never both at once).
final class EngineGate: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: Task<Void, Never>?

    /// Adds `task` to the work whisper waits for.
    func hold(_ task: Task<Void, Never>) {
        lock.withLock {
            let earlier = pending
            pending = Task { await earlier?.value; await task.value }
        }
    }
    func wait() async { await lock.withLock { pending }?.value }
}

/// Turns the listener's ~100 level events a second into a few screen updates, and remembers
/// the state word to show. Touched from the audio thread only.
final class LevelMeter: @unchecked Sendable {
    var state: String?
    private var last = Date.distantPast

    /// A level in 0…1 at most every 80 ms, else nil.
    func throttled(_ dBFS: Double) -> Float? {
        let now = Date()
        guard now.timeIntervalSince(last) >= 0.08 else { return nil }
        last = now
        return Float(max(0, min(1, (dBFS + 60) / 60)))
    }
}
