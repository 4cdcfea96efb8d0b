import DialogueCore
import Foundation
import Options
import Speech

/// Where a setting's value came from. The strongest wins: command line, then environment,
/// then the config file, then the built-in default.
public enum SettingSource: Sendable, Equatable, CustomStringConvertible {
    case commandLine
    case environment(variable: String)
    case file(path: String, line: Int)
    case builtIn

    var strength: Int {
        switch self {
        case .commandLine: 3
        case .environment: 2
        case .file: 1
        case .builtIn: 0
        }
    }

    /// "command line", "environment LANG", "/home/me/.config/dialogue-memo/config:3", "built-in".
    public var description: String {
        switch self {
        case .commandLine: "command line"
        case .environment(let variable): "environment \(variable)"
        case .file(let path, let line): "\(path):\(line)"
        case .builtIn: "built-in"
        }
    }
}

/// One setting a session takes from outside, declared once: its key in the config file, the
/// option that overrides it, its environment variables, its parser and the field of
/// `SessionConfiguration` it fills. The options of talk, demo, record and config, the file's
/// checks, the environment lookup, `dialogue-memo config` and the man page are all read from
/// it. The values are checked by the options' own `ValueParser`, so a file accepts what the
/// command line accepts.
public struct SessionSetting: Sendable {
    /// The key in the config file: "notes-dir".
    public let key: String
    /// The option that sets it, storing the value's text under `key` ("--no-overlap" stores
    /// overlap = false); nil: only the file and the environment set it.
    public let declaration: Declaration<[String: String]>?
    /// Read in this order; `DIALOGUE_MEMO_<KEY>` first, then the usual ones (LANG, VISUAL…).
    public let variables: [String]
    /// What a value looks like, for the documentation: "DIR", "relaxed|default|aggressive".
    public let placeholder: String
    /// What the value means when nothing sets it: "the server's default".
    public let unsetMeaning: String
    /// Whether the value is a path (a file's `~/` is expanded, as a shell would).
    public let isPath: Bool
    /// The value's text as checked and written back by its parser; nil: not valid.
    let check: @Sendable (String) -> String?
    /// "silence takes one of relaxed, default, aggressive (not "x")".
    let rejection: @Sendable (String) -> String
    let apply: @Sendable (inout SessionConfiguration, String) -> Void
    /// The built-in value of a configuration, as text; nil: unset.
    let builtIn: @Sendable (SessionConfiguration) -> String?

    /// The option's name: "--notes-dir", "--no-overlap".
    public var option: String? { declaration?.name }

    /// How the command line gives a setting.
    enum Option<Value> {
        /// `--lang xx`: the value itself.
        case value(String, help: String)
        /// `--no-overlap`: a flag that gives one value.
        case flag(String, setting: Value, help: String)
    }

    /// The field of `SessionConfiguration` a setting fills, and reads its built-in value from.
    struct Field<Value>: Sendable {
        let set: @Sendable (inout SessionConfiguration, Value) -> Void
        let get: @Sendable (SessionConfiguration) -> Value?

        static func at(_ path: Property<SessionConfiguration, Value>) -> Self {
            Self(set: { $0[keyPath: path] = $1 }, get: { $0[keyPath: path] })
        }

        static func at(_ path: Property<SessionConfiguration, Value?>) -> Self {
            Self(set: { $0[keyPath: path] = $1 }, get: { $0[keyPath: path] })
        }
    }

    init<Value>(_ key: String, _ parser: ValueParser<Value>, _ field: Field<Value>, placeholder: String? = nil,
                unset: String = "", path: Bool = false, extraVariables: [String] = [], option: Option<Value>? = nil) {
        let placeholder = placeholder ?? parser.placeholder ?? "VALUE"
        self.key = key
        declaration = option.map { Self.declaration($0, key: key, placeholder: placeholder, parser) }
        variables = ["DIALOGUE_MEMO_" + key.uppercased().replacingOccurrences(of: "-", with: "_")] + extraVariables
        self.placeholder = placeholder
        unsetMeaning = unset
        isPath = path
        check = { parser.parse($0).map(parser.describe) }
        rejection = { parser.rejection(of: $0, for: key) }
        apply = { configuration, text in if let value = parser.parse(text) { field.set(&configuration, value) } }
        builtIn = { field.get($0).map(parser.describe) }
    }

