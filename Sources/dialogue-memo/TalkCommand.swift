import DialogueCore
import Foundation
import Options
import VoiceSession

/// `dialogue-memo` / `dialogue-memo talk`: the exchange, by voice or typed, then the editor.
enum TalkCommand {
    struct Arguments: ParsableOptions {
        static let command = "dialogue-memo [talk]"
        static let about = """
        Asks what idea you want to capture, a few follow-up questions, and turns your answers into
        a note of your own sentences, which you edit before saving. End any time by saying
        "that's all", pressing a key, or Ctrl-C: your words always go to the editor.
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

/// The options of every command that runs a session (talk, demo, record), declared once and
/// written straight into a `SessionConfiguration`.
struct SessionArguments {
    var configuration = SessionConfiguration(language: "en")
    /// `--lang`, resolved (with the locale) by `context()`.
    var lang: String?
    var noModel = false
    var llmModel: String?
    var whisperModel: String?
    var notesDirectory: String?

    static let declarations: [Declaration<Self>] = [
        .value("--lang", \.lang, "interface language (default: from LC_ALL / LC_MESSAGES / LANG)", .language),
        .flag("--type", \.configuration.typing, "type the answers instead of speaking"),
        .value("--input NAME", \.configuration.inputDevice, "PulseAudio source (default: the server's default)"),
        .value("--output NAME", \.configuration.outputDevice, "PulseAudio sink (default: the server's default)"),
        .value("--silence", \.configuration.silence, "how long a pause ends an answer (1.25 s, 0.7 s, 0.35 s)", .cases),
        .value("--whisper-model PATH", \.whisperModel, "speech model (default: the one make deps installed)"),
        .value("--llm-model PATH", \.llmModel, "any GGUF language model (default: gemma-3-270m)"),
        .flag("--no-model", \.noModel, "decide with the built-in rules only"),
        .flag("--no-overlap", \.configuration.overlap,
              "transcribe only after the pause has ended the answer (slower; by default transcription starts as you pause)",
              setting: false),
        .value("--notes-dir DIR", \.notesDirectory, "where notes are saved (default: $XDG_DATA_HOME/dialogue-memo/notes)"),
        .value("--events FILE|-", \.configuration.events, "JSON lines of every step, for scripts"),
        .flag("--yes", \.configuration.saveWithoutAsking, "save without opening the editor or asking"),
    ]

    /// The session these options describe, on the screen; an unsupported locale falls back to
    /// English with a notice.
    func context() throws -> SessionContext {
        var configuration = self.configuration
        let (code, unsupported) = SessionConfiguration.language(flag: lang)
        configuration.language = code ?? "en"
        if let whisperModel { configuration.whisperModel = whisperModel }
        if let llmModel { configuration.languageModel = llmModel }
        if noModel { configuration.languageModel = nil }
        if let notesDirectory { configuration.notesDirectory = notesDirectory }
        let screen = Screen()
        let context = try SessionContext(configuration: configuration, display: screen)
        if let unsupported { screen.notice(context.pack.ui(.unsupportedLocale, ["locale": unsupported])) }
        return context
    }
}
