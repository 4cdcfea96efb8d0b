import DialogueCore
import Foundation
import Options

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

/// One default a session takes from outside: its key in the config file, the option that
/// overrides it, its environment variables, and how its text becomes part of the configuration.
/// The values are checked by the options' own `ValueParser`, so a file accepts what the
/// command line accepts.
public struct SessionSetting: Sendable {
    /// The key in the config file: "notes-dir".
    public let key: String
    /// The option of talk that sets it ("--notes-dir"; "--no-overlap" sets overlap to false).
    public let option: String?
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

    init<Value>(_ key: String, option: String?, extraVariables: [String] = [], placeholder: String? = nil,
                unset: String = "", path: Bool = false, _ parser: ValueParser<Value>,
                apply: @escaping @Sendable (inout SessionConfiguration, Value) -> Void,
                builtIn: @escaping @Sendable (SessionConfiguration) -> Value?) {
        self.key = key
        self.option = option
        variables = ["DIALOGUE_MEMO_" + key.uppercased().replacingOccurrences(of: "-", with: "_")] + extraVariables
        self.placeholder = placeholder ?? parser.placeholder ?? "VALUE"
        unsetMeaning = unset
        isPath = path
        check = { parser.parse($0).map(parser.describe) }
        rejection = { parser.rejection(of: $0, for: key) }
        self.apply = { configuration, text in if let value = parser.parse(text) { apply(&configuration, value) } }
        self.builtIn = { builtIn($0).map(parser.describe) }
    }
}

/// The settings of talk (and record, demo, recover, and the notes commands for the folder and
/// the editor): the keys of the config file, in the order `dialogue-memo config` prints them.
public enum SessionSettings {
    /// The variables that name a locale, in POSIX order; the language is taken from the first set.
    public static let localeVariables = ["LC_ALL", "LC_MESSAGES", "LANG"]

    public static let all: [SessionSetting] = [
        SessionSetting("language", option: "--lang", extraVariables: localeVariables, .language,
                       apply: { $0.language = $1 }, builtIn: { $0.language }),
        SessionSetting("silence", option: "--silence", .cases, apply: { $0.silence = $1 }, builtIn: { $0.silence }),
        SessionSetting("input", option: "--input", placeholder: "NAME", unset: "the server's default", .text,
                       apply: { $0.inputDevice = $1 }, builtIn: { $0.inputDevice }),
        SessionSetting("output", option: "--output", placeholder: "NAME", unset: "the server's default", .text,
                       apply: { $0.outputDevice = $1 }, builtIn: { $0.outputDevice }),
        SessionSetting("whisper-model", option: "--whisper-model", placeholder: "PATH", path: true, .text,
                       apply: { $0.whisperModel = $1 }, builtIn: { $0.whisperModel }),
        SessionSetting("llm-model", option: "--llm-model", placeholder: "PATH", unset: "none: the rules alone", path: true,
                       .text, apply: { $0.languageModel = $1 }, builtIn: { $0.languageModel }),
        SessionSetting("no-model", option: "--no-model", .boolean,
                       apply: { if $1 { $0.languageModel = nil } }, builtIn: { $0.languageModel == nil }),
        SessionSetting("overlap", option: "--no-overlap", .boolean, apply: { $0.overlap = $1 }, builtIn: { $0.overlap }),
        SessionSetting("fixed-silence", option: nil, .boolean, apply: { $0.fixedSilence = $1 }, builtIn: { $0.fixedSilence }),
        SessionSetting("notes-dir", option: "--notes-dir", placeholder: "DIR", path: true, .text,
                       apply: { $0.notesDirectory = $1 }, builtIn: { $0.notesDirectory }),
        SessionSetting("editor", option: nil, extraVariables: ["VISUAL", "EDITOR"], placeholder: "COMMAND",
                       unset: "nano, else vi", .text, apply: { $0.editor = $1 }, builtIn: { $0.editor }),
        SessionSetting("events", option: "--events", placeholder: "FILE|-", unset: "none", path: true, .text,
                       apply: { $0.events = $1 }, builtIn: { $0.events }),
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
                    if setting.key == "language", localeVariables.contains(variable) {
                        // Only the first locale variable set counts, as in POSIX; the C locale
                        // says nothing, and a language without a pack is reported if nothing
                        // else names one.
                        if let code = LanguagePackLoader.languageCode(forLocale: text) {
                            return .init(key: setting.key, value: code, source: .environment(variable: variable))
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
        let languageIsBuiltIn = entries.first { $0.key == "language" }?.source == .builtIn
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
            if entry.key == "no-model", let model = self["llm-model"], model.source.strength > entry.source.strength { continue }
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

extension ValueParser where Value == String {
    /// `--lang`: a language with a language pack, as a code or a locale ("en", "EN", "en-US",
    /// "ja_JP.UTF-8").
    public static var language: Self {
        let codes = LanguagePackLoader.supportedLanguages
        return Self("takes one of \(codes.joined(separator: ", "))", choices: codes) {
            LanguagePackLoader.languageCode(forLocale: $0)
        }
    }
}
