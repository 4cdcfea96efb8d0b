import Foundation

/// A command chosen by the first argument (`dialogue-memo list`, `dialogue-memo eval fuzz`):
/// its name and arguments for the list, and what runs it.
public struct Subcommand: Sendable {
    public let name: String
    /// The positional arguments: "ID"
    public let arguments: String
    public let summary: String
    /// Left out of the command list (a command for packagers, such as `manpage`).
    public let isHidden: Bool
    /// Its options (or its own commands), for the man page and the shell completions.
    public let reference: CommandReference
    let run: @Sendable ([String]) async throws -> Int32

    /// A command with typed options: `run` gets them parsed; name and arguments come from them.
    public init<Options: ParsableOptions>(_ options: Options.Type, _ summary: String, hidden: Bool = false,
                                          run: @escaping @Sendable (Options) async throws -> Int32) {
        reference = Options.reference(summary: summary)
        name = reference.name   // "[talk]": the default command, named talk
        arguments = Options.positionalSynopsis
        self.summary = summary
        isHidden = hidden
        self.run = { arguments in try await run(try Options.parse(arguments)) }
    }

    /// A command that reads its own arguments (its reference lists none).
    public init(_ name: String, arguments: String, _ summary: String,
                run: @escaping @Sendable ([String]) async throws -> Int32) {
        self.name = name
        self.arguments = arguments
        self.summary = summary
        isHidden = false
        reference = CommandReference(name: name, summary: summary, synopsis: name + " " + arguments, about: "",
                                     arguments: [], subcommands: [])
        self.run = run
    }

    /// Commands under this one (`dialogue-memo eval KIND`): the first argument picks one.
    public init(_ commands: Subcommands, arguments: String, _ summary: String) {
        reference = commands.reference(summary: summary)
        name = reference.name
        self.arguments = arguments
        self.summary = summary
        isHidden = false
        run = commands.run
    }
}

/// Commands under one name (`dialogue-memo COMMAND`, `dialogue-memo eval KIND`): the list is
/// the help, and the first argument picks the one that runs.
public struct Subcommands: Sendable {
    /// "dialogue-memo eval"
    public let command: String
    public let about: String
    public let list: [Subcommand]
    public let footer: String
    /// The usage line without "Usage: " (default: "dialogue-memo eval COMMAND [options]").
    public let usage: String

    public init(_ command: String, usage: String? = nil, about: String = "", footer: String = "", _ list: [Subcommand]) {
        self.command = command
        self.usage = usage ?? command + " COMMAND [options]"
        self.about = about
        self.list = list
        self.footer = footer
    }

    /// The commands' references under this one's name (the last word of `command`).
    public func reference(summary: String) -> CommandReference {
        CommandReference(name: command.split(separator: " ").last.map(String.init) ?? command, summary: summary,
                         synopsis: usage, about: about, arguments: [], subcommands: list.filter { !$0.isHidden }.map(\.reference))
    }

    public var help: String {
        let rows = list.filter { !$0.isHidden }.map { HelpRow(label: ([$0.name] + ($0.arguments.isEmpty ? [] : [$0.arguments])).joined(separator: " "),
                                      text: $0.summary) }
        let sections = ["Usage: " + usage, about, "Commands:\n" + HelpRow.table(rows), footer]
        return sections.filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    /// Runs the command the first argument names with the rest; `--help`, `-h` or `help`
    /// throws `HelpRequest` with the list, and no or an unknown name throws `UsageError`.
    public func run(_ arguments: [String]) async throws -> Int32 {
        guard let name = arguments.first else {
            throw UsageError("\(command) needs one of: \(list.map(\.name).joined(separator: ", "))", usage: help)
        }
        if ["--help", "-h", "help"].contains(name) { throw HelpRequest(help: help) }
        guard let subcommand = list.first(where: { $0.name == name }) else {
            throw UsageError(name.hasPrefix("-") ? "unknown option \(name)" : "unknown command \"\(name)\"", usage: help)
        }
        return try await subcommand.run(Array(arguments.dropFirst()))
    }
}