    /// The option, storing the text its parser writes (as the file's values are) under `key`.
    private static func declaration<Value>(_ option: Option<Value>, key: String, placeholder: String,
                                           _ parser: ValueParser<Value>) -> Declaration<[String: String]> {
        switch option {
        case .value(let name, let help):
            let text = ValueParser<String>(parser.requirement, placeholder: parser.placeholder, choices: parser.choices) {
                parser.parse($0).map(parser.describe)
            }
            return .value(name + " " + placeholder, \.[key], help, text)
        case .flag(let name, let value, let help):
            return .flag(name, \.[key], help, setting: parser.describe(value))
        }
    }
}

/// The settings, one declaration each.
extension SessionSetting {
    public static let language = SessionSetting(
        "language", .language, .at(\.language), extraVariables: SessionSettings.localeVariables,
        option: .value("--lang", help: "interface language (default: from LC_ALL / LC_MESSAGES / LANG, else the config file)"))
    public static let silence = SessionSetting(
        "silence", .cases, .at(\.silence), option: .value("--silence", help: silenceHelp))
    public static let input = SessionSetting(
        "input", .text, .at(\.inputDevice), placeholder: "NAME", unset: "the server's default",
        option: .value("--input", help: "PulseAudio source (default: the server's default)"))
    public static let output = SessionSetting(
        "output", .text, .at(\.outputDevice), placeholder: "NAME", unset: "the server's default",
        option: .value("--output", help: "PulseAudio sink (default: the server's default)"))
    public static let whisperModel = SessionSetting(
        "whisper-model", .text, .at(\.whisperModel), placeholder: "PATH", path: true,
        option: .value("--whisper-model", help: "speech model (default: the built-in whisper base)"))
    public static let languageModel = SessionSetting(
        "llm-model", .text, .at(\.languageModel), placeholder: "PATH", unset: "none: the rules alone", path: true,
        option: .value("--llm-model", help: "any GGUF language model (default: gemma-3-270m)"))
    /// Only removes the model when set at least as strongly as llm-model (`ResolvedSettings.applied`).
    public static let noModel = SessionSetting(
        "no-model", .boolean, .init(set: { if $1 { $0.languageModel = nil } }, get: { $0.languageModel == nil }),
        option: .flag("--no-model", setting: true, help: "decide with the built-in rules only"))
    public static let overlap = SessionSetting(
        "overlap", .boolean, .at(\.overlap),
        option: .flag("--no-overlap", setting: false,
                      help: "transcribe only after the pause has ended the answer (slower; by default transcription starts as you pause)"))
    public static let fixedSilence = SessionSetting("fixed-silence", .boolean, .at(\.fixedSilence))
    public static let notesDirectory = SessionSetting(
        "notes-dir", .text, .at(\.notesDirectory), placeholder: "DIR", path: true,
        option: .value("--notes-dir", help: "where notes are saved (default: $XDG_DATA_HOME/dialogue-memo/notes)"))
    public static let editor = SessionSetting(
        "editor", .text, .at(\.editor), placeholder: "COMMAND", unset: "nano, else vi", extraVariables: ["VISUAL", "EDITOR"])
    public static let events = SessionSetting(
        "events", .text, .at(\.events), placeholder: "FILE|-", unset: "none", path: true,
        option: .value("--events", help: "JSON lines of every step, for scripts"))

    /// --silence's help, with each preset's fixed silence: "… fixed-silence: 1.25/0.7/0.35 s)".
    static var silenceHelp: String {
        let presets = SilencePreset.allCases
        return "how long you may pause: \(presets.map(\.rawValue).joined(separator: ", ")) (by how finished your words sound; "
            + "fixed-silence: \(presets.map { String(format: "%g", $0.fixedSilence) }.joined(separator: "/")) s)"
    }
}

/// The settings of talk (and record, demo, recover, and the notes commands for the folder and
/// the editor): the keys of the config file, in the order `dialogue-memo config` prints them.
public enum SessionSettings {
    /// The variables that name a locale, in POSIX order; the language is taken from the first set.
    public static let localeVariables = ["LC_ALL", "LC_MESSAGES", "LANG"]

    public static let all: [SessionSetting] = [
        .language, .silence, .input, .output, .whisperModel, .languageModel, .noModel, .overlap, .fixedSilence,
        .notesDirectory, .editor, .events,
    ]

