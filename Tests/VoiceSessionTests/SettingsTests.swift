import Foundation
import Options
import Testing
@testable import VoiceSession

/// The config file's parsing and the precedence of the settings: command line > environment >
/// file > built-in. No engine, no file system except for `ConfigFile.load`.
@Suite("settings: the config file and precedence")
struct SettingsTests {
    static let path = "/home/me/.config/dialogue-memo/config"
    static let base = SessionConfiguration(language: "en")

    static func file(_ text: String) -> ConfigFile { ConfigFile(path: path, text: text, home: "/home/me") }

    static func resolve(_ commandLine: [String: String] = [:], environment: [String: String] = [:],
                        file text: String = "", pinned: Set<String> = []) -> ResolvedSettings {
        SessionSettings.resolve(commandLine: commandLine, environment: environment, file: file(text),
                                builtIn: base, pinned: pinned)
    }

    // MARK: The file format

    @Test func readsKeysValuesCommentsAndBlankLines() {
        let config = Self.file("""
        # my settings
          language = ja

        silence=relaxed\r
        notes-dir = /home/me/Vault # not a comment: paths may hold #
        editor = code --wait
        events = a=b.jsonl
        """)
        #expect(config.notices.isEmpty, "\(config.notices)")
        #expect(config.values["language"] == .init(value: "ja", number: 2))
        #expect(config.values["silence"] == .init(value: "relaxed", number: 4))
        #expect(config.values["notes-dir"]?.value == "/home/me/Vault # not a comment: paths may hold #")
        #expect(config.values["editor"]?.value == "code --wait")
        #expect(config.values["events"]?.value == "a=b.jsonl", "only the first = separates")
    }

    @Test func valuesAreCheckedAndWrittenByTheOptionsParsers() {
        let config = Self.file("language = ja_JP.UTF-8\nno-model = yes\noverlap = OFF\nLanguage = fr")
        #expect(config.values["language"]?.value == "fr", "keys ignore case; the later line wins")
        #expect(config.values["no-model"]?.value == "true")
        #expect(config.values["overlap"]?.value == "false")
        for locale in ["en-US", "EN", "ja_JP.UTF-8", "de_DE@euro"] {
            #expect(SessionSettings.setting("language")?.check(locale) != nil, "\(locale)")
        }
    }

    @Test func aTildeInAPathIsTheHomeFolderOnlyForPaths() {
        let config = Self.file("notes-dir = ~/Obsidian/Ideas\nwhisper-model = ~\ninput = ~/x")
        #expect(config.values["notes-dir"]?.value == "/home/me/Obsidian/Ideas")
        #expect(config.values["whisper-model"]?.value == "/home/me")
        #expect(config.values["input"]?.value == "~/x", "a device name is not a path")
    }

