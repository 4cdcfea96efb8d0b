import DialogueCore
import Foundation
import Options
import VoiceSession

/// The options of every command that runs a session (talk, demo, record), read from the
/// settings' own declarations. What they leave out comes from the environment, then the config
/// file, then `configuration` (the command's built-in defaults): `SessionSettings` decides, and
/// `config` shows it.
struct SessionArguments {
    var configuration = SessionConfiguration(language: .english)
    /// The settings given as options: each value's text, as its parser writes it, by key.
    var given: [String: String] = [:]
    /// Settings this command does not take from the environment or the file (the demo's devices).
    var pinned: Set<String> = []

    /// The value given for `setting` as an option.
    subscript(_ setting: SessionSetting) -> String? {
        get { given[setting.key] }
        set { given[setting.key] = newValue }
    }

    /// `--type` and `--yes` are for one run, not settings: no config key or variable sets them.
    static let typing: Declaration<Self> = .flag("--type", \.configuration.typing, "type the answers instead of speaking")
    static let saving: Declaration<Self> = .flag("--yes", \.configuration.saveWithoutAsking,
                                                 "save without opening the editor or asking")

    /// A session command's options in the order the help lists them (silence comes after the
    /// devices, unlike in the config file): the settings not `dropped`, and the per-run flags
    /// it takes.
    static func declarations(typing: Bool = true, saving: Bool = true,
                             dropping dropped: [SessionSetting] = []) -> [Declaration<Self>] {
        func options(_ settings: [SessionSetting]) -> [Declaration<Self>] {
            settings.filter { setting in !dropped.contains { $0.key == setting.key } }
                .compactMap { $0.declaration?.within(\.given) }
        }
        return options([.language]) + (typing ? [Self.typing] : [])
            + options([.input, .output, .silence, .whisperModel, .languageModel, .noModel, .overlap, .notesDirectory, .events])
            + (saving ? [Self.saving] : [])
    }

    /// Every setting with its source, from these options, the environment and the config file.
    func settings(environment: [String: String] = ProcessInfo.processInfo.environment) -> ResolvedSettings {
        SessionSettings.resolve(commandLine: given, environment: environment, builtIn: configuration, pinned: pinned)
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