    public static func setting(_ key: String) -> SessionSetting? { all.first { $0.key == key } }

    /// The config file's place: `$XDG_CONFIG_HOME/dialogue-memo/config`, else
    /// `~/.config/dialogue-memo/config`.
    public static func configPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.config"
        return base + "/dialogue-memo/config"
    }

    /// Each setting's value and where it came from. `commandLine` holds the values given as
    /// options (by key, as text); `builtIn` is the command's own defaults (record's silence is
    /// relaxed); `pinned` keys take no value from the environment or the file (the demo's
    /// devices are its private server's).
    /// `resolve` with this process's config file, as `$XDG_CONFIG_HOME` (or `$HOME`) names it.
    public static func resolve(commandLine: [String: String], environment: [String: String],
                               builtIn: SessionConfiguration, pinned: Set<String>) -> ResolvedSettings {
        let file = ConfigFile.load(path: configPath(environment: environment),
                                   home: environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory())
        return resolve(commandLine: commandLine, environment: environment, file: file, builtIn: builtIn, pinned: pinned)
    }

    public static func resolve(commandLine: [String: String] = [:], environment: [String: String],
                               file: ConfigFile, builtIn: SessionConfiguration,
                               pinned: Set<String> = []) -> ResolvedSettings {
        var notices = file.notices
        var unsupportedLocale: String?
        let entries = all.map { setting -> ResolvedSettings.Entry in
            if let text = commandLine[setting.key] {
                return .init(key: setting.key, value: setting.check(text) ?? text, source: .commandLine)
            }
            if !pinned.contains(setting.key) {
                for variable in setting.variables {
                    guard let text = environment[variable]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { continue }
                    if setting.key == SessionSetting.language.key, localeVariables.contains(variable) {
                        // Only the first locale variable set counts, as in POSIX; the C locale
                        // says nothing, and a language without a pack is reported if nothing
                        // else names one.
                        if let language = LanguagePackLoader.language(forLocale: text) {
                            return .init(key: setting.key, value: language.code, source: .environment(variable: variable))
                        }
                        if !(text == "C" || text == "POSIX" || text.hasPrefix("C.")) { unsupportedLocale = text }
                        break
                    }
                    if let value = setting.check(text) {
                        return .init(key: setting.key, value: value, source: .environment(variable: variable))
                    }
                    notices.append("\(setting.rejection(text)) in \(variable); it is ignored. Fix or unset \(variable).")
                }
                if let line = file.values[setting.key] {
                    return .init(key: setting.key, value: line.value, source: .file(path: file.path, line: line.number))
                }
            }
            return .init(key: setting.key, value: setting.builtIn(builtIn), source: .builtIn)
        }
        let languageIsBuiltIn = entries.first { $0.key == SessionSetting.language.key }?.source == .builtIn
        return ResolvedSettings(entries: entries, notices: notices,
                                unsupportedLocale: languageIsBuiltIn ? unsupportedLocale : nil)
    }
}

/// The outcome of `SessionSettings.resolve`.
public struct ResolvedSettings: Sendable {
    public struct Entry: Sendable, Equatable {
        public let key: String
        /// The value as text (nil: unset, see `SessionSetting.unsetMeaning`).
        public let value: String?
        public let source: SettingSource
    }

    /// One per setting, in the order of `SessionSettings.all`.
    public let entries: [Entry]
    /// Bad lines of the file and bad environment values, each with its fix; the other
    /// settings still apply.
    public let notices: [String]
    /// A locale variable named a language without a language pack, and nothing else chose one:
    /// the session falls back to English and says so.
    public let unsupportedLocale: String?

    public subscript(key: String) -> Entry? { entries.first { $0.key == key } }

    /// The configuration with every value written in. `no-model` only removes the model when
    /// it is set at least as strongly as `llm-model` (`--llm-model` beats a file's `no-model`).
    public func applied(to base: SessionConfiguration) -> SessionConfiguration {
        var configuration = base
        for entry in entries {
            guard let value = entry.value, let setting = SessionSettings.setting(entry.key) else { continue }
            if entry.key == SessionSetting.noModel.key, let model = self[SessionSetting.languageModel.key],
               model.source.strength > entry.source.strength { continue }
            setting.apply(&configuration, value)
        }
        return configuration
    }
}

