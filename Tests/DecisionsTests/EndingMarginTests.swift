import DialogueCore
import Testing
@testable import Decisions

@Suite struct EndingMarginTests {
    let choices: [QuestionChoice] = [.problem, .audience, .ready, .stop]

    @Test func anEndingMustBeatTheBestQuestionByTheMargin() throws {
        #expect(try DecisionService.best(choices, scores: [-1, -2, -0.5, -3], endingMargin: 2) == .problem)
        #expect(try DecisionService.best(choices, scores: [-1, -2, 1.5, -3], endingMargin: 2) == .ready)
        #expect(try DecisionService.best(choices, scores: [-1, -2, -3, 1.01], endingMargin: 2) == .stop)
        #expect(try DecisionService.best(choices, scores: [-1, -2, -3, 1.0], endingMargin: 2) == .problem, "a tie is not enough")
        #expect(try DecisionService.best(choices, scores: [-1, 0, -3, -0.5], endingMargin: 0) == .audience)
    }

    @Test func onlyEndingsLeftMeansAnEnding() throws {
        #expect(try DecisionService.best([.ready, .stop], scores: [-4, -1], endingMargin: 2) == .stop)
        #expect(throws: DecisionError.self) { try DecisionService.best(choices, scores: [-.infinity, -.infinity, -.infinity, -.infinity], endingMargin: 2) }
    }
}
