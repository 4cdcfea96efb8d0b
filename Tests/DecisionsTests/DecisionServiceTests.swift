@testable import Decisions
import DialogueCore
import Evaluation
import Foundation
import Testing

/// The decision path with the real default model on a few labelled scenarios, and the
/// defence-in-depth paths (no model, a blown budget, cancellation). Every decision that should
/// come from the model is checked to have come from it: the rules alone would also stay within
/// the rules. Nothing here asserts on time.
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
                #expect(outcome.decision.source == .rules, "\(id)")
            } else {
                #expect(outcome.decision.source == .model, "\(id): \(outcome.failures)")
                #expect(outcome.attempts == 1 && outcome.failures.isEmpty, "\(id): \(outcome.failures)")
            }
        }
    }

    /// An explicit ending wins over the model: with a model loaded, every must-end scenario the
    /// rules recognise ends by the rules' own choice and the model is not even asked (`.rules`,
    /// not `.fallback`, which would mean no model). The endings the rules miss are the model's
    /// to catch (issue 13), mostly by its ending probe (`EndingProbeModelTests`): 5 of their 16
    /// still go on, a known issue.
    @Test func everyEndingTheRulesRecogniseEndsWithoutAskingTheModel() async throws {
        let set = try ChoiceScenarioSet.load(from: DecisionFixtures.fixture("choice-scenarios.json"))
        let service = DecisionService(model: try DecisionFixtures.model(), settings: DecisionFixtures.settings())
        let endings = set.cases.filter(\.mustEnd)
        try #require(endings.count == 478)
        for scenario in endings {
            let rules = try DecisionFixtures.rules(scenario.language)
            let outcome = try await service.nextQuestion(scenario.conversation, rules: rules)
            guard rules.allowedChoices(scenario.conversation).finishOnly else {
                withKnownIssue("\(scenario.id): an ending the rules miss", isIntermittent: true) {
                    #expect(scenario.acceptable.contains(outcome.decision.choice), "\(scenario.id)")
                }
                continue
            }
            #expect(scenario.acceptable.contains(outcome.decision.choice), "\(scenario.id)")
            #expect(outcome.decision.finishes, "\(scenario.id)")
            #expect(outcome.decision.source == .rules && outcome.attempts == 0, "\(scenario.id)")
        }
    }

    @Test func realModelLayoutsAreValid() async throws {
        let set = try GroupingScenarioSet.load(from: DecisionFixtures.fixture("grouping-scenarios.json"))
        let service = DecisionService(model: try DecisionFixtures.model(), settings: DecisionFixtures.settings())
        let ids = ["en-group-01", "ja-group-01"]
        let scenarios = set.cases.filter { ids.contains($0.id) }
        try #require(scenarios.count == ids.count)
        for scenario in scenarios {
            let sources = scenario.sources
            let outcome = try await service.layout(sources)
            #expect(outcome.layout.isValid(sourceCount: sources.count), "\(scenario.id): \(outcome.layout.json)")
            #expect(outcome.source == .model, "\(scenario.id): \(outcome.failures)")
            #expect(outcome.attempts == 1 && outcome.failures.isEmpty, "\(scenario.id): \(outcome.failures)")
        }
    }

    /// While the person speaks, the prompt is read up to their answer as drafted so far
    /// (`prepare`), its hints included; the decision at the pause then reuses every token it
    /// shares with that, reads only the answer's rest and the cue, and scores the labels as a
    /// decision made from scratch does, up to rounding.
    @Test func aDecisionPreparedOnTheDraftReusesItAndScoresTheSame() async throws {
        let rules = try DecisionFixtures.rules("en")
        let draft = Conversation().appending(.opening, answer: "A kettle that stops itself at eighty degrees, because green tea")
        let final = Conversation().appending(.opening, answer: "A kettle that stops itself at eighty degrees, because green tea burns at a hundred.")
        let prepared = try LanguageModel(path: DecisionFixtures.defaultModelPath, contextSize: 4096)
        let service = DecisionService(model: prepared, settings: DecisionFixtures.settings())
        try await service.warmUp()
        await service.prepare(draft, rules: rules)
        let prompt = QuestionPrompt.make(conversation: final, hints: rules.angleHints(final))
        let finalTokens = await prepared.tokenize(prompt.render(for: prepared, format: service.format), addSpecial: true)
        let draftAnswerEnd = await prepared.tokenize(prompt.render(for: prepared, format: service.format)
            .components(separatedBy: "burns at")[0], addSpecial: true).count
        let reused = zip(await prepared.cached, finalTokens).prefix { $0 == $1 }.count
        // Everything up to the draft's last word was read ahead (a token at the seam may differ).
        #expect(reused >= draftAnswerEnd - 2, "reused \(reused) of \(finalTokens.count) tokens; the draft ends at \(draftAnswerEnd)")
        // The hints come before the conversation: what is left is " burns at a hundred." and
        // the prompt's close (with the hints after the answer, 49 tokens were left).
        #expect(finalTokens.count - reused <= 20, "\(finalTokens.count - reused) tokens left to read at the pause")
        let options = rules.allowedChoices(final).choices
        let afterPreparing = try await service.scoreLabels(options, prompt: prompt, model: prepared, deadline: .unlimited)
        let fresh = DecisionService(model: try LanguageModel(path: DecisionFixtures.defaultModelPath, contextSize: 4096),
                                    settings: DecisionFixtures.settings())
        let fromScratch = try await fresh.scoreLabels(options, prompt: prompt, model: try #require(fresh.model), deadline: .unlimited)
        // The same sums, evaluated in other batches: a 4-bit model's batched and one-token
        // kernels round differently (up to ~0.25 here, as a prompt after a cached prefix does).
        for (choice, (a, b)) in zip(options, zip(afterPreparing, fromScratch)) {
            #expect(abs(a - b) < 0.3 + 0.03 * abs(b), "\(choice): prepared \(a), from scratch \(b)")
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
        #expect(outcome.failures == ["over the budget of \(Duration.zero)"])
        let sources = SentenceSplitter.sources(from: ["One. Two. Three."], language: "en")
        let layout = try await service.layout(sources)
        #expect(layout.layout == .fallback(sourceCount: 3))
        #expect(layout.source == .fallback)
        #expect(layout.failures == ["over the budget of \(Duration.zero)"])
    }

    /// A cancelled task stops the decision with `CancellationError` (the exchange stops),
    /// not with the rules' choice (which would carry on). `warmUp` is cancelled inside the
    /// model call itself.
    @Test func cancellationStopsTheDecision() async throws {
        let service = DecisionService(model: try DecisionFixtures.model(), settings: DecisionFixtures.settings())
        let rules = try DecisionFixtures.rules("en")
        let conversation = Conversation(turns: [Turn(question: .opening, answer: "An app that waters plants.")])
        await #expect(throws: CancellationError.self) {
            try await inCancelledTask { try await service.nextQuestion(conversation, rules: rules) }
        }
        await #expect(throws: CancellationError.self) {
            try await inCancelledTask { try await service.layout(SentenceSplitter.sources(from: ["One. Two."], language: "en")) }
        }
        await #expect(throws: CancellationError.self) {
            try await inCancelledTask { try await service.warmUp() }
        }
    }
}

/// Runs `body` in a task that is cancelled before `body` starts (no timing involved).
func inCancelledTask<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return try await body()
    }.value
}
