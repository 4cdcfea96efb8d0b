import Dialogue
import DialogueCore
import Foundation
import Notes

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
        let setup = try SessionSetup.command(options, usage: usage)
        let screen = setup.screen

        if !options.flags.contains("--yes"), let status = await RecoverCommand.offerRecovery(setup: setup) {
            return status
        }

        var voice: VoicePorts?
        if !options.flags.contains("--type") {
            do { voice = try await VoicePorts.open(setup: setup, options: options) }
            catch { screen.notice(setup.pack.ui(.typingModeReason, ["reason": "\(error)"])) }
        }
        let session = ExchangeSession(setup: setup, voice: voice)
        return await session.run()
    }
}

enum SilencePreset: String { case relaxed, `default`, aggressive }

/// What every command that runs an exchange needs: the language, its pack and rules, the
/// screen, the event log, the notes folder, the decisions.
struct SessionSetup {
    let options: Options
    let pack: LanguagePack
    let rules: Rules
    let screen: Screen
    let events: EventLog
    let store: NotesStore
    let input = LineInput()

    /// The checks every command that listens shares (no stray arguments, a known `--silence`,
    /// a supported `--lang`), then the setup; a problem ends the command with its exit status.
    static func command(_ options: Options, usage: String) throws -> SessionSetup {
        guard options.positional.isEmpty else {
            printError("unexpected argument \"\(options.positional[0])\".\n\n\(usage)")
            throw CommandExit(status: 2)
        }
        if let silence = options.values["--silence"], SilencePreset(rawValue: silence) == nil {
            printError("--silence takes relaxed, default or aggressive (not \"\(silence)\").")
            throw CommandExit(status: 2)
        }
        do { return try SessionSetup(options: options, screen: Screen()) }
        catch { printError("\(error)"); throw CommandExit(status: error is Options.UsageError ? 2 : 1) }
    }

    init(options: Options, screen: Screen) throws {
        self.options = options
        self.screen = screen
        let (language, unsupported) = try Self.language(options.values["--lang"])
        pack = try LanguagePackLoader().load(language)
        if let unsupported { screen.notice(pack.ui(.unsupportedLocale, ["locale": unsupported])) }
        rules = Rules(pack: pack)
        events = try EventLog(destination: options.values["--events"])
        store = NotesStore(directory: options.values["--notes-dir"] ?? NotesStore.defaultDirectory)
    }

    /// `--lang`, else the first of LC_ALL, LC_MESSAGES, LANG; an unsupported locale falls
    /// back to English with a one-line notice.
    static func language(_ flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> (code: String, unsupportedLocale: String?) {
        if let flag {
            guard LanguagePackLoader.supportedLanguages.contains(flag) else {
                throw Options.UsageError(message: "--lang takes one of \(LanguagePackLoader.supportedLanguages.joined(separator: ", ")) (not \"\(flag)\")")
            }
            return (flag, nil)
        }
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        if let code = LanguagePackLoader.languageCode(forLocale: locale) { return (code, nil) }
        let isDefault = locale.isEmpty || locale == "C" || locale == "POSIX" || locale.hasPrefix("C.")
        return ("en", isDefault ? nil : locale)
    }
}
