import Foundation
import Options
import VoiceSession

/// `dialogue-memo config`: every setting of talk, its value and where it came from.
enum ConfigCommand {
    struct Arguments: ParsableOptions {
        static let command = "dialogue-memo config"
        static let about = """
        Prints the settings talk would use and where each comes from: the command line, an
        environment variable, the config file (with its line) or the built-in default. The
        strongest wins, in that order. Give talk's options to see what they change.

        The config file holds `key = value` lines (`#` starts a comment line), for example:
          language = ja
          silence = relaxed
          notes-dir = ~/Documents/Obsidian/Ideas
          editor = code --wait
        """
        var path = false
        var session = SessionArguments()
        static let declarations: [Declaration<Self>] = [
            .flag("--path", \.path, "print only the config file's path"),
        ] + SessionArguments.declarations(typing: false, saving: false).within(\.session)
    }

    static func run(_ options: Arguments) throws -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        let path = SessionSettings.configPath(environment: environment)
        if options.path { print(path); return 0 }
        let settings = options.session.settings(environment: environment)
        for notice in settings.notices { printError(notice) }
        print(settings.report(path: path, configuration: options.session.configuration))
        return 0
    }
}

/// `dialogue-memo completions bash|zsh|fish`: a completion script made from the command table.
enum CompletionsCommand {
    struct Arguments: ParsableOptions {
        static let command = "dialogue-memo completions"
        static let about = """
        Prints a completion script for your shell, made from the commands' own options. Install it:
          dialogue-memo completions bash > ~/.local/share/bash-completion/completions/dialogue-memo
          dialogue-memo completions zsh > ~/.zfunc/_dialogue-memo    # a folder in $fpath
          dialogue-memo completions fish > ~/.config/fish/completions/dialogue-memo.fish
        """
        var shell = ShellCompletion.bash
        static let declarations: [Declaration<Self>] = [
            .positional("SHELL", \.shell, "bash, zsh or fish", .cases),
        ]
    }

    static func run(_ options: Arguments) -> Int32 {
        print(options.shell.script(program: "dialogue-memo", top: CommandLineInterface.reference, defaultCommand: "talk"),
              terminator: "")
        return 0
    }
}

/// `dialogue-memo manpage`: the man page, for `make install` (not listed in the help).
enum ManPageCommand {
    struct Arguments: ParsableOptions {
        static let command = "dialogue-memo manpage"
        static let about = "Prints the man page (troff) made from every command's help; make install installs it."
        static let declarations: [Declaration<Self>] = []
    }

    static func run(_: Arguments) -> Int32 {
        let page = ManPage(program: "dialogue-memo", version: CommandLineInterface.version,
                           summary: "speak an unfinished idea, answer a few questions, keep your own words",
                           top: CommandLineInterface.reference, sections: SessionSettings.manualSections)
        print(page.troff, terminator: "")
        return 0
    }
}

extension CommandLineInterface {
    /// Every command and its options, for the completions and the man page.
    static var reference: CommandReference {
        let top = commands.reference(summary: "")
        return CommandReference(name: "dialogue-memo", summary: "", synopsis: top.synopsis,
                                about: commands.footer,
                                arguments: [], subcommands: top.subcommands)
    }
}
