import Foundation

/// A command's options as a struct: its properties start at their defaults and the parser fills
/// them from `declarations`, which are also the only source of the help text.
///
///     struct TranscribeOptions: ParsableOptions {
///         static let command = "dialogue-memo transcribe"
///         static let about = "Transcribes a WAV file."
///         var file = ""
///         var lang = "en"
///         var json = false
///         static let declarations: [Declaration<Self>] = [
///             .positional("FILE.wav", \.file, "the recording"),
///             .value("--lang xx", \.lang, "language of the speech"),
///             .flag("--json", \.json, "print JSON"),
///         ]
///     }
///     let options = try TranscribeOptions.parse(arguments)
public protocol ParsableOptions: SendableMetatype {
    init()
    /// The words before the arguments in the usage line: "dialogue-memo transcribe".
    static var command: String { get }
    /// What the command does, shown under the usage line (may be empty).
    static var about: String { get }
    static var declarations: [Declaration<Self>] { get }
}

/// The arguments were wrong: the CLI prints `reason` (one line) and `usage`, and exits 2.
public struct UsageError: Error, CustomStringConvertible {
    public let reason: String
    public let usage: String
    public init(_ reason: String, usage: String) {
        self.reason = reason
        self.usage = usage
    }
    public var description: String { reason }
}

/// `--help` or `-h` was given: the CLI prints `help` and exits 0.
public struct HelpRequest: Error, CustomStringConvertible {
    public let help: String
    public init(help: String) { self.help = help }
    public var description: String { help }
}

extension ParsableOptions {
    public static var about: String { "" }

    /// A usage error of this command, for a rule between options that no single declaration states.
    public static func usageError(_ reason: String) -> UsageError { UsageError(reason, usage: help) }

    /// Parses `arguments` (everything after the command's name). `--help`/`-h` anywhere before
    /// `--` throws `HelpRequest`; anything unknown, missing or invalid throws `UsageError`.
    /// After `--` every argument is positional; a repeated option keeps its last value.
    public static func parse(_ arguments: [String]) throws -> Self {
        if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
            throw HelpRequest(help: help)
        }
        var options = Self()
        var positionals: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" { positionals += rest; break }
            guard argument.hasPrefix("-"), argument != "-" else { positionals.append(argument); continue }
            var name = argument, attached: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            }
            guard let declaration = declarations.first(where: { $0.isOption && $0.names.contains(name) }) else {
                throw usageError("unknown option \(name)")
            }
            guard case .value = declaration.kind else {
                if attached != nil { throw usageError("\(name) takes no value") }
                _ = declaration.store(&options, "")
                continue
            }
            // The next option is not this one's value: `--lang --notes-dir DIR` forgot the language.
            // (A value that starts with "--" can still be given as `--name=--value`.)
            if attached == nil, let next = rest.first, next.hasPrefix("--") {
                throw usageError("\(name) needs a value (the next argument, \(next), is an option)")
            }
            guard let text = attached ?? rest.popFirst() else { throw usageError("\(name) needs a value") }
            guard declaration.store(&options, text) else {
                throw usageError(rejectionReason(text, name: name, requirement: declaration.requirement))
            }
        }
        let slots = declarations.filter { !$0.isOption }
        if positionals.count > slots.count {
            throw usageError("unexpected argument \"\(positionals[slots.count])\"")
        }
        for (slot, text) in zip(slots, positionals) where !slot.store(&options, text) {
            throw usageError(rejectionReason(text, name: slot.names[0], requirement: slot.requirement))
        }
        if let missing = slots.dropFirst(positionals.count).first(where: { !$0.isOptionalPositional }) {
            throw usageError("missing \(missing.names[0])")
        }
        return options
    }

    /// The positionals as the usage line shows them: "FILE.json", "[COUNT]".
    public static var positionalSynopsis: String {
        declarations.filter { !$0.isOption }
            .map { $0.isOptionalPositional ? "[\($0.placeholder)]" : $0.placeholder }.joined(separator: " ")
    }

    /// The usage line without "Usage: ": "dialogue-memo eval fuzz [COUNT] [options]".
    public static var synopsis: String {
        let options = declarations.contains(where: \.isOption) ? "[options]" : ""
        return [command, positionalSynopsis, options].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The usage line, `about`, then a table of the arguments and the options with their defaults.
    public static var help: String {
        let reference = reference(summary: "")
        func row(_ argument: ArgumentReference) -> HelpRow {
            let label = argument.isOption ? argument.names.joined(separator: ", ") : argument.placeholder
            return HelpRow(label: argument.placeholder.isEmpty || !argument.isOption ? label : label + " " + argument.placeholder,
                           text: argument.help)
        }
        var sections = ["Usage: " + synopsis]
        if !about.isEmpty { sections.append(about) }
        let arguments = reference.positionals.map(row)
        let options = reference.options.map(row) + [HelpRow(label: "-h, --help", text: "show this help")]
        let column = HelpRow.column(arguments + options)
        if !arguments.isEmpty { sections.append("Arguments:\n" + HelpRow.table(arguments, column: column)) }
        sections.append("Options:\n" + HelpRow.table(options, column: column))
        return sections.joined(separator: "\n\n")
    }
}

/// One line of a help table: a label in the first column, wrapped text in the second.
public struct HelpRow: Sendable {
    public let label: String
    public let text: String
    public init(label: String, text: String) {
        self.label = label
        self.text = text
    }

    /// Where the text starts: after the longest label up to `widest` (a longer label gets its
    /// text on the next line).
    public static func column(_ rows: [HelpRow], widest: Int = 26) -> Int {
        2 + min(widest, rows.map(\.label.count).max() ?? 0) + 2
    }

    /// The rows with their text from `column` on, wrapped at `width` columns.
    public static func table(_ rows: [HelpRow], column: Int? = nil, width: Int = 100) -> String {
        let column = column ?? Self.column(rows)
        let indent = String(repeating: " ", count: column)
        return rows.map { row in
            let lines = wrap(row.text, width: width - column)
            let head = "  " + row.label
            let first = head.count + 2 <= column
                ? head.padding(toLength: column, withPad: " ", startingAt: 0) + (lines.first ?? "")
                : head + "\n" + indent + (lines.first ?? "")
            return ([first] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n")
        }.joined(separator: "\n").replacingOccurrences(of: "\u{A0}", with: " ")
    }

    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + (line.isEmpty ? [] : [line])
    }
}
