import DialogueCore
import Foundation

/// Dispatches the subcommands. Exit codes: 0 success, 1 failure, 2 usage error.
enum CommandLineInterface {
    static let version = "0.1.0"

    static let usage = """
    dialogue-memo — speak an unfinished idea, answer a few questions, keep your own words.

    Usage:
      dialogue-memo [talk] [--lang xx] [--type] [options]   a spoken exchange (see talk --help)
      dialogue-memo demo [--lang xx]          a spoken demo on a private audio server, no devices needed
      dialogue-memo recover [--list]          reopen memos an interruption left unfinished
      dialogue-memo doctor                     check engines, models, audio and voices
      dialogue-memo transcribe FILE.wav [--lang xx] [--json] [--whisper-model PATH]
      dialogue-memo eval choices|grouping FILE.json [--llm-model PATH] [--json]
                                               measure the model decisions on scenarios
      dialogue-memo list | show ID | search QUERY | delete ID | edit ID   your saved notes
      dialogue-memo --help | --version

    Run `dialogue-memo COMMAND --help` for a command's options.
    """

    static func run(_ arguments: [String]) async -> Int32 {
        guard let command = arguments.first, !command.hasPrefix("--") || command == "--help" || command == "--version" else {
            return await TalkCommand.run(arguments)
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "--help", "-h", "help": print(usage); return 0
        case "--version": print("dialogue-memo \(version)"); return 0
        case "talk": return await TalkCommand.run(rest)
        case "recover": return await RecoverCommand.run(rest)
        case "demo": return await DemoCommand.run(rest)
        case "doctor": return await DoctorCommand.run(rest)
        case "transcribe": return await TranscribeCommand.run(rest)
        case "eval": return await EvalCommand.run(rest)
        case "list", "show", "search", "delete", "edit": return await NotesCommands.run(command, rest)
        default:
            printError("unknown command \"\(command)\".\n\n\(usage)")
            return 2
        }
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data("dialogue-memo: \(message)\n".utf8))
}

/// A tiny option parser: flags, options with one value, and positional arguments, with a usage
/// error (exit 2) for anything unknown.
struct Options {
    var flags: Set<String> = []
    var values: [String: String] = [:]
    var positional: [String] = []

    struct UsageError: Error { let message: String }

    init(_ arguments: [String], flags known: Set<String>, values valued: Set<String>) throws {
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
                let name = String(argument[..<eq])
                guard valued.contains(name) else { throw UsageError(message: "unknown option \(name)") }
                values[name] = String(argument[argument.index(after: eq)...])
            } else if known.contains(argument) {
                flags.insert(argument)
            } else if valued.contains(argument) {
                guard i + 1 < arguments.count else { throw UsageError(message: "\(argument) needs a value") }
                values[argument] = arguments[i + 1]
                i += 1
            } else if argument.hasPrefix("-") && argument != "-" {
                throw UsageError(message: "unknown option \(argument)")
            } else {
                positional.append(argument)
            }
            i += 1
        }
    }
}
