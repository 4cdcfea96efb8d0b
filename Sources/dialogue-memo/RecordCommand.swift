import Dialogue
import DialogueCore
import Foundation
import Notes
import Speech
import Transcription

/// `dialogue-memo record`: the plain voice note of a classic voice-notes app. No questions, no
/// model: record until a pause or a key, transcribe, and the note is the person's sentences
/// with the first one as the title when the title rule allows.
enum RecordCommand {
    static let usage = """
    Usage: dialogue-memo record [options]

    Records until you pause (or press a key, or Ctrl-C), transcribes, and opens the note in
    your editor before saving. No questions are asked.

    Options:
      --lang ja|en|es|fr|de      language of the speech (default: from LC_ALL / LC_MESSAGES / LANG)
      --input NAME               PulseAudio source (default: the server's default)
      --silence relaxed|default|aggressive
                                 how long a pause ends the recording (default: relaxed, 1.25 s)
      --whisper-model PATH       speech model (default: the one make deps installed)
      --keep-audio               also keep the recording as a WAV file beside the note
                                 (without it, your voice is never written to disk)
      --notes-dir DIR            where notes are saved (default: $XDG_DATA_HOME/dialogue-memo/notes)
      --events FILE|-            JSON lines of every step, for scripts
      --yes                      save without opening the editor or asking

    Example:
      dialogue-memo record --lang en --keep-audio
      dialogue-memo play 3f2a      # listen to it again
    """

    /// A voice note may be long; the recording stops here even if the person keeps talking.
    static let longestRecording: Double = 600

    static func run(_ arguments: [String]) async throws -> Int32 {
        let options = try Options.command(arguments, flags: ["--keep-audio", "--yes"], values: ["--lang", "--input", "--silence", "--whisper-model", "--notes-dir", "--events"], usage: usage)
        let setup = try SessionSetup.command(options, usage: usage)
        let pack = setup.pack, events = setup.events, screen = setup.screen
        let preset = Endpointing.Configuration.preset(named: options.values["--silence"] ?? "relaxed") ?? .relaxed

        let listener: Listener, transcriber: Transcriber
        do {
            transcriber = try Transcriber(modelPath: options.values["--whisper-model"] ?? DefaultModels.whisper)
            let configuration = Endpointing.Configuration(hangover: preset.hangover, maximumAnswer: longestRecording)
            listener = try Listener(server: try AudioServer(), device: options.values["--input"], configuration: configuration)
        } catch {
            printError("\(error)\nCheck the microphone and models with `dialogue-memo doctor`; without voice, `dialogue-memo talk --type` lets you type a memo.")
            return 1
        }

        let id = ExchangeSession.newID(), created = Date()
        let journal = try? FileJournal(id: id)
        try? journal?.append(.started(id: id, created: created, timeZone: TimeZone.current.identifier, language: pack.code))
        try? journal?.append(.asked(.opening))

        // Every way of stopping keeps what was recorded: a key, Ctrl-C, or the system.
        let interrupts = Interrupts()
        interrupts.onInterrupt { _ in listener.stop() }
        interrupts.watchKeys()
        // "Recording" only once the microphone delivers: words said earlier would be lost
        // (measured: a first sentence missing from the note).
        await listener.waitForFirstAudio()
        screen.hint(pack.ui(.recordingHint))
        events.emit("listening")
        let meter = LevelMeter()
        let result: ListenResult
        do {
            result = try await listener.listen { event in
                switch event {
                case .state(.hearingSpeech): meter.state = pack.ui(.hearingYou); events.emit("hearing")
                case .state(.ended(let ending)): events.emit("endpoint", ["ending": ending.rawValue])
                case .state(.listening), .pause, .resumed: break
                case .level(let dBFS):
                    if let level = meter.throttled(dBFS) { screen.status(meter.state ?? pack.ui(.listening), level: level) }
                }
            }
        } catch {
            interrupts.stopWatchingKeys()
            journal?.remove()
            screen.error(pack.ui(.audioFailed, ["reason": "\(error)"]))
            return 1
        }
        interrupts.stopWatchingKeys()
        guard result.heardSpeech else {
            journal?.remove()
            screen.line(pack.ui(.nothingRecorded))
            return 0
        }

        screen.status(pack.ui(.transcribingRecording, ["seconds": String(format: "%.0f", result.duration)]))
        let text: String
        do {
            text = try await transcriber.transcribe(result.samples, options: TranscriptionOptions(language: pack.whisperLanguage)).text
        } catch {
            journal?.remove()
            screen.error("\(error)")
            return 1
        }
        screen.status("")
        try? journal?.append(.answered(text))
        events.emit("transcribed", ["text": text])
        screen.answer(UserText.sanitized(text))
        if interrupts.cause == .terminate { screen.line(pack.ui(.interrupted)); return 143 }

        let sources = SentenceSplitter.sources(from: [text], language: pack.code)
        guard !sources.isEmpty else {
            journal?.remove()
            screen.line(pack.ui(.nothingRecorded))
            return 0
        }
        let metadata = NoteMetadata(id: id, created: created, language: pack.code, questions: [], layoutSource: .recording)
        let note = NoteRenderer(pack: pack).render(sources: sources, layout: .recording(sourceCount: sources.count), metadata: metadata)
        let finisher = MemoFinisher(pack: pack, screen: screen, events: events, store: setup.store,
                                    saveWithoutAsking: options.flags.contains("--yes"), input: setup.input)
        switch finisher.finish(note: note, title: MemoFinisher.title(of: note), created: created, journal: journal) {
        case .saved(let path):
            guard options.flags.contains("--keep-audio") else { return 0 }
            do {
                let wav = try setup.store.saveAudio(WAVFile.encode(mono: result.samples, sampleRate: result.sampleRate), besideNoteAt: path)
                screen.line(pack.ui(.audioKept, ["path": wav]))
                events.emit("audio", ["path": wav])
                return 0
            } catch {
                screen.error("\(error)")
                return 1
            }
        case .discarded: return 0
        case .keptInJournal: return 1
        }
    }
}