    /// Each kind of bad line, and the notice that names the file, the line and the fix.
    static let badLines: [(String, String)] = [
        ("just words", #"\#(path):1: "just words" is not a setting. Write key = value, with one of the keys language, silence, input, output, whisper-model, llm-model, no-model, overlap, fixed-silence, notes-dir, editor, events; or start the line with # to make it a comment."#),
        ("langauge = ja", #"\#(path):1: unknown key "langauge". Did you mean language?"#),
        ("colour = red", #"\#(path):1: unknown key "colour". The keys are language, silence, input, output, whisper-model, llm-model, no-model, overlap, fixed-silence, notes-dir, editor, events."#),
        ("silence =", "\(path):1: silence has no value. Write silence = relaxed|default|aggressive, or delete the line."),
        ("notes-dir = ", "\(path):1: notes-dir has no value. Write notes-dir = DIR, or delete the line."),
        ("silence = slow", #"\#(path):1: silence takes one of relaxed, default, aggressive (not "slow"). Fix the value, or delete the line for the default."#),
        ("language = xx", #"\#(path):1: language takes one of en, de, es, fr, ja (not "xx"). Fix the value, or delete the line for the default."#),
        ("overlap = maybe", #"\#(path):1: overlap takes true or false (not "maybe"). Fix the value, or delete the line for the default."#),
    ]

    @Test(arguments: badLines)
    func aBadLineIsANoticeAndTheOthersStillCount(line: String, notice: String) {
        let config = Self.file(line + "\nlanguage = de")
        #expect(config.notices == [notice])
        #expect(config.values["language"]?.value == "de")
    }

    @Test func aRepeatedKeySaysWhichLineWins() {
        let config = Self.file("silence = relaxed\n\nsilence = aggressive")
        #expect(config.values["silence"] == .init(value: "aggressive", number: 3))
        #expect(config.notices == ["\(Self.path):3: silence is already set on line 1; this line wins. Delete one of them."])
    }

    @Test func loadingAMissingFileIsNoFileAndAnUnreadableOneANotice() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = ConfigFile.load(path: folder.appendingPathComponent("none").path)
        #expect(missing.values.isEmpty && missing.notices.isEmpty)

        let notText = folder.appendingPathComponent("binary").path
        _ = FileManager.default.createFile(atPath: notText, contents: Data([0xFF, 0xFE, 0x00, 0xC3]))
        #expect(ConfigFile.load(path: notText).notices == ["\(notText): is not UTF-8 text, so its settings are ignored. Save it as UTF-8."])

        // A folder where the file should be cannot be read as one.
        let folderPath = folder.path
        #expect(ConfigFile.load(path: folderPath).notices
                == ["\(folderPath): cannot be read, so its settings are ignored. Fix its permissions, or remove it."])

        let good = folder.appendingPathComponent("config").path
        _ = FileManager.default.createFile(atPath: good, contents: Data("silence = relaxed\n".utf8))
        #expect(ConfigFile.load(path: good).values["silence"]?.value == "relaxed")
    }

    @Test func theFileLivesInXDGConfigHomeElseDotConfig() {
        #expect(SessionSettings.configPath(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/dialogue-memo/config")
        #expect(SessionSettings.configPath(environment: ["XDG_CONFIG_HOME": "", "HOME": "/h"]) == "/h/.config/dialogue-memo/config")
        #expect(SessionSettings.configPath(environment: ["HOME": "/h"]) == "/h/.config/dialogue-memo/config")
    }

    // MARK: Precedence

    @Test func nothingSetIsTheBuiltInDefaultOfTheCommand() {
        var record = Self.base
        record.silence = .relaxed
        let settings = SessionSettings.resolve(environment: [:], file: .none(path: Self.path), builtIn: record)
        #expect(settings["silence"] == .init(key: "silence", value: "relaxed", source: .builtIn))
        #expect(settings["language"]?.value == "en")
        #expect(settings["input"]?.value == nil)
        #expect(settings.notices.isEmpty)
        #expect(settings.entries.map(\.key) == SessionSettings.all.map(\.key))
    }

    @Test func theFileBeatsTheBuiltInDefault() {
        let settings = Self.resolve(file: "\nsilence = aggressive")
        #expect(settings["silence"] == .init(key: "silence", value: "aggressive", source: .file(path: Self.path, line: 2)))
    }

    @Test func theEnvironmentBeatsTheFile() {
        let settings = Self.resolve(environment: ["DIALOGUE_MEMO_SILENCE": "relaxed", "DIALOGUE_MEMO_NOTES_DIR": "/env"],
                                    file: "silence = aggressive\nnotes-dir = /file")
        #expect(settings["silence"]?.source == .environment(variable: "DIALOGUE_MEMO_SILENCE"))
        #expect(settings["silence"]?.value == "relaxed")
        #expect(settings["notes-dir"]?.value == "/env")
    }

    @Test func theCommandLineBeatsEverything() {
        let settings = Self.resolve(["silence": "default", "language": "fr"],
                                    environment: ["DIALOGUE_MEMO_SILENCE": "relaxed", "LANG": "ja_JP.UTF-8"],
                                    file: "silence = aggressive\nlanguage = de")
        #expect(settings["silence"] == .init(key: "silence", value: "default", source: .commandLine))
        #expect(settings["language"] == .init(key: "language", value: "fr", source: .commandLine))
    }

    @Test func everyKeyHasItsOwnVariable() {
        let names = SessionSettings.all.map { $0.variables[0] }
        #expect(names == ["DIALOGUE_MEMO_LANGUAGE", "DIALOGUE_MEMO_SILENCE", "DIALOGUE_MEMO_INPUT", "DIALOGUE_MEMO_OUTPUT",
                          "DIALOGUE_MEMO_WHISPER_MODEL", "DIALOGUE_MEMO_LLM_MODEL", "DIALOGUE_MEMO_NO_MODEL",
                          "DIALOGUE_MEMO_OVERLAP", "DIALOGUE_MEMO_FIXED_SILENCE", "DIALOGUE_MEMO_NOTES_DIR", "DIALOGUE_MEMO_EDITOR", "DIALOGUE_MEMO_EVENTS"])
    }

    @Test func theLocaleBeatsTheFileLanguageAsTheEnvironmentDoes() {
        let settings = Self.resolve(environment: ["LANG": "ja_JP.UTF-8"], file: "language = de")
        #expect(settings["language"] == .init(key: "language", value: "ja", source: .environment(variable: "LANG")))
        let first = Self.resolve(environment: ["LC_ALL": "fr_FR.UTF-8", "LC_MESSAGES": "es_ES", "LANG": "ja_JP.UTF-8"])
        #expect(first["language"]?.source == .environment(variable: "LC_ALL"))
        let own = Self.resolve(environment: ["DIALOGUE_MEMO_LANGUAGE": "EN", "LC_ALL": "fr_FR.UTF-8"])
        #expect(own["language"] == .init(key: "language", value: "en", source: .environment(variable: "DIALOGUE_MEMO_LANGUAGE")))
    }

    @Test func theCLocaleSaysNothingSoTheFileDecides() {
        for locale in ["C", "C.UTF-8", "POSIX", ""] {
            let settings = Self.resolve(environment: ["LANG": locale], file: "language = de")
            #expect(settings["language"]?.value == "de", "\(locale)")
            #expect(settings.unsupportedLocale == nil)
        }
    }

    @Test func aLocaleWithoutAPackFallsThroughAndIsReportedOnlyWhenNothingChoseALanguage() {
        let fallback = Self.resolve(environment: ["LANG": "it_IT.UTF-8"])
        #expect(fallback["language"] == .init(key: "language", value: "en", source: .builtIn))
        #expect(fallback.unsupportedLocale == "it_IT.UTF-8")
        let chosen = Self.resolve(environment: ["LANG": "it_IT.UTF-8"], file: "language = fr")
        #expect(chosen["language"]?.value == "fr")
        #expect(chosen.unsupportedLocale == nil)
        // Only the first locale variable set counts (POSIX): LANG does not rescue LC_ALL.
        let first = Self.resolve(environment: ["LC_ALL": "it_IT.UTF-8", "LANG": "ja_JP.UTF-8"])
        #expect(first["language"]?.value == "en")
    }

    @Test func visualAndEditorBeatTheFilesEditorAndOurVariableBeatsThem() {
        let visual = Self.resolve(environment: ["VISUAL": "vim", "EDITOR": "nano"], file: "editor = code --wait")
        #expect(visual["editor"] == .init(key: "editor", value: "vim", source: .environment(variable: "VISUAL")))
        let editor = Self.resolve(environment: ["VISUAL": " ", "EDITOR": "nano"], file: "editor = code --wait")
        #expect(editor["editor"]?.source == .environment(variable: "EDITOR"))
        let file = Self.resolve(file: "editor = code --wait")
        #expect(file["editor"]?.value == "code --wait")
        let own = Self.resolve(environment: ["DIALOGUE_MEMO_EDITOR": "hx", "VISUAL": "vim"])
        #expect(own["editor"]?.value == "hx")
        #expect(Self.resolve()["editor"] == .init(key: "editor", value: nil, source: .builtIn))
    }

    @Test func aBadEnvironmentValueIsANoticeAndTheFileStillCounts() {
        let settings = Self.resolve(environment: ["DIALOGUE_MEMO_SILENCE": "slow", "DIALOGUE_MEMO_OVERLAP": "nah"],
                                    file: "silence = aggressive")
        #expect(settings["silence"]?.source == .file(path: Self.path, line: 1))
        #expect(settings["overlap"] == .init(key: "overlap", value: "true", source: .builtIn))
        #expect(settings.notices == [
            #"silence takes one of relaxed, default, aggressive (not "slow") in DIALOGUE_MEMO_SILENCE; it is ignored. Fix or unset DIALOGUE_MEMO_SILENCE."#,
            #"overlap takes true or false (not "nah") in DIALOGUE_MEMO_OVERLAP; it is ignored. Fix or unset DIALOGUE_MEMO_OVERLAP."#,
        ])
    }

