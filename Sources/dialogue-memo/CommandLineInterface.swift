import DialogueCore
import Foundation
import Options
import VoiceSession

/// Dispatches the subcommands. Exit codes: 0 success, 1 failure, 2 usage error.
enum CommandLineInterface {
    static let version = "0.1.0"

    static let commands = Subcommands(
        "dialogue-memo", usage: "dialogue-memo [COMMAND] [options]",
        about: "dialogue-memo — speak an unfinished idea, answer a few questions, keep your own words.",
        footer: """
        Without a command, dialogue-memo runs talk. `dialogue-memo COMMAND --help` shows a
        command's options; `dialogue-memo --version` prints the version.
        """,
        [
            Subcommand("talk", arguments: "", "a spoken exchange (the default), or typed with --type", run: TalkCommand.run),
            Subcommand("record", arguments: "", "a plain voice note: record until a pause, no questions", run: RecordCommand.run),
            Subcommand(PlayCommand.Arguments.self, "play the recording kept with a note", run: PlayCommand.run),
            Subcommand("demo", arguments: "", "a spoken demo on a private audio server, no devices needed", run: DemoCommand.run),
            Subcommand(RecoverCommand.Arguments.self, "reopen memos an interruption left unfinished", run: RecoverCommand.run),
            Subcommand(DoctorCommand.Arguments.self, "check engines, models, audio and voices", run: DoctorCommand.run),
            Subcommand(TranscribeCommand.Arguments.self, "a WAV file to text", run: TranscribeCommand.run),
            Subcommand("eval", arguments: "KIND …", "measure the model decisions: choices, grouping, fuzz, prompts",
                       run: EvalCommand.commands.run),
        ] + NotesCommands.commands)

    static func run(_ arguments: [String]) async -> Int32 {
        do { return try await dispatch(arguments) }
        catch let help as HelpRequest { print(help.help); return 0 }
        catch let usage as UsageError { printError("\(usage.reason)\n\n\(usage.usage)"); return 2 }
        catch let exit as CommandExit { return exit.status }
        catch { printError("\(error)"); return 1 }
    }

    /// No command, or an option first, is `talk`.
    static func dispatch(_ arguments: [String]) async throws -> Int32 {
        guard let first = arguments.first, !first.hasPrefix("-") || ["--help", "-h", "--version"].contains(first) else {
            return try await TalkCommand.run(arguments)
        }
        if first == "--version" { print("dialogue-memo \(version)"); return 0 }
        return try await commands.run(arguments)
    }
}

/// Ends a command early with an exit status.
struct CommandExit: Error { let status: Int32 }

func printError(_ message: String) {
    FileHandle.standardError.write(Data("dialogue-memo: \(message)\n".utf8))
}

/// One compact JSON object with sorted keys, as the `--json` outputs print them.
func jsonLine(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
}

/// A usage error of the Options library (at file scope, where `Options` is not the old struct).
private func usageError(_ reason: String, usage: String) -> Error { UsageError(reason, usage: usage) }

/// Deprecated: the old string-keyed parser, kept only for talk, record and demo until they
/// declare a `ParsableOptions` struct like every other command. It behaves as the new one
/// does: `--help` prints `usage` (exit 0); an unknown option, a missing or bad value (`--lang`,
/// `--silence`) or any positional argument prints the reason and `usage` (exit 2).
extension Options {
    static func command(_ arguments: [String], flags: Set<String>, values: Set<String>, usage: String) throws -> Options {
        if arguments.contains("--help") || arguments.contains("-h") { throw HelpRequest(help: usage) }
        let options: Options
        do { options = try Options(arguments, flags: flags, values: values) }
        catch let error as UsageError { throw usageError(error.message, usage: usage) }
        if let extra = options.positional.first { throw usageError("unexpected argument \"\(extra)\"", usage: usage) }
        func check<Value>(_ name: String, _ parser: ValueParser<Value>) throws {
            if let text = options.values[name], parser.parse(text) == nil {
                throw usageError(parser.rejection(of: text, for: name), usage: usage)
            }
        }
        try check("--lang", .language)
        try check("--silence", ValueParser<SilencePreset>.cases)
        return options
    }

    /// Builds the old struct for `SessionConfiguration.command`, which still takes it (recover).
    init(flags: Set<String>, values: [String: String?]) {
        self.flags = flags
        self.values = values.compactMapValues { $0 }
    }
}

extension ValueParser where Value == String {
    /// `--lang`: a language with a language pack, as a code or a locale ("ja", "ja_JP.UTF-8").
    static var language: Self {
        let codes = LanguagePackLoader.supportedLanguages
        return Self("takes one of \(codes.joined(separator: ", "))", placeholder: codes.joined(separator: "|")) {
            LanguagePackLoader.languageCode(forLocale: $0)
        }
    }
}

extension Options.UsageError: CustomStringConvertible {
    var description: String { message }
}

/// Deprecated with `Options.command`: a tiny option parser (flags, options with one value,
/// positional arguments) with a usage error for anything unknown.
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
