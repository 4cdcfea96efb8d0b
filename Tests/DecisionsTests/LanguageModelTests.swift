import DialogueCore
import Foundation
import Testing
@testable import Decisions

@Suite("LanguageModel (real llama.cpp, default GGUF models)", .serialized)
struct LanguageModelTests {
    static let models = [DefaultModels.smolLM2, DefaultModels.gemma3]

    /// Scoring every option in one decode (a prefix tree of sequences sharing the prompt's
    /// cells) gives the same log-likelihoods as feeding each option token by token after the
    /// prompt, and leaves the prompt cached alone. Through llama.cpp's output layer: the
    /// fallback for models whose logits cannot be computed from hidden states.
    @Test(arguments: models)
    func optionsScoredTogetherMatchOneByOne(path: String) async throws {
        let model = try LanguageModel(path: path, contextSize: 1024)
        #expect(model.vocabularySize > 30_000)
        await model.useOutputLayerOnly()
        let prompt = await model.tokenize("The user said: my bakery needs a website. Next question:", addSpecial: true)
        let options = ["Who is it for?", "Who is it for, exactly?", "What problem does it solve?", "Why now?",
                       "What would you do first?", "What", "Is the note complete?"]
        var continuations: [[Int32]] = []
        for option in options { continuations.append(await model.tokenize(" " + option, addSpecial: false)) }
        let together = try await model.score(promptTokens: prompt, continuations: continuations)
        for (index, continuation) in continuations.enumerated() {
            var expected = 0.0
            for j in continuation.indices {
                let distribution = try await model.nextTokenLogProbabilities(after: prompt + continuation[..<j])
                expected += Double(distribution[Int(continuation[j])])
            }
            #expect(abs(together[index] - expected) < 0.05 * max(1, abs(expected)),
                    "\(options[index]): together \(together[index]), one by one \(expected)")
        }
        // The tree's cells are gone: scoring again (now after a longer cached prefix was
        // trimmed back) gives the same figures.
        let again = try await model.score(promptTokens: prompt, continuations: continuations)
        for (a, b) in zip(together, again) { #expect(abs(a - b) < 0.05 * max(1, abs(a))) }
    }

