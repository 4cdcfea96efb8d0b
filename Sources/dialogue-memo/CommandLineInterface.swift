import DialogueCore
import Evaluation
import Foundation
import Options
import VoiceSession

/// Dispatches the subcommands. Exit codes: 0 success, 1 failure, 2 usage error.
enum CommandLineInterface {
    static let version = "0.1.0"

    /// The version, and the licences and terms of what runs inside the program.
    static var versionText: String {
        let installed = LanguagePackLoader.currentExecutable().map {
            $0.deletingLastPathComponent().appendingPathComponent("../share/doc/dialogue-memo/copyright").standardizedFileURL.path
        }
        let fullTexts = installed.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
            ?? "LICENSE and packaging/copyright in the source tree"
        return """
        dialogue-memo \(version) (MIT License)
        Engines: whisper.cpp, llama.cpp and ggml (MIT License)
        Models: Whisper base by OpenAI (MIT License); Gemma 3 270M by Google (Gemma Terms of Use,
          ai.google.dev/gemma/terms); SmolLM2-135M-Instruct by Hugging Face (Apache License 2.0)
        Licences and terms in full: \(fullTexts)
        """
    }

    static let commands = Subcommands(
        "dialogue-memo", usage: "dialogue-memo [COMMAND] [options]",
        about: "dialogue-memo — speak an unfinished idea, answer a few questions, keep your own words.",
        footer: """
        Without a command, dialogue-memo runs talk. `dialogue-memo COMMAND --help` shows a
        command's options; `dialogue-memo --version` prints the version.
        """,
        [
            Subcommand(TalkCommand.Arguments.self, "a spoken exchange (the default), or typed with --type", run: TalkCommand.run),
            Subcommand(RecordCommand.Arguments.self, "a plain voice note: record until a pause, no questions", run: RecordCommand.run),
            Subcommand(PlayCommand.Arguments.self, "play the recording kept with a note", run: PlayCommand.run),
            Subcommand(DemoCommand.Arguments.self, "a spoken demo on a private audio server, no devices needed", run: DemoCommand.run),
            Subcommand(RecoverCommand.Arguments.self, "reopen memos an interruption left unfinished", run: RecoverCommand.run),
            Subcommand(DoctorCommand.Arguments.self, "check engines, models, audio and voices", run: DoctorCommand.run),
            Subcommand(TranscribeCommand.Arguments.self, "a WAV file to text", run: TranscribeCommand.run),
            Subcommand(EvalCommand.commands, arguments: "KIND …", "measure: choices, grouping, fuzz, prompts, speech, turns, actions"),
        ] + NotesCommands.commands + [
            Subcommand(ConfigCommand.Arguments.self, "the settings in effect and where each comes from (--path: the file)",
                       run: ConfigCommand.run),
            Subcommand(CompletionsCommand.Arguments.self, "a completion script for bash, zsh or fish", run: CompletionsCommand.run),
            Subcommand(ManPageCommand.Arguments.self, "the man page", hidden: true, run: ManPageCommand.run),
        ])

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
        if first == "--version" { print(versionText); return 0 }
        return try await commands.run(arguments)
    }
}

/// Ends a command early with an exit status.
struct CommandExit: Error { let status: Int32 }

func printError(_ message: String) {
    FileHandle.standardError.write(Data("dialogue-memo: \(message)\n".utf8))
}
