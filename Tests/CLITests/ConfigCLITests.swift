import Foundation
import Testing

/// A scratch home for one test: its own XDG folders (config, data, state), and the binary run
/// with an environment that only has what the test says (no LANG, VISUAL or DIALOGUE_MEMO_*
/// from the machine running the tests).
struct ScratchHome {
    let folder: URL
    var configFile: String { folder.appendingPathComponent("config/dialogue-memo/config").path }
    var vault: String { folder.appendingPathComponent("Vault").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("config/dialogue-memo"),
                                                withIntermediateDirectories: true)
    }

    func writeConfig(_ text: String) throws { try text.write(toFile: configFile, atomically: true, encoding: .utf8) }

    /// An executable script in the scratch folder.
    func script(_ name: String, _ body: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    func run(_ arguments: [String], environment extra: [String: String] = [:], input: String = "") throws -> CLI.Result {
        let inherited = ProcessInfo.processInfo.environment.filter { key, _ in
            !key.hasPrefix("DIALOGUE_MEMO_") && !key.hasPrefix("LC_")
                && !["LANG", "VISUAL", "EDITOR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"].contains(key)
        }
        var environment = inherited.merging([
            "HOME": folder.path,
            "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
            "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
            "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
            "LANG": "C.UTF-8",
        ]) { $1 }
        // The engines and models stay where make deps put them.
        if let cache = ProcessInfo.processInfo.environment["DIALOGUE_MEMO_CACHE"] { environment["DIALOGUE_MEMO_CACHE"] = cache }
        environment.merge(extra) { $1 }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = arguments
        process.environment = environment
        let stdin = Pipe(), out = Pipe(), err = Pipe()
        process.standardInput = stdin
        process.standardOutput = out
        process.standardError = err
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLI.Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                          stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// `config`'s line for `key`: "silence = relaxed  (…)" → ("relaxed", "…").
    static func line(_ key: String, in output: String) -> (value: String, source: String)? {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix(key + " ") }),
              let equals = line.firstIndex(of: "="), let open = line.lastIndex(of: "(") else { return nil }
        let value = line[line.index(after: equals)..<open].trimmingCharacters(in: .whitespaces)
        return (value, String(line[line.index(after: open)...].dropLast()))
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

@Suite("dialogue-memo config, completions and man page (real binary, no engines)", .serialized)
struct ConfigCLITests {
    static let keys = ["language", "silence", "input", "output", "whisper-model", "llm-model", "no-model", "overlap",
                       "notes-dir", "editor", "events"]

    @Test func configPathIsInXDGConfigHomeElseDotConfig() throws {
        let home = try ScratchHome()
        defer { home.remove() }
        let result = try home.run(["config", "--path"])
        #expect(result.status == 0)
        #expect(result.stdout == home.configFile + "\n")
        let fallback = try home.run(["config", "--path"], environment: ["XDG_CONFIG_HOME": ""])
        #expect(fallback.stdout == home.folder.path + "/.config/dialogue-memo/config\n")
    }

    @Test func withoutAFileEveryValueIsBuiltIn() throws {
        let home = try ScratchHome()
        defer { home.remove() }
        let result = try home.run(["config"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Config file: \(home.configFile) (none yet)\n"))
        for key in Self.keys {
            #expect(ScratchHome.line(key, in: result.stdout)?.source == "built-in", "\(key) in\n\(result.stdout)")
        }
        #expect(ScratchHome.line("language", in: result.stdout)?.value == "en")
        #expect(ScratchHome.line("input", in: result.stdout)?.value == "(the server's default)")
    }

    @Test func everySourceIsNamedAndTheStrongestWins() throws {
        let home = try ScratchHome()
        defer { home.remove() }
        try home.writeConfig("""
        # Defaults for my laptop
        language = de
        silence = relaxed
        input = usb-mic
        notes-dir = ~/Vault
        editor = code --wait
        no-model = true
        """)
        let result = try home.run(["config", "--silence", "aggressive"],
                                  environment: ["DIALOGUE_MEMO_INPUT": "headset", "VISUAL": "vim"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let expected: [(String, String, String)] = [
            ("language", "de", "\(home.configFile):2"),
            ("silence", "aggressive", "command line"),
            ("input", "headset", "environment DIALOGUE_MEMO_INPUT"),
            ("output", "(the server's default)", "built-in"),
            ("notes-dir", home.vault, "\(home.configFile):5"),
            ("editor", "vim", "environment VISUAL"),
            ("no-model", "true", "\(home.configFile):7"),
            ("llm-model", "(none: no-model)", "built-in"),
        ]
        for (key, value, source) in expected {
            let line = ScratchHome.line(key, in: result.stdout)
            #expect(line?.value == value && line?.source == source, "\(key): \(String(describing: line)) in\n\(result.stdout)")
        }
        let locale = try home.run(["config"], environment: ["LANG": "ja_JP.UTF-8"])
        #expect(ScratchHome.line("language", in: locale.stdout).map { "\($0.value) \($0.source)" } == "ja environment LANG")
    }

    @Test(arguments: [("en-US", "en"), ("EN", "en"), ("ja_JP.UTF-8", "ja"), ("fr_CA", "fr"), ("de", "de")])
    func langAcceptsLocalesAndCapitals(given: String, code: String) throws {
        let home = try ScratchHome()
        defer { home.remove() }
        for command in [["config"], ["config", "--silence", "default"]] {
            let result = try home.run(command + ["--lang", given])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(ScratchHome.line("language", in: result.stdout).map { "\($0.value) \($0.source)" } == "\(code) command line")
        }
        let file = try ScratchHome()
        defer { file.remove() }
        try file.writeConfig("language = \(given)\n")
        let fromFile = try file.run(["config"])
        #expect(fromFile.stderr.isEmpty, "\(fromFile.stderr)")
        #expect(ScratchHome.line("language", in: fromFile.stdout)?.value == code)
    }

    @Test func aBadLineNamesTheFileTheLineAndTheFixAndTheRestStillCounts() throws {
        let home = try ScratchHome()
        defer { home.remove() }
        try home.writeConfig("silence = slow\nlangauge = ja\nlanguage = fr\n")
        let result = try home.run(["config"])
        #expect(result.status == 0)
        #expect(result.stderr.contains(#"\#(home.configFile):1: silence takes one of relaxed, default, aggressive (not "slow"). Fix the value, or delete the line for the default."#),
                "\(result.stderr)")
        #expect(result.stderr.contains(#"\#(home.configFile):2: unknown key "langauge". Did you mean language?"#), "\(result.stderr)")
        #expect(ScratchHome.line("language", in: result.stdout)?.value == "fr")
        #expect(ScratchHome.line("silence", in: result.stdout)?.source == "built-in")
    }

    /// The file reaches a real session: its notes folder and its no-model (a typed exchange,
    /// no engine), with a bad line told on the screen; `list` and `edit` read the same file,
    /// and the editor precedence is the environment's VISUAL over the file's editor.
    @Test func aTypedSessionAndTheNotesCommandsUseTheFile() throws {
        let home = try ScratchHome()
        defer { home.remove() }
        let fileEditor = try home.script("file-editor.sh", #"echo "Edited by the file's editor." >> "$1""#)
        let visual = try home.script("visual.sh", #"echo "Edited by VISUAL." >> "$1""#)
        try home.writeConfig("notes-dir = ~/Vault\nno-model = true\nsilence = nope\neditor = \(fileEditor)\n")
        let talk = try home.run(["talk", "--type", "--yes", "--lang", "en-US"],
                                input: "A garden on the roof of the school.\nThe pupils grow vegetables.\nThat's all.\n")
        #expect(talk.status == 0, "\(talk.stdout)\(talk.stderr)")
        #expect(talk.stdout.contains("\(home.configFile):3: silence takes one of"), "the notice is on the screen:\n\(talk.stdout)")
        let notes = try FileManager.default.contentsOfDirectory(atPath: home.vault).filter { $0.hasSuffix(".md") }
        #expect(notes.count == 1, "the note is in the file's notes-dir")
        let note = try String(contentsOfFile: home.vault + "/" + notes[0], encoding: .utf8)
        #expect(note.contains("A garden on the roof of the school"))

        let list = try home.run(["list", "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stderr.contains("\(home.configFile):3:"), "list tells the bad line too")
        let listed = try JSONSerialization.jsonObject(with: Data(list.stdout.split(separator: "\n").first.map(String.init)?.utf8 ?? "".utf8))
            as? [String: Any]
        let id = try #require(listed?["id"] as? String)

        let edited = try home.run(["edit", id])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(try String(contentsOfFile: home.vault + "/" + notes[0], encoding: .utf8).contains("Edited by the file's editor."))
        let overridden = try home.run(["edit", id], environment: ["VISUAL": visual])
        #expect(overridden.status == 0, "\(overridden.stderr)")
        #expect(try String(contentsOfFile: home.vault + "/" + notes[0], encoding: .utf8).contains("Edited by VISUAL."))
    }

    @Test func helpAndUsageErrorsOfTheNewCommands() throws {
        let home = try ScratchHome()
        defer { home.remove() }
        let config = try home.run(["config", "--help"])
        #expect(config.status == 0 && config.stdout.hasPrefix("Usage: dialogue-memo config [options]"), "\(config.stdout)")
        #expect(config.stdout.contains("--path") && config.stdout.contains("--silence"))
        let completions = try home.run(["completions", "--help"])
        #expect(completions.status == 0 && completions.stdout.hasPrefix("Usage: dialogue-memo completions SHELL"))
        let unknown = try home.run(["completions", "tcsh"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains(#"SHELL takes one of bash, zsh, fish (not "tcsh")"#), "\(unknown.stderr)")
        let missing = try home.run(["completions"])
        #expect(missing.status == 2 && missing.stderr.contains("missing SHELL"), "\(missing.stderr)")
    }

    // MARK: Completions

    /// The commands the help lists, and talk's options, read from the binary's own help.
    static func commandsAndTalkOptions(_ home: ScratchHome) throws -> (commands: [String], options: [String]) {
        let help = try home.run(["--help"]).stdout
        let commands = help.components(separatedBy: "Commands:\n")[1].components(separatedBy: "\n\n")[0]
            .split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        let talk = try home.run(["talk", "--help"]).stdout
        let options = talk.split(separator: "\n").compactMap { line -> String? in
            let word = line.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? ""
            return word.hasPrefix("--") ? word.trimmingCharacters(in: .init(charactersIn: ",")) : nil
        }
        return (commands, options)
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func eachScriptNamesEveryCommandAndEveryOptionOfTalk(shell: String) throws {
        let home = try ScratchHome()
        defer { home.remove() }
        let (commands, options) = try Self.commandsAndTalkOptions(home)
        #expect(commands.count >= 15 && commands.contains("talk") && commands.contains("completions"), "\(commands)")
        #expect(options.contains("--silence") && options.contains("--no-overlap"), "\(options)")
        let result = try home.run(["completions", shell])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.isEmpty)
        for command in commands {
            #expect(result.stdout.contains(shell == "zsh" ? "'\(command):" : shell == "fish" ? "-a \(command) " : "\(command)"),
                    "\(command) missing")
        }
        for option in options {
            let name = shell == "fish" ? "-l \(option.dropFirst(2)) " : option
            #expect(result.stdout.contains(name), "\(option) missing")
        }
        #expect(!result.stdout.contains("manpage"), "the hidden command is not offered")
        let script = home.folder.appendingPathComponent("completion.\(shell)").path
        try result.stdout.write(toFile: script, atomically: true, encoding: .utf8)
        let checker = ["/bin/\(shell)", "/usr/bin/\(shell)"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let checker else {
            // bash is always there; zsh and fish only when installed (apt-get install zsh fish).
            #expect(shell != "bash", "bash is needed to check the bash script")
            return
        }
        let syntax = try Self.shell(checker, ["-n", script])
        #expect(syntax.status == 0, "\(shell) -n rejects the script: \(syntax.output)")
    }

    /// bash completes the way a person types: the command table, the enum words, the nested
    /// commands of eval, and talk's options before any command.
    @Test func bashCompletesCommandsOptionsAndEnumWords() throws {
        let home = try ScratchHome()
        defer { home.remove() }
        let script = home.folder.appendingPathComponent("completion.bash").path
        try home.run(["completions", "bash"]).stdout.write(toFile: script, atomically: true, encoding: .utf8)
        let cases: [(String, String)] = [
            ("dialogue-memo --sil", "--silence"),
            ("dialogue-memo --silence ", "relaxed default aggressive"),
            ("dialogue-memo talk --lang ", "en de es fr ja"),
            ("dialogue-memo record --silence a", "aggressive"),
            ("dialogue-memo eval ", "choices grouping fuzz prompts speech turns actions people"),
            ("dialogue-memo eval choices --format ", "chat completion"),
            ("dialogue-memo completions ", "bash zsh fish"),
            ("dialogue-memo con", "config"),
            ("dialogue-memo config --p", "--path"),
        ]
        for (line, expected) in cases {
            var words = line.split(separator: " ").map(String.init)
            if line.hasSuffix(" ") { words.append("") }
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let body = "source '\(script)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _dialogue_memo; echo \"${COMPREPLY[*]}\""
            let result = try Self.shell("/bin/bash", ["-c", body])
            #expect(result.output.trimmingCharacters(in: .newlines) == expected, "\(line)")
        }
    }

    @Test func fishCompletesEnumWordsWhenFishIsInstalled() throws {
        guard let fish = ["/usr/bin/fish", "/bin/fish"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return   // fish is optional; the syntax test says so
        }
        let home = try ScratchHome()
        defer { home.remove() }
        let script = home.folder.appendingPathComponent("completion.fish").path
        try home.run(["completions", "fish"]).stdout.write(toFile: script, atomically: true, encoding: .utf8)
        let result = try Self.shell(fish, ["--no-config", "-c", "source '\(script)'; complete -C 'dialogue-memo --silence '; complete -C 'dialogue-memo eval '"])
        let words = result.output.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        #expect(words == ["aggressive", "default", "relaxed", "actions", "choices", "fuzz", "grouping", "prompts", "speech", "turns"], "\(result.output)")
    }

    // MARK: The man page

    @Test func theManPageHasEveryCommandAndRendersWithMan() throws {
        let home = try ScratchHome()
        defer { home.remove() }
        let result = try home.run(["manpage"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix(".TH DIALOGUE\\-MEMO 1 "))
        #expect(!(try home.run(["--help"]).stdout.contains("manpage")), "manpage is for make install, not the help")
        let (commands, options) = try Self.commandsAndTalkOptions(home)
        for command in commands { #expect(result.stdout.contains(".SS \"\(command)"), "\(command) missing") }
        for key in Self.keys { #expect(result.stdout.contains("\(key.replacingOccurrences(of: "-", with: "\\-")) = "), "\(key)") }
        let page = home.folder.appendingPathComponent("dialogue-memo.1").path
        try result.stdout.write(toFile: page, atomically: true, encoding: .utf8)
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/man") else { return }   // man-db is optional
        let rendered = try Self.shell("/usr/bin/man", ["--warnings", "-l", page], environment: ["MANWIDTH": "100", "MAN_KEEP_FORMATTING": ""])
        #expect(rendered.status == 0, "\(rendered.output)")
        #expect(!rendered.output.contains("warning"), "\(rendered.output)")
        let text = rendered.output.replacingOccurrences(of: "\u{2010}", with: "-")   // man's hyphen
        for expected in ["DIALOGUE-MEMO(1)", "NAME", "COMMANDS", "CONFIGURATION", "ENVIRONMENT",
                         "dialogue-memo [talk] [options]"] + options {
            #expect(text.contains(expected), "\(expected) missing from the rendered page")
        }
    }

    static func shell(_ executable: String, _ arguments: [String],
                      environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
