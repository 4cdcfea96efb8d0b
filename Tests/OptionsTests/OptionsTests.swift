import Foundation
import Options
import Testing

enum Silence: String, CaseIterable { case relaxed, `default`, aggressive }

/// Every kind of declaration, as a command would write them.
struct Sample: ParsableOptions {
    static let command = "tool sample"
    static let about = "Does a sample thing."
    var file = ""
    var count = 10
    var lang = "en"
    var model: String?
    var json = false
    var silence = Silence.relaxed
    var format: Silence?
    var prior = 2.0
    var seed: UInt64 = 1
    var overlap = true
    var shared = Shared()

    struct Shared {
        var notes: String?
        var yes = false
        static let declarations: [Declaration<Self>] = [
            .value("--notes-dir DIR", \.notes, "where notes are saved"),
            .flag("--yes", \.yes, "do not ask"),
        ]
    }

    static let declarations: [Declaration<Self>] = [
        .positional("FILE.wav", \.file, "the recording"),
        .positional("[COUNT]", \.count, "how many", .wholeNumber(atLeast: 1)),
        .value("--lang", \.lang, "interface language", .oneOf(["en", "ja"])),
        .value("--llm-model PATH", \.model, "any GGUF model", aliases: ["--model"]),
        .flag("--json", \.json, "print JSON"),
        .value("--silence", \.silence, "how long a pause ends an answer", .cases),
        .value("--format", \.format, "prompt shape", .cases),
        .value("--rules-prior X", \.prior, "log-score bonus", .number(atLeast: 0)),
        .value("--seed N", \.seed, "random seed", .wholeNumber()),
        .flag("--no-overlap", \.overlap, "transcribe after the pause", setting: false),
    ] + Shared.declarations.within(\.shared)
}

struct Empty: ParsableOptions {
    static let command = "tool empty"
    static let declarations: [Declaration<Self>] = []
}

