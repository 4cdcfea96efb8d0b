import DialogueCore
import Foundation

/// Dispatches the subcommands. Exit codes: 0 success, 1 failure, 2 usage error.
enum CommandLineInterface {
    static let version = "0.1.0"

    static let usage = """
    dialogue-memo — speak an unfinished idea, answer a few questions, keep your own words.

    Usage:
      dialogue-memo [talk] [--lang xx] [--type] [options]   a spoken exchange (see talk --help)
      dialogue-memo record [--keep-audio]     a plain voice note: record until a pause, no questions
      dialogue-memo play ID                   play the recording kept with a note
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
        do { return try await dispatch(arguments) }
        catch let exit as CommandExit { return exit.status }
        catch { printError("\(error)"); return 1 }
    }

    static func dispatch(_ arguments: [String]) async throws -> Int32 {
        guard let command = arguments.first, !command.hasPrefix("--") || command == "--help" || command == "--version" else {
            return try await TalkCommand.run(arguments)
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "--help", "-h", "help": print(usage); return 0
        case "--version": print("dialogue-memo \(version)"); return 0
        case "talk": return try await TalkCommand.run(rest)
        case "recover": return try await RecoverCommand.run(rest)
        case "record": return try await RecordCommand.run(rest)
        case "play": return try await PlayCommand.run(rest)
        case "demo": return try await DemoCommand.run(rest)
        case "doctor": return try await DoctorCommand.run(rest)
        case "transcribe": return try await TranscribeCommand.run(rest)
        case "eval": return try await EvalCommand.run(rest)
        case "list", "show", "search", "delete", "edit": return try await NotesCommands.run(command, rest)
        default:
            printError("unknown command \"\(command)\".\n\n\(usage)")
            return 2
        }
    }
}

/// Ends a command early with an exit status (a usage error, or `--help` answered).
struct CommandExit: Error { let status: Int32 }

extension Options {
    /// A command's arguments, with the shared behaviour: `--help`/`-h` print `usage` (exit 0);
    /// an unknown or incomplete option prints the problem and `usage` (exit 2).
    static func command(_ arguments: [String], flags: Set<String>, values: Set<String>, usage: String) throws -> Options {
        let options: Options
        do { options = try Options(arguments, flags: flags.union(["--help", "-h"]), values: values) }
        catch let error as UsageError { printError("\(error.message)\n\n\(usage)"); throw CommandExit(status: 2) }
        if options.flags.contains("--help") || options.flags.contains("-h") { print(usage); throw CommandExit(status: 0) }
        return options
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data("dialogue-memo: \(message)\n".utf8))
}

extension Options {
    /// The same options without these flags (a command's own, before the shared session set-up).
    func without(_ names: Set<String>) -> Options {
        var copy = self
        copy.flags.subtract(names)
        return copy
    }
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
