import DialogueCore
import Foundation
import Testing
@testable import Decisions
@testable import Evaluation

/// The probe's arithmetic, on small made-up data: the fit, its folded standardization, the
/// folds and the linear solve.
@Suite struct EndingProbeTrainingTests {
    /// Two features; the label is whether x0 + x1 > 1 (plus a few near the line either way).
    static let points: [([Float], Bool)] = (0..<40).map { i in
        let x0 = Float(i % 8) / 4, x1 = Float(i / 8) / 3
        return ([x0, x1], x0 + x1 > 1)
    }

    @Test func misheardTextKeepsItsShapeAndChangesOneLetterInFive() {
        let text = "Ich möchte ein kleines Café eröffnen."
        let misheard = EndingProbeTraining.misheard(text)
        #expect(misheard != text && misheard.count == text.count)
        #expect(zip(text, misheard).allSatisfy { $0.isLetter == $1.isLetter }, "spaces and punctuation stay where they are")
        let changed = zip(text, misheard).filter { $0 != $1 }.count
        #expect(changed >= 1 && changed <= text.filter(\.isLetter).count / 5 + 1)
        #expect(EndingProbeTraining.misheard("Done.") == "Done.", "too short to mishear")
        #expect(EndingProbeTraining.misheard("新しいアプリのアイデアがあります。") != "新しいアプリのアイデアがあります。")
    }

    @Test func theFitSeparatesWhatIsSeparable() {
        let fit = EndingProbeTraining.fit(Self.points.map(\.0), labels: Self.points.map(\.1), lambda: 0.01)
        for (x, label) in Self.points where abs(x[0] + x[1] - 1) > 0.2 {
            #expect((fit.probability(x) > 0.5) == label, "\(x)")
        }
    }

    /// The standardization is folded into the weights, so scaling a feature changes nothing.
    @Test func scalingAFeatureChangesNoProbability() {
        let plain = EndingProbeTraining.fit(Self.points.map(\.0), labels: Self.points.map(\.1), lambda: 1)
        let scaled = Self.points.map { [$0.0[0] * 1000, $0.0[1]] }
        let fit = EndingProbeTraining.fit(scaled, labels: Self.points.map(\.1), lambda: 1)
        for (x, s) in zip(Self.points.map(\.0), scaled) {
            #expect(abs(plain.probability(x) - fit.probability(s)) < 1e-4, "\(x)")
        }
    }

    /// A case is scored by a fit that never saw it: flipping its label leaves its probability.
    @Test func outOfFoldNeverSeesTheCaseItScores() {
        let features = Self.points.map(\.0), labels = Self.points.map(\.1)
        var flipped = labels
        flipped[5].toggle()
        let before = EndingProbeTraining.outOfFold(features, labels: labels, lambda: 1)
        let after = EndingProbeTraining.outOfFold(features, labels: flipped, lambda: 1)
        #expect(before[5] == after[5])
        #expect(before[6] != after[6], "a case of another fold did see the flip")
    }

    @Test func theSolveSolvesAndRefusesWhatIsNotPositiveDefinite() throws {
        let a: [Double] = [4, 2, 0, 2, 5, 1, 0, 1, 3]
        let x = try #require(EndingProbeTraining.solve(a, [2, 9, 7], size: 3))
        for row in 0..<3 {
            #expect(abs((0..<3).reduce(0) { $0 + a[row * 3 + $1] * x[$1] } - [2, 9, 7][row]) < 1e-9)
        }
        #expect(EndingProbeTraining.solve([1, 2, 2, 1], [1, 1], size: 2) == nil)
    }

    /// The thresholds come down from the surest answer that goes on while, out of fold, at most
    /// 3 % of the cases that go on and 0.2 % of the plain content would end, and no further.
    @Test func theThresholdsComeDownOnlyAsFarAsTheFalseEndingLimitsAllow() {
        // 10 endings, 100 cases that go on (two sure ones, two at 0.70), 1000 content answers.
        let endings = (0..<10).map { 0.5 + Double($0) * 0.05 }
        let goingOn = [0.9, 0.86, 0.70, 0.70] + Array(repeating: 0.1, count: 96)
        let content = [0.5] + Array(repeating: 0.1, count: 999)
        let read = endings + goingOn + content
        let ends = endings.map { _ in true } + (goingOn + content).map { _ in false }
        let calibration = EndingProbeTraining.calibrate(whole: read, close: read.map { $0 / 2 }, ends: ends, caseCount: 110)
        // At 0.75 of 0.9 the two at 0.70 would end too: 4 of 100 is over 3 %.
        #expect(calibration.scale == 0.8)
        #expect(abs(calibration.whole - 0.72) < 1e-9 && abs(calibration.close - 0.36) < 1e-9)
        #expect(calibration.rows.last == "scale 0.80 chosen")

        // Three content answers at 0.8: from 0.85 of 0.9 on they would end, 3 of 1000 is over 0.2 %.
        func calibrated(goingOn: [Double], content: [Double]) -> Double {
            let read = endings + goingOn + content
            return EndingProbeTraining.calibrate(whole: read, close: read.map { $0 / 2 }, ends: ends, caseCount: 110).scale
        }
        #expect(calibrated(goingOn: [0.9] + Array(repeating: 0.1, count: 99), content: [0.8, 0.8, 0.8] + Array(repeating: 0.1, count: 997)) == 0.9)
        // Four cases that go on just under the surest: the surest one's threshold stays.
        #expect(calibrated(goingOn: [0.9, 0.89, 0.88, 0.87] + Array(repeating: 0.1, count: 96), content: content) == 1.0)
    }
}

/// The trained probe with the real default model, on the decision set's test split (never
/// trained or tuned on): it must catch most endings the phrase rules miss and end nothing that
/// goes on.
@Suite("Ending probe on the test split (real default model)", .serialized)
struct EndingProbeTestSplitTests {
    @Test func onTheTestSplitItCatchesEndingsTheRulesMissAndEndsNothingThatGoesOn() async throws {
        let model = try EvaluationFixtures.model()
        let cases = try ChoiceScenarioSet.load(from: EvaluationFixtures.fixture("choice-scenarios.json")).cases
            .filter { $0.split == "test" }
        var missedByRules = 0, caught = 0
        for scenario in cases {
            let rules = try EvaluationFixtures.rules(scenario.language)
            let reading = try #require(try await model.endingReading(of: scenario.conversation.lastAnswer ?? "", probe: try EvaluationFixtures.probe()))
            if !scenario.mustEnd {
                #expect(!reading.ends, "\(scenario.id) goes on, read as an ending (\(reading))")
            } else if !rules.allowedChoices(scenario.conversation).finishOnly {
                missedByRules += 1
                if reading.ends { caught += 1 }
            }
        }
        #expect(missedByRules > 0 && caught * 2 >= missedByRules, "caught \(caught) of \(missedByRules)")
    }
}
