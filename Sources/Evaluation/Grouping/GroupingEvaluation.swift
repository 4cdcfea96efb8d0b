import Decisions
import DialogueCore
import Foundation

/// One scenario of `grouping-scenarios.json` run through the real layout path.
public struct GroupingCaseResult: Sendable, Hashable {
    public let id: String
    public let language: Language
    public let layout: Layout
    public let expected: Layout?
    public let baseline: Layout
    public let source: LayoutSource
    public let sourceCount: Int
    public let milliseconds: Int
    public let failures: [String]
    public var valid: Bool { layout.isValid(sourceCount: sourceCount) }
}

public enum GroupingEvaluation {
    public static func run(_ scenarios: [GroupingScenario], service: DecisionService,
                           progress: (GroupingCaseResult) -> Void = { _ in }) async throws -> [GroupingCaseResult] {
        var results: [GroupingCaseResult] = []
        for scenario in scenarios {
            let sources = scenario.sources
            let outcome = try await service.layout(sources)
            let result = GroupingCaseResult(
                id: scenario.id, language: scenario.language, layout: outcome.layout,
                expected: scenario.expectedLayout, baseline: scenario.answerLayout, source: outcome.source,
                sourceCount: sources.count, milliseconds: outcome.milliseconds, failures: outcome.failures)
            progress(result)
            results.append(result)
        }
        return results
    }

    /// Boundary scores of the decided layouts and of the one-paragraph-per-answer baseline,
    /// over the cases with a usable expectation.
    public static func scores(_ results: [GroupingCaseResult]) -> (model: BoundaryScore, baseline: BoundaryScore, titleHits: Int, scored: Int) {
        var model = BoundaryScore(), baseline = BoundaryScore()
        var titleHits = 0, scored = 0
        for result in results {
            guard let expected = result.expected else { continue }
            scored += 1
            model.add(predicted: result.layout, expected: expected)
            baseline.add(predicted: result.baseline, expected: expected)
            if result.layout.firstSourceIsTitle == expected.firstSourceIsTitle { titleHits += 1 }
        }
        return (model, baseline, titleHits, scored)
    }
}
