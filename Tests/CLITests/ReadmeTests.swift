import Foundation
import Testing

/// The README is read by people before they run anything: it must have the sections they look
/// for, in the order they need them, and every command it shows must be one the program has.
@Suite("the README against the program")
struct ReadmeTests {
    static let readme: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    }()

    /// The sections a new user looks for, each by the words its heading must hold, in this order.
    static let sections: [[String]] = [
        ["requirements"], ["install"], ["first run"], ["stopping", "reviewing"], ["where", "kept"],
        ["microphone", "troubleshooting"], ["bigger model"], ["uninstall"],
    ]

    @Test func theSectionsAPersonLooksForComeInOrder() {
        let headings = Self.readme.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { $0.lowercased() }
        var from = 0
        for words in Self.sections {
            let found = headings[from...].firstIndex { heading in words.allSatisfy { heading.contains($0) } }
            #expect(found != nil, "no section heading with \(words) after \(headings.prefix(from).last ?? "the start"): \(headings)")
            from = (found ?? from) + 1
        }
    }

    /// Every `dialogue-memo …` line in a code block: its command is in `--help`, and each of its
    /// options is in that command's `--help`.
    @Test func everyCommandShownExistsWithItsOptions() throws {
        let shown = Self.commandLines(in: Self.readme)
        #expect(shown.count >= 15, "the README shows commands: \(shown)")
        let commands = try Self.helpCommands(CLI.run(["--help"]).stdout)
        let evalKinds = try Self.helpCommands(CLI.run(["eval", "--help"]).stdout)
        var helps: [[String]: String] = [:]
        for words in shown {
            var command: [String] = []
            var rest = words[...]
            if let first = rest.first, commands.contains(first) {
                command = [first]; rest = rest.dropFirst()
                if first == "eval", let kind = rest.first, evalKinds.contains(kind) { command.append(kind); rest = rest.dropFirst() }
            } else if let first = rest.first, !first.hasPrefix("-") {
                Issue.record("`dialogue-memo \(words.joined(separator: " "))`: \(first) is not a command in --help")
                continue
            }
            let options = rest.filter { $0.hasPrefix("--") }.map { String($0.prefix { $0 != "=" }) }
            if command.isEmpty, options == ["--version"] { continue }
            let help = try helps[command] ?? CLI.run((command.isEmpty ? ["talk"] : command) + ["--help"]).stdout
            helps[command] = help
            for option in options {
                #expect(help.contains(option), "`dialogue-memo \(words.joined(separator: " "))`: \(option) is not in its --help")
            }
        }
    }

    /// The words after `dialogue-memo` on each line of a code block that runs it (with or
    /// without a `$ ` prompt), up to a comment.
    static func commandLines(in text: String) -> [[String]] {
        var inBlock = false, lines: [[String]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inBlock.toggle(); continue }
            guard inBlock else { continue }
            var command = line.hasPrefix("$ ") ? line.dropFirst(2) : line[...]
            guard command.hasPrefix("dialogue-memo") else { continue }
            if let comment = command.range(of: " #") { command = command[..<comment.lowerBound] }
            let words = command.split(separator: " ").map(String.init)
            guard words.first == "dialogue-memo" else { continue }
            lines.append(Array(words.dropFirst()))
        }
        return lines
    }

    /// The command names of a help text's "Commands:" table.
    static func helpCommands(_ help: String) -> Set<String> {
        guard let start = help.range(of: "Commands:\n") else { return [] }
        return Set(help[start.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("  ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) })
    }

    @Test func aCommandThatIsNotThereIsCaught() throws {
        let words = Self.commandLines(in: "```sh\n$ dialogue-memo frobnicate --x  # no\ndialogue-memo list --json\n```\n")
        #expect(words == [["frobnicate", "--x"], ["list", "--json"]])
        let commands = try Self.helpCommands(CLI.run(["--help"]).stdout)
        #expect(commands.contains("list") && commands.contains("talk") && !commands.contains("frobnicate"))
        #expect(try Self.helpCommands(CLI.run(["eval", "--help"]).stdout).contains("turns"), "eval turns is in --help")
    }
}
