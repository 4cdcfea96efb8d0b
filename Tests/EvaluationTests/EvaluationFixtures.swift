import Decisions
import DialogueCore
import Foundation
import Testing

/// Shared fixtures: rules per language from the real locale files, the labelled sets in
/// `Tests/Fixtures`, and the default model loaded once for the process.
enum EvaluationFixtures {
    static let rules: [Language: Rules] = {
        let loader = LanguagePackLoader()
        var rules: [Language: Rules] = [:]
        for language in LanguagePackLoader.supportedLanguages { rules[language] = (try? loader.load(language)).map { Rules(pack: $0) } }
        return rules
    }()

    static func rules(_ language: Language) throws -> Rules {
        try #require(rules[language], "Locales/\(language).json did not load")
    }

    /// `<repository>/Tests/Fixtures/<name>`, found from this file's path.
    static func fixture(_ name: String) throws -> URL {
        let tests = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
        let url = tests.appendingPathComponent("Fixtures").appendingPathComponent(name)
        try #require(FileManager.default.fileExists(atPath: url.path), "\(url.path) is missing")
        return url
    }

    static let defaultModel: LanguageModel? = try? LanguageModel(path: DefaultModels.gemma3, contextSize: 4096)

    static func probe() throws -> EndingProbe {
        try #require(InstalledEndingProbe.standard.probe, "\(InstalledEndingProbe.standard.problem ?? "")")
    }

    static func model() throws -> LanguageModel {
        try #require(defaultModel, "the default language model did not load: run `make deps`")
    }

    /// The product's settings with budgets no test machine can blow.
    static func settings() -> DecisionSettings {
        DecisionSettings(questionBudget: .seconds(3_600), layoutBudget: .seconds(3_600), highlightsBudget: .seconds(3_600))
    }
}
