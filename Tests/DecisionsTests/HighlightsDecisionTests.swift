import DialogueCore
import Foundation
import Testing
@testable import Decisions
import Evaluation

/// The next-steps decision with the real default model on two labelled notes (kept short: one
/// batch each), and its fallbacks. Nothing here asserts on time.
@Suite("Highlights (real default model)", .serialized)
struct HighlightsDecisionTests {
    static func scenarios(_ ids: [String]) throws -> [ActionScenario] {
        let set = try ActionScenarioSet.load(from: DecisionFixtures.fixture("action-scenarios.json"))
        let found = set.cases.filter { ids.contains($0.id) }
        try #require(found.count == ids.count)
        return found
    }

    @Test func theModelDecidesAValidSubsetAndAKey() async throws {
        let service = DecisionService(model: try DecisionFixtures.model(), settings: DecisionFixtures.settings())
        for scenario in try Self.scenarios(["en-actions-02", "ja-actions-01"]) {
            let sources = scenario.sources
            let outcome = try await service.highlights(sources, language: scenario.language)
            #expect(outcome.source == .model, "\(scenario.id): \(outcome.failures)")
            #expect(outcome.attempts == 1 && outcome.failures.isEmpty, "\(scenario.id): \(outcome.failures)")
            #expect(outcome.highlights.isValid(sourceCount: sources.count), "\(scenario.id): \(outcome.highlights.json)")
            #expect(outcome.odds.count == sources.count && outcome.odds.allSatisfy(\.isFinite))
            // With the product's settings the cue sentences stand unless the model says "past".
            #expect(outcome.highlights.nextSteps == scenario.actions, "\(scenario.id): \(outcome.odds)")
        }
    }

    @Test func withoutAModelOrOverBudgetItIsTheEmptyFallback() async throws {
        let sources = SentenceSplitter.sources(from: ["One. I'll do two tomorrow."], language: "en")
        let none = try await DecisionService(model: nil).highlights(sources, language: "en")
        #expect(none.highlights == .fallback && none.source == .fallback && none.attempts == 0)
        let blown = try await DecisionService(model: try DecisionFixtures.model(), settings: DecisionSettings(highlightsBudget: .zero))
            .highlights(sources, language: "en")
        #expect(blown.highlights == .fallback && blown.source == .fallback)
        #expect(blown.attempts == 1, "a blown budget is not retried")
        #expect(blown.failures == ["over the budget of \(Duration.zero)"])
    }

    @Test func selectionAddsTheCueWeightToTheOdds() {
        #expect(NextStepRule.select(odds: [4, 0, -1, 3], cues: [0, 1, 1, 0], threshold: 3.75, cueWeight: 4) == [1, 2])
        #expect(NextStepRule.select(odds: [], cues: [], threshold: 0, cueWeight: 0) == [])
    }
}
