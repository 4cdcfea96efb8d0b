import DialogueCore
import Foundation
import Testing
@testable import Decisions

/// Shared fixtures: the real locale files, rules per language, the labelled scenario sets in
/// `Tests/Fixtures`, and one loaded model per path (loading is the slow part; the actor keeps
/// calls one at a time).
enum DecisionFixtures {
    static let packs: [Language: LanguagePack] = {
        let loader = LanguagePackLoader()
        var packs: [Language: LanguagePack] = [:]
        for language in LanguagePackLoader.supportedLanguages { packs[language] = try? loader.load(language) }
        return packs
    }()

    static let rules: [Language: Rules] = packs.mapValues { Rules(pack: $0) }

    static func rules(_ language: Language) throws -> Rules {
        try #require(rules[language], "Locales/\(language).json did not load")
    }

    /// `<repository>/Tests/Fixtures/<name>`: the labelled sets the project keeps, found from this
    /// file's path so that a fresh clone needs nothing beside it.
    static func fixture(_ name: String) throws -> URL {
        let tests = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
        let url = tests.appendingPathComponent("Fixtures").appendingPathComponent(name)
        try #require(FileManager.default.fileExists(atPath: url.path), "\(url.path) is missing")
        return url
    }

    /// The model the evaluation picked as default (gemma-3-270m, see issue 4's closing note),
    /// loaded once for all tests of the process. Grammar tests only need its vocabulary.
    static let defaultModelPath = DefaultModels.gemma3
    static let defaultModel: LanguageModel? = try? LanguageModel(path: defaultModelPath, contextSize: 4096)

    /// The product's settings with budgets no test machine can blow: suites run in parallel
    /// and share two cores, and no test may depend on wall-clock time.
    static func settings(_ change: (inout DecisionSettings) -> Void = { _ in }) -> DecisionSettings {
        var settings = DecisionSettings(questionBudget: .seconds(3_600), layoutBudget: .seconds(3_600), highlightsBudget: .seconds(3_600))
        change(&settings)
        return settings
    }

    /// The probe the program uses (`Locales/ending-probe.json`).
    static func probe() throws -> EndingProbe {
        let installed = InstalledEndingProbe.standard
        return try #require(installed.probe, "\(installed.path): \(installed.problem ?? "")")
    }

    static func model() throws -> LanguageModel {
        try #require(defaultModel, "the default language model did not load: run `make deps`")
    }
}