/// The config file: `key = value` lines, `#` comments and blank lines. Parsed once; a bad line
/// becomes a notice naming the file, the line and the fix, and the other lines still count.
public struct ConfigFile: Sendable {
    public struct Line: Sendable, Equatable {
        public let value: String
        public let number: Int
    }

    public let path: String
    /// The valid values by key (a repeated key: the last line).
    public let values: [String: Line]
    public let notices: [String]

    /// No file: nothing set, nothing to say.
    public static func none(path: String) -> ConfigFile { ConfigFile(path: path, values: [:], notices: []) }

    init(path: String, values: [String: Line], notices: [String]) {
        self.path = path
        self.values = values
        self.notices = notices
    }

    /// Reads the file at `path`; a missing file is no file, an unreadable one a notice.
    public static func load(path: String, home: String = NSHomeDirectory()) -> ConfigFile {
        guard FileManager.default.fileExists(atPath: path) else { return .none(path: path) }
        guard let data = FileManager.default.contents(atPath: path) else {
            return ConfigFile(path: path, values: [:], notices: [
                "\(path): cannot be read, so its settings are ignored. Fix its permissions, or remove it.",
            ])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return ConfigFile(path: path, values: [:], notices: [
                "\(path): is not UTF-8 text, so its settings are ignored. Save it as UTF-8.",
            ])
        }
        return ConfigFile(path: path, text: text, home: home)
    }

    /// Parses `text` as the file at `path` would be; `~/` in a path value is `home`. Lines end
    /// at any newline ("\r\n" is one Character, so splitting at "\n" alone misses it).
    public init(path: String, text: String, home: String = NSHomeDirectory()) {
        self.path = path
        var values: [String: Line] = [:]
        var notices: [String] = []
        let keys = SessionSettings.all.map(\.key)
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = index + 1
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            let place = "\(path):\(number)"
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                notices.append("\(place): \"\(line)\" is not a setting. Write key = value, with one of the keys "
                               + keys.joined(separator: ", ") + "; or start the line with # to make it a comment.")
                continue
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard let setting = SessionSettings.setting(key) else {
                let fix = Self.nearest(key, in: keys).map { "Did you mean \($0)?" }
                    ?? "The keys are " + keys.joined(separator: ", ") + "."
                notices.append("\(place): unknown key \"\(key)\". \(fix)")
                continue
            }
            guard !value.isEmpty else {
                notices.append("\(place): \(key) has no value. Write \(key) = \(setting.placeholder), or delete the line.")
                continue
            }
            if setting.isPath, value == "~" || value.hasPrefix("~/") { value = home + value.dropFirst() }
            guard let checked = setting.check(value) else {
                notices.append("\(place): \(setting.rejection(value)). Fix the value, or delete the line for the default.")
                continue
            }
            if let earlier = values[key] {
                notices.append("\(place): \(key) is already set on line \(earlier.number); this line wins. Delete one of them.")
            }
            values[key] = Line(value: checked, number: number)
        }
        self.values = values
        self.notices = notices
    }

    /// The key a typo most likely meant: at most two letters changed, added or removed.
    static func nearest(_ word: String, in keys: [String]) -> String? {
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            var row = Array(0...b.count)
            for (i, x) in a.enumerated() {
                var previous = row[0]
                row[0] = i + 1
                for (j, y) in b.enumerated() {
                    let substitution = previous + (x == y ? 0 : 1)
                    previous = row[j + 1]
                    row[j + 1] = min(substitution, row[j] + 1, row[j + 1] + 1)
                }
            }
            return row[b.count]
        }
        let scored = keys.map { ($0, distance(Array(word), Array($0))) }.filter { $0.1 <= 2 }
        return scored.min { $0.1 < $1.1 }?.0
    }
}

extension ValueParser where Value == Language {
    /// `--lang`: a language with a language pack, as a code or a locale ("en", "EN", "en-US",
    /// "ja_JP.UTF-8").
    public static var language: Self {
        let codes = LanguagePackLoader.supportedLanguages.map(\.code)
        return Self("takes one of \(codes.joined(separator: ", "))", choices: codes, describe: \.code) {
            LanguagePackLoader.language(forLocale: $0)
        }
    }
}