/// The reason of the usage error that parsing `arguments` throws (nil if none is thrown).
func reason(_ arguments: [String]) -> String? {
    do { _ = try Sample.parse(arguments); return nil }
    catch let error as UsageError { #expect(error.usage == Sample.help); return error.reason }
    catch { return "other error: \(error)" }
}

@Suite("Options: declarative command-line options")
struct OptionsTests {
    @Test func defaultsStayWhenNothingIsGiven() throws {
        let options = try Sample.parse(["a.wav"])
        #expect(options.file == "a.wav")
        #expect(options.count == 10 && options.lang == "en" && options.model == nil && !options.json)
        #expect(options.silence == .relaxed && options.format == nil && options.prior == 2 && options.seed == 1)
        #expect(options.overlap && options.shared.notes == nil && !options.shared.yes)
    }

    @Test func everyKindIsFilledInEitherSpelling() throws {
        let options = try Sample.parse(["--lang", "ja", "a.wav", "--model=m.gguf", "--json", "--silence", "aggressive",
                                        "--format=default", "--rules-prior", "0", "--seed=42", "7",
                                        "--notes-dir", "/tmp/n", "--yes", "--no-overlap"])
        #expect(options.file == "a.wav" && options.count == 7)
        #expect(options.lang == "ja" && options.model == "m.gguf" && options.json)
        #expect(options.silence == .aggressive && options.format == .default)
        #expect(options.prior == 0 && options.seed == 42)
        #expect(options.shared.notes == "/tmp/n" && options.shared.yes && !options.overlap)
    }

    @Test func aliasesAndTheLastRepeatWin() throws {
        #expect(try Sample.parse(["a", "--llm-model", "x", "--model", "y"]).model == "y")
        #expect(try Sample.parse(["a", "--rules-prior=1.5", "--rules-prior", "3"]).prior == 3)
    }

    @Test func argumentsAfterDoubleDashArePositional() throws {
        let options = try Sample.parse(["--", "--json", "3"])
        #expect(options.file == "--json" && options.count == 3 && !options.json)
        #expect(try Sample.parse(["-"]).file == "-")
    }

    /// A flag may set a property of any type: here a value by key, as the session settings keep theirs.
    @Test func aFlagSetsAnyValueItDeclares() throws {
        struct ByKey: ParsableOptions {
            static let command = "tool by-key"
            var given: [String: String] = [:]
            static let declarations: [Declaration<Self>] = [
                .flag("--no-overlap", \.given["overlap"], "transcribe after the pause", setting: "false"),
            ]
        }
        #expect(try ByKey.parse([]).given.isEmpty)
        #expect(try ByKey.parse(["--no-overlap"]).given == ["overlap": "false"])
        #expect(ByKey.help.contains("  --no-overlap  "))
    }

    @Test func anEqualsSignMayBeInsideAValue() throws {
        #expect(try Sample.parse(["a", "--model=a=b.gguf"]).model == "a=b.gguf")
    }

    @Test func aValueThatLooksLikeAnOptionIsGivenWithAnEqualsSign() throws {
        #expect(try Sample.parse(["a", "--model=--odd.gguf"]).model == "--odd.gguf")
    }

    @Test(arguments: [
        (["a", "--nope"], "unknown option --nope"),
        (["a", "--nope=1"], "unknown option --nope"),
        (["a", "-x"], "unknown option -x"),
        (["a", "--lang"], "--lang needs a value"),
        (["a", "--lang", "--json"], "--lang needs a value (the next argument, --json, is an option)"),
        (["a", "--model", "--"], "--model needs a value (the next argument, --, is an option)"),
        (["a", "--json=yes"], "--json takes no value"),
        (["a", "--lang", "xx"], "--lang takes one of en, ja (not \"xx\")"),
        (["a", "--lang="], "--lang takes one of en, ja (not \"\")"),
        (["a", "--silence", "bogus"], "--silence takes one of relaxed, default, aggressive (not \"bogus\")"),
        (["a", "--format=x"], "--format takes one of relaxed, default, aggressive (not \"x\")"),
        (["a", "--rules-prior", "-1"], "--rules-prior needs a number ≥ 0 (not \"-1\")"),
        (["a", "--rules-prior", "nan"], "--rules-prior needs a number ≥ 0 (not \"nan\")"),
        (["a", "--rules-prior", "two"], "--rules-prior needs a number ≥ 0 (not \"two\")"),
        (["a", "--seed", "1.5"], "--seed needs a whole number (not \"1.5\")"),
        (["a", "--seed", "-3"], "--seed needs a whole number (not \"-3\")"),
        (["a", "0"], "COUNT needs a whole number ≥ 1 (not \"0\")"),
        (["a", "many"], "COUNT needs a whole number ≥ 1 (not \"many\")"),
        (["a", "1", "b"], "unexpected argument \"b\""),
        ([], "missing FILE.wav"),
        (["--json"], "missing FILE.wav"),
    ])
    func everyUsageErrorSaysWhatIsWrongInOneLine(arguments: [String], expected: String) {
        let message = reason(arguments)
        #expect(message == expected)
        #expect(message?.contains("\n") == false)
    }

    @Test func helpWinsAnywhereBeforeDoubleDash() {
        for arguments in [["--help"], ["-h"], ["a", "--nope", "--help"], ["--lang", "xx", "-h"]] {
            #expect(throws: HelpRequest.self) { try Sample.parse(arguments) }
        }
        #expect(throws: UsageError.self) { try Sample.parse(["--", "--help", "1", "2"]) }
    }

    @Test func helpIsGeneratedFromTheDeclarations() throws {
        let help = Sample.help
        #expect(help.hasPrefix("Usage: tool sample FILE.wav [COUNT] [options]\n\nDoes a sample thing.\n\nArguments:\n"))
        let lines = help.split(separator: "\n").map(String.init)
        func line(_ label: String) -> String? { lines.first { $0 == "  " + label || $0.hasPrefix("  " + label + " ") } }
        #expect(line("FILE.wav")?.hasSuffix("the recording") == true)
        #expect(line("COUNT")?.hasSuffix("how many (default: 10)") == true)
        #expect(line("--lang en|ja")?.hasSuffix("interface language (default: en)") == true)
        #expect(line("--llm-model, --model PATH")?.hasSuffix("any GGUF model") == true)
        #expect(line("--json")?.hasSuffix("print JSON") == true)
        #expect(line("--silence relaxed|default|aggressive") != nil)
        #expect(help.contains("how long a pause ends an answer (default: relaxed)"))
        #expect(line("--format relaxed|default|aggressive") != nil)
        #expect(help.contains("prompt shape\n"))
        #expect(line("--rules-prior X")?.hasSuffix("log-score bonus (default: 2)") == true)
        #expect(line("--seed N")?.hasSuffix("random seed (default: 1)") == true)
        #expect(line("--notes-dir DIR")?.hasSuffix("where notes are saved") == true)
        #expect(line("--yes")?.hasSuffix("do not ask") == true)
        #expect(line("-h, --help")?.hasSuffix("show this help") == true)
        #expect(!help.contains("(default: )"))
    }

    @Test func helpColumnsLineUpAndALongLabelGetsItsOwnLine() {
        let lines = Sample.help.split(separator: "\n").map(String.init)
        func column(of text: String) -> Int? {
            lines.lazy.compactMap { line in line.range(of: text).map { line.distance(from: line.startIndex, to: $0.lowerBound) } }.first
        }
        let columns = ["the recording", "interface language", "print JSON", "show this help"].map(column(of:))
        #expect(columns.allSatisfy { $0 != nil && $0 == columns[0] })
        let long = lines.firstIndex { $0 == "  --silence relaxed|default|aggressive" }
        #expect(long.map { lines[$0 + 1].hasPrefix(String(repeating: " ", count: columns[0] ?? 0) + "how long") } == true)
    }

    @Test func longTextWrapsAtTheWidth() {
        let text = Array(repeating: "word", count: 60).joined(separator: " ")
        let table = HelpRow.table([HelpRow(label: "--x", text: text)], width: 60)
        let lines = table.split(separator: "\n")
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= 60 })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("       word") })
        #expect(lines.joined().split(separator: " ").count == 61)
    }

    @Test func aDefaultIsNeverSplitAcrossLines() {
        struct Wide: ParsableOptions {
            static let command = "tool wide"
            var path = "/a/rather/long/default/path/that/fills/the/line.bin"
            static let declarations: [Declaration<Self>] = [
                .value("--model PATH", \.path, Array(repeating: "words", count: 12).joined(separator: " ")),
            ]
        }
        #expect(Wide.help.contains("(default: /a/rather/long/default/path/that/fills/the/line.bin)"))
        #expect(!Wide.help.contains("\u{A0}"))
    }

    @Test func aCommandWithoutArgumentsHasAShortUsageAndTakesNone() throws {
        #expect(Empty.synopsis == "tool empty")
        #expect(Empty.help.hasPrefix("Usage: tool empty\n\nOptions:\n  -h, --help"))
        #expect(throws: UsageError.self) { try Empty.parse(["x"]) }
        _ = try Empty.parse([])
    }

    @Test func existingFileRejectsMissingFilesAndFolders() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("options-\(UUID()).json").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let parser = ValueParser<String>.existingFile
        #expect(parser.parse(file) == file)
        #expect(parser.parse(file + ".missing") == nil)
        #expect(parser.parse(FileManager.default.temporaryDirectory.path) == nil)
        #expect(parser.requirement == "needs an existing file")
    }

    @Test func usageErrorsPrintAsTheirReasonNotAsASwiftValue() {
        let error = UsageError("--lang needs a value", usage: "Usage: x")
        #expect("\(error)" == "--lang needs a value")
        #expect(String(describing: error as Error) == "--lang needs a value")
    }
}

