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
    /// After grouping: which sentences are next steps and which is the key, asked like the
    /// layout — ask, validate, on a failure ask once more with a reminder of what was wrong,
    /// else the fallback (no next steps, the first sentence as key). A blown budget goes to the
    /// fallback at once.
    public func highlights(_ sources: [Source], language: String) async throws -> HighlightsOutcome {
        let start = ContinuousClock.now
        func elapsed() -> Int { Self.milliseconds(ContinuousClock.now - start) }
        let count = sources.count
        guard let model, count > 0 else {
            return HighlightsOutcome(highlights: .fallback, source: .fallback, attempts: 0, failures: [],
                                     milliseconds: elapsed(), odds: [])
        }
        var failures: [String] = []
        var reminder: String? = nil
        var attempts = 0
        for _ in 1...2 {
            try Task.checkCancellation()
            attempts += 1
            do {
                let (output, odds) = try await writeHighlights(NextStepsPrompt.make(sources: sources, reminder: reminder),
                                                               model: model, sources: sources, language: language)
                guard let highlights = Highlights.parse(output) else {
                    failures.append("not highlights: \(output.prefix(80))")
                    reminder = HighlightsReminder.text(problems: [], sourceCount: count)
                    continue
                }
                let problems = highlights.problems(sourceCount: count)
                if problems.isEmpty {
                    return HighlightsOutcome(highlights: highlights, source: .model, attempts: attempts,
                                             failures: failures, milliseconds: elapsed(), odds: odds)
                }
                failures.append(problems.map(\.description).joined(separator: "; "))
                reminder = HighlightsReminder.text(problems: problems, sourceCount: count)
            } catch LanguageModelError.cancelled {
                throw CancellationError()
            } catch LanguageModelError.overBudget(let budget) {
                failures.append("over the budget of \(budget)")
                break
            } catch {
                failures.append("\(error)")
                reminder = HighlightsReminder.text(problems: [], sourceCount: count)
            }
        }
        try Task.checkCancellation()
        return HighlightsOutcome(highlights: .fallback, source: .fallback, attempts: attempts, failures: failures,
                                 milliseconds: elapsed(), odds: [])
    }

    /// One model call: every sentence's next-step log-odds in one batch (see `answerOdds`),
    /// weighed with the cue rules, and the key as the best-scored ID after the key cue. The
    /// answer is written as `Highlights` JSON, so it is read and checked like any other.
    func writeHighlights(_ prompt: DecisionPrompt, model: LanguageModel, sources: [Source],
                         language: String) async throws -> (String, [Double]) {
        let deadline = Deadline(settings.highlightsBudget)
        let text = prompt.render(for: model, format: format)
        let odds = try await model.answerOdds(prompt: text, questions: sources.map(NextStepsPrompt.question),
                                              yes: NextStepsPrompt.yes, no: NextStepsPrompt.no, deadline: deadline)
        let cues = sources.map { ActionCues.score($0.text, language: language) }
        let steps = NextStepRule.select(odds: odds, cues: cues, threshold: settings.nextStepThreshold,
                                        cueWeight: settings.nextStepCueWeight)
        let candidates = Array(sources.prefix(NextStepsPrompt.keyCandidates))
        let labels = candidates.map { NextStepsPrompt.keyLabel($0.id) }
        // Not calibrated against a content-free note: on the dev split that picked the labelled
        // key 18 times of 35, the raw scores 22 (mostly sentence 1, where ideas are stated).
        let scores = try await model.score(prompt: text + NextStepsPrompt.keyCue, continuations: labels,
                                           cutAmong: labels, deadline: deadline)
        let key = zip(candidates, scores).filter { $0.1.isFinite }.max { $0.1 < $1.1 }?.0.id ?? 1
        if Self.traceScores {
            FileHandle.standardError.write(Data("highlights {\"odds\":\(odds),\"cues\":\(cues),\"key\":\(scores)}\n".utf8))
        }
        return (Highlights(nextSteps: steps, key: key).json, odds)
    }
}
