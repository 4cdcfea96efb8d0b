import DialogueCore
import Foundation

/// The note's highlights as decided, with where they came from.
public struct HighlightsOutcome: Sendable, Hashable {
    public let highlights: Highlights
    public let source: HighlightsSource
    public let attempts: Int
    public let failures: [String]
    public let milliseconds: Int
    /// Each sentence's log-odds of being a next step, from the model's last usable answer
    /// (empty when it gave none); `eval actions` weighs them against the cue rules.
    public let odds: [Double]
}

extension DecisionService {
    /// After grouping: which sentences are next steps and which is the key, in one model call.
    /// Its highlights fit the note by construction (next steps among the sentences' IDs,
    /// ascending; the key one of them), so there is nothing to validate or retry: a failed call
    /// goes to the fallback (no next steps, the first sentence as key).
    public func highlights(_ sources: [Source], language: Language) async throws -> HighlightsOutcome {
        let start = ContinuousClock.now
        func outcome(_ highlights: Highlights, _ source: HighlightsSource, attempts: Int, failures: [String] = [],
                     odds: [Double] = []) -> HighlightsOutcome {
            HighlightsOutcome(highlights: highlights, source: source, attempts: attempts, failures: failures,
                              milliseconds: Self.milliseconds(ContinuousClock.now - start), odds: odds)
        }
        guard let model, !sources.isEmpty else { return outcome(.fallback, .fallback, attempts: 0) }
        try Task.checkCancellation()
        do {
            let (highlights, odds) = try await chooseHighlights(sources, model: model, language: language)
            return outcome(highlights, .model, attempts: 1, odds: odds)
        } catch {
            let failure = try Self.failure(error)
            try Task.checkCancellation()
            return outcome(.fallback, .fallback, attempts: 1, failures: [failure])
        }
    }

    /// One model call: every sentence's next-step log-odds in one batch (see `answerOdds`),
    /// weighed with the cue rules, and the key as the best-scored ID after the key cue (not
    /// calibrated against a content-free note, unlike the next question's labels).
    func chooseHighlights(_ sources: [Source], model: LanguageModel,
                          language: Language) async throws -> (Highlights, odds: [Double]) {
        let deadline = Deadline(settings.highlightsBudget)
        let text = NextStepsPrompt.make(sources: sources).render(for: model, format: format)
        let odds = try await model.answerOdds(prompt: text, questions: sources.map(NextStepsPrompt.question),
                                              yes: NextStepsPrompt.yes, no: NextStepsPrompt.no, deadline: deadline)
        let cues = sources.map { ActionCues.score($0.text, language: language) }
        let steps = NextStepRule.select(odds: odds, cues: cues, threshold: settings.nextStepThreshold,
                                        cueWeight: settings.nextStepCueWeight)
        let candidates = Array(sources.prefix(NextStepsPrompt.keyCandidates))
        let labels = candidates.map { NextStepsPrompt.keyLabel($0.id) }
        let scores = try await model.score(prompt: text + NextStepsPrompt.keyCue, continuations: labels,
                                           cutAmong: labels, deadline: deadline)
        let key = zip(candidates, scores).filter { $0.1.isFinite }.max { $0.1 < $1.1 }?.0.id ?? 1
        if Self.traceScores {
            FileHandle.standardError.write(Data("highlights {\"odds\":\(odds),\"cues\":\(cues),\"key\":\(scores)}\n".utf8))
        }
        return (Highlights(nextSteps: steps, key: key), odds)
    }
}
