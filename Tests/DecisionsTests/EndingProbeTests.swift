import DialogueCore
import Foundation
import Testing
@testable import Decisions

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

    @Test func eitherReadOutEndsAndARefusalIsOnlyReadInAnAnswerThatEnds() {
        #expect(!EndingProbe.Reading(whole: 0.9, close: 0.99, refusal: 0.99).ends)
        #expect(EndingProbe.Reading(whole: 1.01, close: 0.5, refusal: 0.2).ends)
        #expect(EndingProbe.Reading(whole: 0.5, close: 1.01, refusal: 0.2).ends)
        #expect(!EndingProbe.Reading(whole: 0.9, close: 0.9, refusal: 0.99).refuses)
        #expect(EndingProbe.Reading(whole: 0.9, close: 1.05, refusal: 0.99).refuses)
        #expect(!EndingProbe.Reading(whole: 1.05, close: 1.05, refusal: 0.2).refuses)
    }

    /// A cue the rules do not force (`Rules.endingCue`) lowers the bar to `withCue` of the
    /// thresholds; a refusal cue makes the ending a refusal, so its words are not kept.
    @Test func aCueOfTheRulesLowersTheBar() {
        #expect(EndingProbe.withCue > 0.5 && EndingProbe.withCue < 0.8)
        #expect(!EndingProbe.Reading(whole: 0.7, close: 0.75, refusal: 0.9).ends)
        #expect(EndingProbe.Reading(whole: 0.7, close: 0.2, refusal: 0.1, cue: .interruption).ends)
        #expect(EndingProbe.Reading(whole: 0.2, close: 0.7, refusal: 0.1, cue: .ending).ends)
        #expect(!EndingProbe.Reading(whole: 0.5, close: 0.55, refusal: 0.9, cue: .refusal).ends)
        #expect(EndingProbe.Reading(whole: 0.7, close: 0.1, refusal: 0.1, cue: .refusal).refuses)
        #expect(!EndingProbe.Reading(whole: 0.7, close: 0.1, refusal: 0.1, cue: .interruption).refuses)
        #expect(EndingProbe.Reading(whole: 0.7, close: 0.1, refusal: 0.1).with(cue: .ending).ends)
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
@Suite("Ending probe (real default model)", .serialized)
struct EndingProbeModelTests {
    @Test func theTrainedProbeFitsTheDefaultModel() throws {
        #expect(EndingProbe.trained.fits(try DecisionFixtures.model()),
                "the default model changed: train the probe again (see EndingProbe)")
    }

    @Test func onTheTestSplitItCatchesEndingsTheRulesMissAndEndsNothingThatGoesOn() async throws {
        let model = try DecisionFixtures.model()
        let cases = try ChoiceScenarioSet.load(from: DecisionFixtures.fixture("choice-scenarios.json")).cases
            .filter { $0.split == "test" }
        var missedByRules = 0, caught = 0
        for scenario in cases {
            let rules = try DecisionFixtures.rules(scenario.language)
            let reading = try #require(try await model.endingReading(of: scenario.conversation.lastAnswer ?? "", probe: .trained))
            if !scenario.mustEnd {
                #expect(!reading.ends, "\(scenario.id) goes on, read as an ending (\(reading))")
            } else if !rules.allowedChoices(scenario.conversation).finishOnly {
                missedByRules += 1
                if reading.ends { caught += 1 }
            }
        }
        // Measured when trained: 13 missed by the rules, 8 caught (2026-12-02); with batches k
        // and l in the dev split, batch m and misheard content as extra training data and the
        // rules' constructions, the rules miss 11 and the probe catches 10.
        #expect(missedByRules > 0 && caught * 2 >= missedByRules, "caught \(caught) of \(missedByRules)")
    }

    /// espeak-ng's Japanese opening as whisper heard it in a CI run: read as an ending by the
    /// probe trained without misheard content, so the demo ended after one answer.
    @Test func wordsMisheardAsNonsenseDoNotEnd() async throws {
        let model = try DecisionFixtures.model()
        for text in ["あたらしあこりまいであがります。しさよみせのよやくを簡単に引きたいです。", "zuerst, welcher ich morden, mit meinen Freundes.",
                     "primero lo robaría con nieces y los nemicas"] {
            let reading = try #require(try await model.endingReading(of: text, probe: .trained))
            #expect(!reading.ends, "\(text): \(reading)")
        }
    }

    @Test func aRefusalTheRulesMissStopsAsARefusalFromTheModel() async throws {
        let service = DecisionService(model: try DecisionFixtures.model(), settings: DecisionFixtures.settings())
        let rules = try DecisionFixtures.rules("en")
        let conversation = Conversation(turns: [
            Turn(question: .opening, answer: "A tool library for the people on my street."),
            Turn(question: .choice(.problem), answer: "Let's pretend I never said any of that, okay?"),
        ])
        try #require(!rules.allowedChoices(conversation).finishOnly, "the rules must miss it for this test to mean anything")
        let outcome = try await service.nextQuestion(conversation, rules: rules)
        #expect(outcome.decision.choice == .stop && outcome.decision.source == .model)
        #expect(outcome.decision.refusal == .everything, "\"any of that\" covers everything said")
    }

    /// Having to stop in words the rules see but do not force (a cue): the probe alone reads it
    /// under its thresholds, with the cue above `withCue` of them, so the exchange stops.
    @Test func aCueOfTheRulesAndTheProbeTogetherEndTheExchange() async throws {
        let model = try DecisionFixtures.model()
        let rules = try DecisionFixtures.rules("de")
        let conversation = Conversation(turns: [
            Turn(question: .opening, answer: "Ich möchte mehr selber kochen."),
            Turn(question: .choice(.obstacle), answer: "Hm, ich muss jetzt leider aufhören, das Essen brennt an."),
        ])
        try #require(!rules.allowedChoices(conversation).finishOnly && rules.endingCue(of: conversation) != nil,
                     "the rules must see a cue and not force it for this test to mean anything")
        let reading = try #require(try await model.endingReading(of: conversation.lastAnswer ?? "", probe: .trained))
        try #require(!reading.ends, "the probe alone must not end it for this test to mean anything (\(reading))")
        let service = DecisionService(model: model, settings: DecisionFixtures.settings())
        let outcome = try await service.nextQuestion(conversation, rules: rules)
        #expect(outcome.decision.choice == .stop && outcome.decision.source == .model, "\(outcome)")
    }

    /// An answer read after a draft of it (the same answer cut short while it was spoken, read
    /// first to prepare the decision) keeps the draft's rows and reads only the rest: its
    /// features are those of the answer read alone, and a different answer read next shares
    /// nothing it should not.
    @Test func featuresAfterADraftAreTheFeaturesReadAlone() async throws {
        let answer = "I think that's enough for today, my train is here, let's stop."
        let draft = String(answer.prefix(27))
        let fresh = try LanguageModel(path: DecisionFixtures.defaultModelPath, contextSize: 1024)
        let alone = try #require(try await fresh.endingFeatures(of: answer, layerCount: 10))
        let drafted = try LanguageModel(path: DecisionFixtures.defaultModelPath, contextSize: 1024)
        _ = try await drafted.endingFeatures(of: draft, layerCount: 10)
        let kept = await drafted.probeAnswer.tokens.count
        let afterDraft = try #require(try await drafted.endingFeatures(of: answer, layerCount: 10))
        let read = await drafted.probeAnswer.tokens.count
        #expect(kept > 3 && kept < read, "the draft is a strict start of the answer")
        func distance(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).map { abs($0 - $1) }.max() ?? 0 }
        let scale = alone.whole.map(abs).max() ?? 1
        #expect(distance(alone.whole, afterDraft.whole) < 0.01 * scale)
        #expect(distance(alone.close, afterDraft.close) < 0.01 * scale)
        // Another answer afterwards: read as it would be alone.
        let other = "Let's keep going, I have more to say about the garden."
        let otherAlone = try #require(try await fresh.endingFeatures(of: other, layerCount: 10))
        let otherNext = try #require(try await drafted.endingFeatures(of: other, layerCount: 10))
        #expect(distance(otherAlone.whole, otherNext.whole) < 0.01 * scale)
    }

    @Test func aProbeForAnotherModelReadsNothing() async throws {
        let sure = EndingProbe.Readout(LinearReadout(bias: 9, weights: []), threshold: 0)
        let other = EndingProbe(model: ModelFingerprint(embedding: 640, layers: 18, fileBytes: 1), layerCount: 10,
                                whole: sure, close: sure, refusal: LinearReadout(bias: 9, weights: []))
        #expect(try await DecisionFixtures.model().endingReading(of: "Let's stop here.", probe: other) == nil)
    }
}