    /// Scored among the allowed tokens (from hidden states, no output layer), each option's
    /// score is, at every place, its token's log-probability renormalized over the tokens the
    /// options sharing that prefix continue with (first place: all the options' first tokens) —
    /// computed here one by one through llama.cpp's own output layer, which rounds the hidden
    /// state to 8 bits (up to ~0.2 per place).
    @Test(arguments: models)
    func optionsScoredAmongAllowedTokensMatchRenormalizedOneByOne(path: String) async throws {
        let model = try LanguageModel(path: path, contextSize: 1024)
        #expect(await model.canScoreFromHiddenStates())
        let prompt = await model.tokenize("The user said: my bakery needs a website. Next question:", addSpecial: true)
        let options = ["Who is it for?", "What problem does it solve?", "What might get in the way?",
                       "What is the next step?", "What is the most important point?", "Why now?"]
        var labels: [[Int32]] = []
        for option in options { labels.append(await model.tokenize(" " + option, addSpecial: false)) }
        let cut = LanguageModel.distinctPrefixes(labels, among: labels)
        #expect(cut.contains { $0.count >= 3 }, "the test needs options that share a prefix")
        let scored = try await model.score(promptTokens: prompt, continuations: cut)
        for (index, continuation) in cut.enumerated() {
            var expected = 0.0
            for j in continuation.indices {
                let distribution = try await model.nextTokenLogProbabilities(after: prompt + continuation[..<j])
                let allowed = Set(cut.filter { $0.count > j && Array($0[..<j]) == Array(continuation[..<j]) }.map { $0[j] })
                let norm = log(allowed.map { exp(Double(distribution[Int($0)])) }.reduce(0, +))
                expected += Double(distribution[Int(continuation[j])]) - norm
            }
            #expect(abs(scored[index] - expected) < 0.25 + 0.03 * abs(expected),
                    "\(options[index]): among allowed \(scored[index]), one by one \(expected)")
        }
    }

    /// The layout's per-place candidate preferences are the same whether the logits come from
    /// hidden states or from llama.cpp's output layer (which rounds the hidden state to 8 bits:
    /// up to ~0.4 apart); the check of the hidden path (in its
    /// own sequence) leaves the cached prompt as it was.
    @Test(arguments: models)
    func candidatePreferencesFromHiddenStatesMatchTheOutputLayer(path: String) async throws {
        let fast = try LanguageModel(path: path, contextSize: 1024)
        let slow = try LanguageModel(path: path, contextSize: 1024)
        await slow.useOutputLayerOnly()
        let prompt = await fast.tokenize("Sentences: 1 I sell bread. 2 The oven is old. 3 Next year I want a café.\nParagraphs:", addSpecial: true)
        let forced = await fast.tokenize(#" {"firstSourceIsTitle":false,"groups":[[1,2,3]]}"#, addSpecial: false)
        var candidates: [Int32] = []
        for piece in [",", "],[", "true", "false"] { candidates.append(contentsOf: (await fast.tokenize(piece, addSpecial: false)).prefix(1)) }
        let places = [-1] + Array(forced.indices)
        let ours = try await fast.candidateLogProbabilities(promptTokens: prompt, forced: forced, at: places, candidates: candidates)
        let theirs = try await slow.candidateLogProbabilities(promptTokens: prompt, forced: forced, at: places, candidates: candidates)
        #expect(await fast.canScoreFromHiddenStates())
        #expect(!(await slow.canScoreFromHiddenStates()))
        for (place, (a, b)) in zip(places, zip(ours, theirs)) {
            for k in 1..<candidates.count {
                #expect(abs((a[k] - a[0]) - (b[k] - b[0])) < 0.5, "place \(place), candidate \(k): \(a) vs \(b)")
            }
        }
    }

    @Test func labelsAreCutWhereTheyBecomeDistinct() {
        // "What problem" / "What might" / "What is the next" / "What is the most" / "Why"
        let all: [[Int32]] = [[1, 2, 9], [1, 3, 9], [1, 4, 5, 9], [1, 4, 6, 9], [7, 9], [8]]
        #expect(LanguageModel.distinctPrefixes(all, among: all) == [[1, 2], [1, 3], [1, 4, 5], [1, 4, 6], [7], [8]])
        // The cut is decided among all labels, not among the few offered this turn.
        #expect(LanguageModel.distinctPrefixes([[1, 2, 9]], among: all) == [[1, 2]])
    }

    /// The scoring stops at its checkpoint: with `.cancelled` in a cancelled task, with
    /// `.overBudget` once the deadline has passed (a zero budget has passed at its first check).
    @Test func scoringStopsWhenCancelledOrOverBudget() async throws {
        let model = try DecisionFixtures.model()
        let labels = [" Who is it for?", " Why now?"]
        await #expect(throws: LanguageModelError.cancelled) {
            try await inCancelledTask { try await model.score(prompt: "Next question:", continuations: labels, cutAmong: labels) }
        }
        await #expect(throws: LanguageModelError.overBudget(.zero)) {
            try await model.score(prompt: "Next question:", continuations: labels, cutAmong: labels, deadline: Deadline(.zero))
        }
        let scores = try await model.score(prompt: "Next question:", continuations: labels, cutAmong: labels,
                                           deadline: Deadline(.seconds(3_600)))
        #expect(scores.count == 2 && scores.allSatisfy(\.isFinite))
    }

    @Test func missingModelIsExplained() {
        #expect(throws: LanguageModelError.modelMissing(path: "/nonexistent.gguf")) {
            _ = try LanguageModel(path: "/nonexistent.gguf")
        }
    }
}