/// `dialogue-memo play ID`: plays the recording kept beside a note.
enum PlayCommand {
    static let usage = """
    Usage: dialogue-memo play ID [--output NAME] [--notes-dir DIR]

    Plays the recording of a note made with `dialogue-memo record --keep-audio`.
    ID is any unique prefix of the note's id (see `dialogue-memo list`). Ctrl-C stops.
    """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let options = try Options.command(arguments, flags: [], values: ["--output", "--notes-dir"], usage: usage)
        guard options.positional.count == 1, let id = options.positional.first else {
            printError("play needs one ID.\n\n\(usage)")
            return 2
        }
        let store = NotesStore(directory: options.values["--notes-dir"] ?? NotesStore.defaultDirectory)
        do {
            let note = try store.note(id: id)
            guard let path = store.audioPath(of: note) else {
                printError("“\(Screen.clean(note.title))” (\(note.id)) has no recording: only `dialogue-memo record --keep-audio` keeps one.")
                return 1
            }
            let wav = try WAVFile(contentsOf: path)
            let pcm = wav.monoSamples(at: wav.sampleRate).map { Int16(max(-1, min(1, $0)) * 32767) }
            let speaker = try Speaker(server: try AudioServer(), device: options.values["--output"], sampleRate: wav.sampleRate)
            print("Playing \(String(format: "%.1f", wav.duration)) s from \(path) on \(speaker.deviceName)… (Ctrl-C stops)")
            let playing = Task { try await speaker.play(PCMBuffer(sampleRate: wav.sampleRate, samples: pcm), leadingSilence: 0.1) }
            let interrupts = Interrupts()
            interrupts.onInterrupt { _ in playing.cancel() }
            do { _ = try await playing.value } catch is CancellationError { print("Stopped.") }
            return 0
        } catch {
            printError("\(error)")
            return 1
        }
    }
}
