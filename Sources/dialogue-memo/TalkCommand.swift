import DialogueCore
import Foundation
import VoiceSession

/// `dialogue-memo` / `dialogue-memo talk`: the exchange, by voice or typed, then the editor.
enum TalkCommand {
    static let usage = """
    Usage: dialogue-memo [talk] [options]

    Asks what idea you want to capture, a few follow-up questions, and turns your answers into
    a note of your own sentences, which you edit before saving. End any time by saying
    "that's all", pressing a key, or Ctrl-C: your words always go to the editor.

    Options:
      --lang ja|en|es|fr|de      interface language (default: from LC_ALL / LC_MESSAGES / LANG)
      --type                     type the answers instead of speaking
      --input NAME, --output NAME
                                 PulseAudio source / sink (default: the server's defaults)
      --silence relaxed|default|aggressive
                                 how long a pause ends an answer (1.25 s, 0.7 s, 0.35 s)
      --whisper-model PATH       speech model (default: the one make deps installed)
      --llm-model PATH           any GGUF language model (default: gemma-3-270m)
      --no-model                 decide with the built-in rules only
      --no-overlap               transcribe only after the pause has ended the answer (slower;
                                 for comparison: by default transcription starts as you pause)
      --notes-dir DIR            where notes are saved (default: $XDG_DATA_HOME/dialogue-memo/notes)
      --events FILE|-            JSON lines of every step, for scripts
      --yes                      save without opening the editor or asking
    """

    static let flags: Set<String> = ["--type", "--yes", "--no-model", "--no-overlap"]
    static let valued: Set<String> = ["--lang", "--input", "--output", "--silence", "--whisper-model",
                                      "--llm-model", "--notes-dir", "--events"]

    static func run(_ arguments: [String]) async throws -> Int32 {
        let options = try Options.command(arguments, flags: flags, values: valued, usage: usage)
        let context = try SessionConfiguration.command(options, usage: usage)
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

extension SessionConfiguration {
    /// The configuration `talk`, `demo` and `record` read from their options, and the session
    /// built from it; a bad argument ends the command with the usage (exit 2).
    static func command(_ options: Options, usage: String, change: (inout SessionConfiguration) -> Void = { _ in })
        throws -> SessionContext {
        guard options.positional.isEmpty else {
            printError("unexpected argument \"\(options.positional[0])\".\n\n\(usage)")
            throw CommandExit(status: 2)
        }
        var silence: SilencePreset?
        if let name = options.values["--silence"] {
            guard let preset = SilencePreset(rawValue: name) else {
                printError("--silence takes relaxed, default or aggressive (not \"\(name)\").\n\n\(usage)")
                throw CommandExit(status: 2)
            }
            silence = preset
        }
        let (code, unsupported) = language(flag: options.values["--lang"])
        guard let code else {
            printError("--lang takes one of \(LanguagePackLoader.supportedLanguages.joined(separator: ", ")) (not \"\(options.values["--lang"]!)\").\n\n\(usage)")
            throw CommandExit(status: 2)
        }
        var configuration = SessionConfiguration(language: code)
        configuration.typing = options.flags.contains("--type")
        configuration.inputDevice = options.values["--input"]
        configuration.outputDevice = options.values["--output"]
        if let silence { configuration.silence = silence }
        if let path = options.values["--whisper-model"] { configuration.whisperModel = path }
        if let path = options.values["--llm-model"] { configuration.languageModel = path }
        if options.flags.contains("--no-model") { configuration.languageModel = nil }
        configuration.overlap = !options.flags.contains("--no-overlap")
        if let directory = options.values["--notes-dir"] { configuration.notesDirectory = directory }
        configuration.events = options.values["--events"]
        configuration.saveWithoutAsking = options.flags.contains("--yes")
        change(&configuration)
        let screen = Screen()
        do {
            let context = try SessionContext(configuration: configuration, display: screen)
            if let unsupported { screen.notice(context.pack.ui(.unsupportedLocale, ["locale": unsupported])) }
            return context
        } catch {
            printError("\(error)")
            throw CommandExit(status: 1)
        }
    }
}
