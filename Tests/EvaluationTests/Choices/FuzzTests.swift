import DialogueCore
import Foundation
import Testing
import Decisions
@testable import Evaluation

/// Random conversations (random answers in five languages, random questions asked, random
/// lengths) through the real decision path: every choice within the rules, every layout
/// valid, no crash. A short run here; `fuzzRun` is shared with the 1,000-conversation benchmark.
@Suite("Fuzz (real default model)", .serialized)
struct FuzzTests {
    @Test func randomConversationsAlwaysGiveAllowedChoicesAndValidLayouts() async throws {
        let service = DecisionService(model: try EvaluationFixtures.model(), settings: EvaluationFixtures.settings())
        let fragments = try DecisionFuzz.Fragments.load(from: EvaluationFixtures.fixture("fuzz-fragments.json"))
        let report = try await DecisionFuzz.run(count: 12, seed: 4, fragments: fragments, service: service, rules: EvaluationFixtures.rules)
        #expect(report.invalidChoices.isEmpty, "\(report.invalidChoices)")
        #expect(report.invalidLayouts.isEmpty, "\(report.invalidLayouts)")
        #expect(report.conversations == 12)
        // Every decision and layout came from the model: a model failing on every call would
        // pass the checks above, the rules and the fallback layout being valid by construction.
        #expect(report.fallbacks == 0 && report.modelDecisions > 0, "\(report.fallbacks) fallbacks, \(report.modelDecisions) model decisions")
        #expect(report.layoutFallbacks == 0 && !report.layoutMilliseconds.isEmpty)
    }
}

/// The fuzz's answer fragments, as data.
@Suite struct FuzzFragmentsTests {
    @Test func everyLanguageHasFragmentsAndAnUnknownOneGetsTheFallbacks() throws {
        let fragments = try DecisionFuzz.Fragments.load(from: EvaluationFixtures.fixture("fuzz-fragments.json"))
        for language in LanguagePackLoader.supportedLanguages {
            #expect(!fragments.pool(language).isEmpty, "no fragments for \(language)")
        }
        #expect(fragments.pool("zz") == fragments.pool(.english))
        var random = SplitMix64(seed: 1)
        let conversation = DecisionFuzz.conversation(language: "zz", fragments: fragments, random: &random)
        #expect(conversation.answers.allSatisfy { !$0.isEmpty })
    }

    @Test func aFileWithoutTheFallbackLanguageIsRefused() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fragments-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"fragments": {"xx": ["Hello."]}}"#.utf8).write(to: file)
        #expect(throws: SpeechSet.LoadError.self) { try DecisionFuzz.Fragments.load(from: file) }
    }
}
