import Testing
@testable import DialogueCore

@Suite struct DemoScriptTests {
    static let fixed = ["An idea.", "First follow-up.", "Second follow-up.", "That's all."].map { SpokenText(text: $0) }

    @Test func eachFollowUpGetsTheAnswerWrittenForItsQuestion() {
        let script = DemoScript(answers: Self.fixed, byQuestion: [.validation: SpokenText(text: "Ten neighbours first."),
                                                                   .problem: SpokenText(text: "Drills sit unused.")])
        #expect(script.answer(to: .opening, turn: 0)?.text == "An idea.")
        #expect(script.answer(to: .choice(.validation), turn: 1)?.text == "Ten neighbours first.")
        #expect(script.answer(to: .choice(.problem), turn: 2)?.text == "Drills sit unused.")
        // Only at the end, whatever is asked: the ending.
        #expect(script.answer(to: .choice(.audience), turn: 3)?.text == "That's all.")
    }

    @Test func aQuestionWithoutItsOwnAnswerGetsTheNextFixedOne() {
        let script = DemoScript(answers: Self.fixed, byQuestion: [.validation: SpokenText(text: "Ten neighbours first.")])
        #expect(script.answer(to: .choice(.reason), turn: 1)?.text == "First follow-up.")
        #expect(script.answer(to: .choice(.obstacle), turn: 2)?.text == "Second follow-up.")
    }

    @Test func theEndingIsRepeatedTwiceThenNothing() {
        let script = DemoScript(answers: Self.fixed)
        let after = (3...6).map { script.answer(to: .choice(.moreDetails), turn: $0)?.text }
        #expect(after == ["That's all.", "That's all.", "That's all.", nil])
        #expect(script.followUps == 2)
    }

    @Test func aScenarioOfIdeaAndEndingEndsAtTheFirstFollowUp() {
        let script = DemoScript(answers: [SpokenText(text: "An idea."), SpokenText(text: "Stop.")])
        #expect(script.answer(to: .choice(.problem), turn: 1)?.text == "Stop.")
        #expect(DemoScript(answers: []).answer(to: .opening, turn: 0) == nil)
    }
}
