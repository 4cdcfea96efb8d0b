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
        ] + SessionArguments.declarations.filter { !["--type", "--yes"].contains($0.name) }.within(\.session)
    }

    static func run(_ options: Arguments) throws -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        let path = SessionSettings.configPath(environment: environment)
        if options.path { print(path); return 0 }
        let settings = options.session.settings(environment: environment)
        for notice in settings.notices { printError(notice) }
        let exists = FileManager.default.fileExists(atPath: path)
        print("Config file: \(path)\(exists ? "" : " (none yet)")")
        print("")
        let modelUsed = settings.applied(to: options.session.configuration).languageModel != nil
        let shown = settings.entries.map { entry in
            let value = entry.key == "llm-model" && !modelUsed ? "(none: no-model)"
                : entry.value ?? "(\(SessionSettings.setting(entry.key)?.unsetMeaning ?? "unset"))"
            return (entry.key, value, "\(entry.source)")
        }
        let keyWidth = shown.map(\.0.count).max() ?? 0
        let valueWidth = min(40, shown.map(\.1.count).max() ?? 0)
        for (key, value, source) in shown {
            print(key.padding(toLength: keyWidth, withPad: " ", startingAt: 0) + " = "
                  + (value.count < valueWidth ? value.padding(toLength: valueWidth, withPad: " ", startingAt: 0) : value)
                  + "  (\(source))")
        }
        if let locale = settings.unsupportedLocale {
            print("")
            print("The locale \(locale) has no language pack: English is used (set language in the config file or use --lang).")
        }
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
                           top: CommandLineInterface.reference, sections: [
                               ("Configuration", configuration),
                               ("Environment", environment),
                               ("Files", files),
                           ])
        print(page.troff, terminator: "")
        return 0
    }

    static var configuration: String {
        let keys = SessionSettings.all.map { setting in
            let overridden = ([setting.option].compactMap(\.self) + setting.variables).joined(separator: ", ")
            return "  \(setting.key) = \(setting.placeholder)    (\(overridden))"
        }
        return """
        Defaults for talk, record and the notes commands live in $XDG_CONFIG_HOME/dialogue-memo/config \
        (~/.config/dialogue-memo/config when XDG_CONFIG_HOME is unset). Each line is key = value; lines \
        that start with # are comments; a value runs to the end of the line, and a path may start with ~/. \
        A bad line is reported with its number and skipped. The command line wins over the environment, \
        which wins over the file, which wins over the built-in default; dialogue-memo config shows each \
        value and where it came from. The keys, with the option and the variables that override them:

        \(keys.joined(separator: "\n"))
        """
    }

    static var environment: String {
        """
        DIALOGUE_MEMO_<KEY> (the key in capitals, - as _) sets any key of the config file. LC_ALL, \
        LC_MESSAGES and LANG choose the language; VISUAL and EDITOR the editor. NO_COLOR turns colour off. \
        DIALOGUE_MEMO_CACHE is where make deps put the engines and models; DIALOGUE_MEMO_LOCALES a folder \
        of language packs.
        """
    }

    static var files: String {
        """
          ~/.config/dialogue-memo/config            the settings
          ~/.local/share/dialogue-memo/notes        the notes (Markdown)
          ~/.local/state/dialogue-memo/journals     unfinished exchanges, for recover
          ~/.cache/dialogue-memo                    the engines and models
        """
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