@Suite("Options: subcommands")
struct SubcommandTests {
    struct Show: ParsableOptions {
        static let command = "tool show"
        var id = ""
        static let declarations: [Declaration<Self>] = [.positional("ID", \.id, "a note")]
    }

    static let commands = Subcommands("tool", about: "tool — does things.", footer: "See tool COMMAND --help.", [
        Subcommand(Show.self, "print a note") { $0.id == "ok" ? 0 : 1 },
        Subcommand("raw", arguments: "[anything]", "reads its own arguments") { Int32($0.count) },
    ])

    @Test func theFirstArgumentPicksTheCommandWithTypedOptions() async throws {
        #expect(try await Self.commands.run(["show", "ok"]) == 0)
        #expect(try await Self.commands.run(["show", "no"]) == 1)
        #expect(try await Self.commands.run(["raw", "a", "b", "c"]) == 3)
    }

    @Test func theListIsTheHelp() async throws {
        let help = Self.commands.help
        #expect(help.hasPrefix("Usage: tool COMMAND [options]\n\ntool — does things.\n\nCommands:\n"))
        #expect(help.contains("  show ID "))
        #expect(help.contains("print a note"))
        #expect(help.contains("  raw [anything]"))
        #expect(help.hasSuffix("\n\nSee tool COMMAND --help."))
        for word in ["--help", "-h", "help"] {
            await #expect(throws: HelpRequest.self) { try await Self.commands.run([word]) }
        }
        await #expect(throws: HelpRequest.self) { try await Self.commands.run(["show", "--help"]) }
    }

    @Test func noUnknownOrBadCommandIsAUsageError() async {
        func reason(_ arguments: [String]) async -> String? {
            do { _ = try await Self.commands.run(arguments); return nil }
            catch let error as UsageError { return error.reason }
            catch { return "\(error)" }
        }
        #expect(await reason([]) == "tool needs one of: show, raw")
        #expect(await reason(["frobnicate"]) == "unknown command \"frobnicate\"")
        #expect(await reason(["--frobnicate"]) == "unknown option --frobnicate")
        #expect(await reason(["show"]) == "missing ID")
    }
}
