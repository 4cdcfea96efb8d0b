import DialogueCore
import Foundation
import Options
import Speech
import VoiceSession

/// `dialogue-memo` / `dialogue-memo talk`: the exchange, by voice or typed, then the editor.
enum TalkCommand {
    struct Arguments: ParsableOptions {
        static let command = "dialogue-memo [talk]"
        static let about = """
        Asks what idea you want to capture, a few follow-up questions, and turns your answers into
        a note of your own sentences, which you edit before saving. End any time by saying
        "that's all", pressing a key, or Ctrl-C: your words always go to the editor.
        Defaults come from ~/.config/dialogue-memo/config: `dialogue-memo config` shows them.
        """
        var session = SessionArguments()
        static let declarations: [Declaration<Self>] = SessionArguments.declarations.within(\.session)
    }

    static func run(_ arguments: [String]) async throws -> Int32 { try await run(Arguments.parse(arguments)) }

    static func run(_ options: Arguments) async throws -> Int32 {
        let context = try options.session.context()
        if !context.configuration.saveWithoutAsking, let status = Recovery(context: context).offer() {
            return status
        }
        var voice: VoicePorts?
        if !context.configuration.typing {
            do { voice = try await VoicePorts.open(context) }
            catch { context.display.notice(context.pack.ui(.typingModeReason, ["reason": "\(error)"])) }
        }
        return await ExchangeSession(context: context, voice: voice).run()
    }
}

/// The options of every command that runs a session (talk, demo, record), declared once. What
/// they leave out comes from the environment, then the config file, then `configuration`
/// (the command's built-in defaults): `SessionSettings` decides, and `config` shows it.
struct SessionArguments {
    var configuration = SessionConfiguration(language: "en")
    /// `--lang`, as its parser wrote it (a supported code).
    var lang: String?
    var input: String?
    var output: String?
    var silence: SilencePreset?
    var noModel = false
    var llmModel: String?
    var whisperModel: String?
    var noOverlap = false
    var notesDirectory: String?
    var events: String?
    /// Settings this command does not take from the environment or the file (the demo's devices).
    var pinned: Set<String> = []

    static let declarations: [Declaration<Self>] = [
        .value("--lang", \.lang, "interface language (default: from LC_ALL / LC_MESSAGES / LANG, else the config file)", .language),
        .flag("--type", \.configuration.typing, "type the answers instead of speaking"),
        .value("--input NAME", \.input, "PulseAudio source (default: the server's default)"),
        .value("--output NAME", \.output, "PulseAudio sink (default: the server's default)"),
        .value("--silence", \.silence, "how long you may pause: relaxed, default, aggressive (by how finished your words sound; fixed-silence: 1.25/0.7/0.35 s)", .cases),
        .value("--whisper-model PATH", \.whisperModel, "speech model (default: the one make deps installed)"),
        .value("--llm-model PATH", \.llmModel, "any GGUF language model (default: gemma-3-270m)"),
        .flag("--no-model", \.noModel, "decide with the built-in rules only"),
        .flag("--no-overlap", \.noOverlap,
              "transcribe only after the pause has ended the answer (slower; by default transcription starts as you pause)"),
        .value("--notes-dir DIR", \.notesDirectory, "where notes are saved (default: $XDG_DATA_HOME/dialogue-memo/notes)"),
        .value("--events FILE|-", \.events, "JSON lines of every step, for scripts"),
        .flag("--yes", \.configuration.saveWithoutAsking, "save without opening the editor or asking"),
    ]

    /// The options given, by setting key, as text.
    var commandLine: [String: String] {
        var given: [String: String] = [:]
        given["language"] = lang
        given["input"] = input
        given["output"] = output
        given["silence"] = silence?.rawValue
        given["whisper-model"] = whisperModel
        given["llm-model"] = llmModel
        if noModel { given["no-model"] = "true" }
        if noOverlap { given["overlap"] = "false" }
        given["notes-dir"] = notesDirectory
        given["events"] = events
        return given
    }

    /// Every setting with its source, from these options, the environment and the config file.
    func settings(environment: [String: String] = ProcessInfo.processInfo.environment) -> ResolvedSettings {
        SessionSettings.resolve(commandLine: commandLine, environment: environment, builtIn: configuration, pinned: pinned)
    }

    /// The session these settings describe, on the screen. A bad setting and an unsupported
    /// locale (English is used instead) are told as notices.
    func context() throws -> SessionContext {
        let settings = settings()
        let screen = Screen()
        for notice in settings.notices { screen.notice(notice) }
        let context = try SessionContext(configuration: settings.applied(to: configuration), display: screen)
        if let unsupported = settings.unsupportedLocale {
            screen.notice(context.pack.ui(.unsupportedLocale, ["locale": unsupported]))
        }
        return context
    }
}