    @Test func theFilesNoticesComeFirstAndTheRestStillApplies() {
        let settings = Self.resolve(file: "silence = slow\nlanguage = ja")
        #expect(settings.notices.count == 1 && settings.notices[0].hasPrefix("\(Self.path):1: silence"))
        #expect(settings["language"]?.value == "ja")
        #expect(settings["silence"]?.source == .builtIn)
    }

    @Test func pinnedKeysTakeNothingFromTheEnvironmentOrTheFile() {
        let settings = Self.resolve(environment: ["DIALOGUE_MEMO_INPUT": "usb-mic"], file: "output = hdmi\nsilence = relaxed",
                                    pinned: ["input", "output"])
        #expect(settings["input"] == .init(key: "input", value: nil, source: .builtIn))
        #expect(settings["output"]?.value == nil)
        #expect(settings["silence"]?.value == "relaxed")
        let given = Self.resolve(["input": "usb-mic"], pinned: ["input"])
        #expect(given["input"]?.source == .commandLine, "an option still counts")
    }

    // MARK: Applying

    @Test func everySettingReachesTheConfiguration() {
        let settings = Self.resolve(file: """
        language = ja
        silence = aggressive
        input = mic
        output = speakers
        whisper-model = /m/whisper.bin
        llm-model = /m/model.gguf
        overlap = false
        fixed-silence = true
        notes-dir = ~/Vault
        editor = code --wait
        events = -
        """)
        #expect(settings.notices.isEmpty, "\(settings.notices)")
        let configuration = settings.applied(to: Self.base)
        #expect(configuration.language == "ja")
        #expect(configuration.silence == .aggressive)
        #expect(configuration.inputDevice == "mic")
        #expect(configuration.outputDevice == "speakers")
        #expect(configuration.whisperModel == "/m/whisper.bin")
        #expect(configuration.languageModel == "/m/model.gguf")
        #expect(configuration.overlap == false)
        #expect(configuration.fixedSilence == true)
        #expect(configuration.notesDirectory == "/home/me/Vault")
        #expect(configuration.editor == "code --wait")
        #expect(configuration.events == "-")
    }

