import DialogueCore
import Foundation
import Testing
@testable import Decisions

/// The decision path with the real default model on a few labelled scenarios, and the
/// defence-in-depth paths (no model, cancellation). Nothing here asserts on time.
@Suite("DecisionService (real default model)", .serialized)
struct DecisionServiceTests {
    static let scenarioIDs = ["en-ordinary-01", "es-ordinary-02", "fr-ordinary-04", "de-ordinary-03", "ja-ordinary-01",
                              "en-refusal-03", "ja-explicitEnding-01"]

    @Test func realModelDecidesWithinTheRulesAndEveryMustEndEnds() async throws {
        let set = try ChoiceScenarioSet.load(from: DecisionFixtures.fixture("choice-scenarios.json"))
        let service = DecisionService(model: try DecisionFixtures.model(), settings: DecisionFixtures.settings())
        for id in Self.scenarioIDs {
            let scenario = try #require(set.cases.first { $0.id == id })
            let rules = try DecisionFixtures.rules(scenario.language)
            let outcome = try await service.nextQuestion(scenario.conversation, rules: rules)
            #expect(rules.allowedChoices(scenario.conversation).contains(outcome.decision.choice), "\(id)")
            if scenario.mustEnd {
                #expect(outcome.decision.finishes, "\(id) must end")
                #expect(outcome.attempts == 0, "\(id): an explicit ending needs no model call")
            } else {
                #expect(outcome.attempts >= 1, "\(id)")
            }
        }
    }

    @Test func everyMustEndScenarioEndsWithTheModel() async throws {
        let set = try ChoiceScenarioSet.load(from: DecisionFixtures.fixture("choice-scenarios.json"))
        let service = DecisionService(model: try DecisionFixtures.model(), settings: DecisionFixtures.settings())
        for scenario in set.cases where scenario.mustEnd {
            let rules = try DecisionFixtures.rules(scenario.language)
            let outcome = try await service.nextQuestion(scenario.conversation, rules: rules)
            // issue 13: where the rules miss an ending the model is never offered `stop`.
            if rules.allowedChoices(scenario.conversation).finishOnly {
                #expect(scenario.acceptable.contains(outcome.decision.choice), "\(scenario.id)")
            } else {
                withKnownIssue("\(scenario.id): ending missed by the rules") {
                    #expect(scenario.acceptable.contains(outcome.decision.choice), "\(scenario.id)")
                }
            }
        }
    }

    @Test(arguments: LayoutMethod.allCases)
    func realModelLayoutsAreValid(method: LayoutMethod) async throws {
        let set = try GroupingScenarioSet.load(from: DecisionFixtures.fixture("grouping-scenarios.json"))
        let service = DecisionService(model: try DecisionFixtures.model(), settings: DecisionFixtures.settings { $0.layoutMethod = method })
        for scenario in set.cases.filter({ ["en-group-01", "ja-group-01"].contains($0.id) }) {
            let sources = scenario.sources
            let outcome = try await service.layout(sources)
            #expect(outcome.layout.isValid(sourceCount: sources.count), "\(scenario.id): \(outcome.layout.json)")
            #expect(outcome.source == .model, "\(scenario.id): \(outcome.failures)")
        }
    }

    @Test func generationMethodAlsoStaysWithinTheRules() async throws {
        let set = try ChoiceScenarioSet.load(from: DecisionFixtures.fixture("choice-scenarios.json"))
        let service = DecisionService(model: try DecisionFixtures.model(),
                                      settings: DecisionFixtures.settings { $0.questionMethod = .generate })
        for scenario in set.cases.prefix(3) {
            let rules = try DecisionFixtures.rules(scenario.language)
            let outcome = try await service.nextQuestion(scenario.conversation, rules: rules)
            #expect(rules.allowedChoices(scenario.conversation).contains(outcome.decision.choice))
            #expect(outcome.failures.isEmpty, "\(scenario.id): \(outcome.failures)")
        }
    }

    @Test func withoutAModelTheRulesDecideAlone() async throws {
        let service = DecisionService(model: nil)
        let rules = try DecisionFixtures.rules("en")
        let conversation = Conversation(turns: [Turn(question: .opening, answer: "An app that waters plants.")])
        let outcome = try await service.nextQuestion(conversation, rules: rules)
        #expect(outcome.decision == Decision(choice: rules.fallbackChoice(conversation), source: .fallback))
        let sources = SentenceSplitter.sources(from: ["One. Two. Three."], language: "en")
        let layout = try await service.layout(sources)
        #expect(layout.layout == .fallback(sourceCount: 3))
        #expect(layout.source == .fallback)
    }

    @Test func aBlownBudgetFallsBackToTheRules() async throws {
        let service = DecisionService(model: try DecisionFixtures.model(),
                                      settings: DecisionSettings(questionBudget: .zero, layoutBudget: .zero))
        let rules = try DecisionFixtures.rules("en")
        let conversation = Conversation(turns: [Turn(question: .opening, answer: "An app that waters plants.")])
        let outcome = try await service.nextQuestion(conversation, rules: rules)
        #expect(outcome.decision.source == .fallback)
        #expect(outcome.decision.choice == rules.fallbackChoice(conversation))
        #expect(outcome.attempts == 1, "a blown budget is not retried")
        let sources = SentenceSplitter.sources(from: ["One. Two. Three."], language: "en")
        let layout = try await service.layout(sources)
        #expect(layout.layout == .fallback(sourceCount: 3))
    }

    @Test func cancellationStopsTheDecision() async throws {
        let service = DecisionService(model: try DecisionFixtures.model(), settings: DecisionFixtures.settings())
        let rules = try DecisionFixtures.rules("en")
        let conversation = Conversation(turns: [Turn(question: .opening, answer: "An app that waters plants.")])
        await #expect(throws: CancellationError.self) {
            _ = try await service.nextQuestion(conversation, rules: rules, cancel: { true })
        }
        await #expect(throws: CancellationError.self) {
            _ = try await service.layout(SentenceSplitter.sources(from: ["One. Two."], language: "en"), cancel: { true })
        }
    }
}
