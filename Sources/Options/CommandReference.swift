/// What a command accepts, read from its declarations: the one source of its help, the man
/// page and the shell completions, so none of them can drift from the options.
public struct CommandReference: Sendable {
    /// The word that runs it ("talk", "choices"); the program's name at the top.
    public let name: String
    /// One line for a list of commands.
    public let summary: String
    /// The usage line without "Usage: ".
    public let synopsis: String
    public let about: String
    /// Positionals and options in the order declared (`-h, --help` is not listed).
    public let arguments: [ArgumentReference]
    /// The commands under this one (`eval choices`); empty for a command with options.
    public let subcommands: [CommandReference]

    public init(name: String, summary: String, synopsis: String, about: String,
                arguments: [ArgumentReference], subcommands: [CommandReference]) {
        self.name = name
        self.summary = summary
        self.synopsis = synopsis
        self.about = about
        self.arguments = arguments
        self.subcommands = subcommands
    }

    public var options: [ArgumentReference] { arguments.filter(\.isOption) }
    public var positionals: [ArgumentReference] { arguments.filter { !$0.isOption } }
}

/// One option or positional argument as the help shows it.
public struct ArgumentReference: Sendable {
    /// An option's names ("--notes-dir", aliases after it), or the positional's name.
    public let names: [String]
    /// What the value is called ("DIR", "en|ja"); empty for a flag.
    public let placeholder: String
    /// The help text, with "(default: …)" when there is one.
    public let help: String
    /// The accepted words of a fixed list; empty: any text.
    public let choices: [String]
    public let isOption: Bool
    public let isOptional: Bool

    public var takesValue: Bool { !isOption || !placeholder.isEmpty }
    /// Whether the value names a file or folder (completion offers paths).
    public var takesPath: Bool {
        choices.isEmpty && ["PATH", "FILE", "DIR"].contains { placeholder.contains($0) }
    }
}

extension ParsableOptions {
    /// This command's reference; `summary` is the line the command list shows.
    public static func reference(summary: String) -> CommandReference {
        let defaults = Self()
        let name = (command.split(separator: " ").last.map(String.init) ?? command)
            .trimmingCharacters(in: .init(charactersIn: "[]"))
        let arguments = declarations.map { declaration in
            // A no-break space keeps "(default: X)" on one line when the text wraps.
            let shown = declaration.defaultText(defaults).flatMap { $0.isEmpty ? nil : " (default:\u{A0}\($0))" } ?? ""
            let placeholder: String
            if case .value = declaration.kind { placeholder = declaration.placeholder }
            else if declaration.isOption { placeholder = "" } else { placeholder = declaration.placeholder }
            return ArgumentReference(names: declaration.names, placeholder: placeholder, help: declaration.help + shown,
                                     choices: declaration.choices, isOption: declaration.isOption,
                                     isOptional: declaration.isOption || declaration.isOptionalPositional)
        }
        return CommandReference(name: name, summary: summary, synopsis: synopsis, about: about,
                                arguments: arguments, subcommands: [])
    }
}
