import Decisions
import DialogueCore
import Testing
@testable import Evaluation

/// How `eval actions` scores the next steps picked.
@Suite struct ActionSummaryTests {
    @Test func scoresAreMicroAveragedAndTheDevBestIsFound() throws {
        var score = SelectionScore()
        score.add(picked: [1, 2], expected: [2, 3])
        score.add(picked: [], expected: [])
        #expect(score.truePositives == 1 && score.falsePositives == 1 && score.falseNegatives == 1)
        #expect(score.precision == 0.5 && score.recall == 0.5)
        #expect(SelectionScore().precision == 1 && SelectionScore().recall == 1)

        let scenario = ActionScenario(id: "x", language: "en", split: "dev", sentences: ["A.", "B.", "C."], actions: [2], key: 1)
        let result = ActionCaseResult(scenario: scenario, odds: [1, 5, 2], cues: [0, 0, 1],
                                      highlights: Highlights(nextSteps: [2], key: 1), source: .model, milliseconds: 1)
        let best = ActionSummary([result], settings: DecisionSettings(), model: nil).bestOnDev()
        #expect(best.score.precision == 1 && best.score.recall == 1)
        #expect(best.cueWeight == 0, "the smallest weight that does best")
    }
}