    /// The options every session command takes, as the settings declare them.
    struct Given: ParsableOptions {
        static let command = "dialogue-memo talk"
        var given: [String: String] = [:]
        static let declarations: [Declaration<Self>] = SessionSettings.all.compactMap(\.declaration).within(\.given)
    }

    @Test func theOptionsStoreTheTextTheFileWouldHoldAndReachTheConfiguration() throws {
        let options = try Given.parse(["--lang", "ja_JP.UTF-8", "--silence=aggressive", "--input", "mic", "--output", "hdmi",
                                       "--whisper-model", "/w.bin", "--no-model", "--no-overlap", "--notes-dir", "/n", "--events", "-"])
        #expect(options.given == ["language": "ja", "silence": "aggressive", "input": "mic", "output": "hdmi",
                                  "whisper-model": "/w.bin", "no-model": "true", "overlap": "false", "notes-dir": "/n", "events": "-"])
        let configuration = Self.resolve(options.given).applied(to: Self.base)
        #expect(configuration.language == "ja" && configuration.silence == .aggressive)
        #expect(configuration.inputDevice == "mic" && configuration.outputDevice == "hdmi")
        #expect(configuration.whisperModel == "/w.bin" && configuration.languageModel == nil)
        #expect(!configuration.overlap && configuration.notesDirectory == "/n" && configuration.events == "-")
        #expect(try Given.parse(["--llm-model", "/m.gguf"]).given == ["llm-model": "/m.gguf"])
        #expect(SessionSettings.all.filter { $0.declaration == nil }.map(\.key) == ["fixed-silence", "editor"])
    }

    @Test func silencesHelpNamesEachPresetWithItsFixedSilence() {
        #expect(SessionSetting.silenceHelp.hasSuffix("relaxed, default, aggressive (by how finished your words sound; fixed-silence: 1.25/0.7/0.35 s)"))
    }

    @Test func noModelRemovesTheModelUnlessAStrongerSourceNamesOne() {
        #expect(Self.resolve(file: "no-model = true").applied(to: Self.base).languageModel == nil)
        #expect(Self.resolve(["no-model": "true"], file: "llm-model = /m.gguf").applied(to: Self.base).languageModel == nil)
        #expect(Self.resolve(["llm-model": "/cli.gguf"], file: "no-model = true").applied(to: Self.base).languageModel == "/cli.gguf")
        #expect(Self.resolve(file: "no-model = false").applied(to: Self.base).languageModel == Self.base.languageModel)
    }

    @Test func theConfiguredEditorComesBeforeTheEnvironmentsFallbacks() {
        #expect(Editor(environment: ["VISUAL": "vim"], configured: "code --wait").command == ["code", "--wait"])
        #expect(Editor(environment: ["VISUAL": "vim"], configured: nil).command == ["vim"])
        #expect(Editor(environment: ["VISUAL": "vim"], configured: "  ").command == ["vim"])
    }

    @Test func sourcesDescribeThemselvesAsConfigPrintsThem() {
        #expect(SettingSource.commandLine.description == "command line")
        #expect(SettingSource.environment(variable: "LANG").description == "environment LANG")
        #expect(SettingSource.file(path: "/c", line: 3).description == "/c:3")
        #expect(SettingSource.builtIn.description == "built-in")
    }
}
