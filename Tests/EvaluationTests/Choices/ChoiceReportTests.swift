import DialogueCore
import Testing
import Decisions
@testable import Evaluation

@Suite struct ChoiceReportTests {
    func result(_ id: String, _ language: Language, choice: QuestionChoice, acceptable: Bool, mustEnd: Bool,
                split: String?, category: String?) -> ChoiceCaseResult {
        ChoiceCaseResult(id: id, language: language, choice: choice, source: .rules, suggestion: nil, acceptable: acceptable,
                         mustEnd: mustEnd, milliseconds: 0, attempts: 0, failures: [], split: split, category: category)
    }

    @Test func theConfusionNamesEachKindOfMistake() {
        let report = ChoiceReport([
            result("a", "en", choice: .problem, acceptable: true, mustEnd: false, split: "dev", category: "ordinary"),
            result("b", "en", choice: .audience, acceptable: false, mustEnd: false, split: "dev", category: "ordinary"),
            result("c", "de", choice: .problem, acceptable: false, mustEnd: true, split: "test", category: "refusal"),
            result("d", "de", choice: .ready, acceptable: false, mustEnd: false, split: "test", category: "endingWordAsContent"),
            result("e", "ja", choice: .stop, acceptable: true, mustEnd: true, split: nil, category: nil),
        ])
        #expect(report.cases == 5)
        #expect(report.missedEndings == ["c"])
        #expect(report.falseEndings == ["d"])
        #expect(report.wrongAngles == ["b"])
        #expect(report.acceptable["overall"] == .init(hits: 2, total: 5))
        #expect(report.acceptable["de"] == .init(hits: 0, total: 2))
        #expect(report.bySplit == ["dev": .init(hits: 1, total: 2), "test": .init(hits: 0, total: 2)])
        #expect(report.byCategory["refusal"] == .init(hits: 0, total: 1))
        #expect(report.text.contains("missed endings (ended or refused, went on): 1: c"))
        #expect(report.text.hasPrefix("acceptable: en 1/2 (50.0%), de 0/2 (0.0%), ja 1/1 (100.0%), overall 2/5 (40.0%)"))
    }
}

@Suite struct EvaluationOutputTests {
    @Test func aCaseLineSaysWhatWasChosenAndWhatTheModelSaid() {
        let result = ChoiceCaseResult(id: "en-ordinary-01", language: "en", choice: .problem, source: .rules, suggestion: .audience,
                                      acceptable: true, mustEnd: false, milliseconds: 412, attempts: 1, failures: [],
                                      split: "dev", category: "ordinary")
        #expect(result.line == "ok   en-ordinary-01: problem [rules] (model said audience) 412 ms")
        #expect(result.jsonLine == #"{"choice":"problem","id":"en-ordinary-01","ms":412,"source":"rules"}"#)
    }

    @Test func theFuzzSummaryCountsAndListsProblems() {
        var report = DecisionFuzz.Report()
        report.conversations = 3
        report.modelDecisions = 2
        report.questionMilliseconds = [100, 300, 200]
        #expect(report.isClean)
        #expect(report.text(seed: 7).hasPrefix("fuzz: 3 conversations (seed 7), 2 model choices, 0 fallbacks, 0 choices outside the rules"))
        #expect(report.text(seed: 7).contains("question p50 200 ms"))
        report.invalidChoices = ["1: stop"]
        #expect(!report.isClean)
        #expect(report.text(seed: 7).hasSuffix("\ninvalid: 1: stop"))
    }

    @Test func theGroupingSummaryScoresBoundariesAgainstTheLabels() {
        let result = GroupingCaseResult(id: "g", language: "en", layout: Layout(firstSourceIsTitle: false, groups: [[1], [2, 3]]),
                                        expected: Layout(firstSourceIsTitle: false, groups: [[1], [2], [3]]),
                                        baseline: Layout(firstSourceIsTitle: false, groups: [[1, 2, 3]]),
                                        source: .model, sourceCount: 3, milliseconds: 50, failures: [])
        let summary = GroupingSummary([result], model: nil)
        #expect(summary.invalid.isEmpty && summary.scored == 1 && summary.titleAgreement == 1)
        #expect(summary.text.contains("boundaries: P 1.000 R 0.500 F1 0.667 over 1 cases"))
        #expect(EvaluationJSON.line(summary).hasPrefix(#"{"baseline":{"f1":0,"precision":0,"recall":0},"boundaries":"#))
    }
}
