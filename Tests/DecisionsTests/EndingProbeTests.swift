import DialogueCore
import Foundation
import Testing
@testable import Decisions

/// What the probe reads: either read-out ends, a cue lowers the bar.
@Suite struct EndingProbeReadingTests {
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
}

/// The trained probe with the real default model, on the decision set's test split (never
/// trained or tuned on): it must catch most endings the phrase rules miss and end nothing that
/// goes on.
@Suite("Ending probe (real default model)", .serialized)
struct EndingProbeModelTests {
    @Test func theTrainedProbeFitsTheDefaultModel() throws {
        #expect(try DecisionFixtures.probe().fits(try DecisionFixtures.model()),
                "the default model changed: train the probe again (see EndingProbe)")
    }

    /// espeak-ng's Japanese opening as whisper heard it in a CI run: read as an ending by the
    /// probe trained without misheard content, so the demo ended after one answer.
    @Test func wordsMisheardAsNonsenseDoNotEnd() async throws {
        let model = try DecisionFixtures.model()
        for text in ["あたらしあこりまいであがります。しさよみせのよやくを簡単に引きたいです。", "zuerst, welcher ich morden, mit meinen Freundes.",
                     "primero lo robaría con nieces y los nemicas"] {
            let reading = try #require(try await model.endingReading(of: text, probe: try DecisionFixtures.probe()))
            #expect(!reading.ends, "\(text): \(reading)")
        }
    }

    @Test func aRefusalTheRulesMissStopsAsARefusalFromTheModel() async throws {
        let service = DecisionService(model: try DecisionFixtures.model(), settings: DecisionFixtures.settings())
        let rules = try DecisionFixtures.rules("en")
        let conversation = Conversation(turns: [
            Turn(question: .opening, answer: "A tool library for the people on my street."),
            Turn(question: .choice(.problem), answer: "Honestly, just act as if none of that came up, okay?"),
        ])
        try #require(!rules.allowedChoices(conversation).finishOnly, "the rules must miss it for this test to mean anything")
        let outcome = try await service.nextQuestion(conversation, rules: rules)
        #expect(outcome.decision.choice == .stop && outcome.decision.source == .model)
        #expect(outcome.decision.refusal == .everything, "\"any of that\" covers everything said")
    }

    /// Thinking aloud, apologising for it (`Rules.isStillThinking`): where the probe reads such
    /// an answer as an ending, the exchange still goes on, in every language. Written here, not
    /// taken from a labelled set.
    @Test func anAnswerStillThinkingAloudGoesOnWhateverTheProbeReads() async throws {
        let model = try DecisionFixtures.model()
        let service = DecisionService(model: model, settings: DecisionFixtures.settings())
        let answers: [(Language, String, String)] = [
            ("en", "A little app that tells you when the laundry in the shared basement is free.",
             "I don't know, maybe ask the caretaker to put up a sign first? Or, um, sorry, I'm kind of thinking out loud here."),
            ("en", "I keep thinking about the talk my daughter's teacher gave.",
             "Not sure yet. That kids need more boredom, maybe? Sorry, that came out a bit muddled."),
            ("es", "Quiero empezar a correr por las mañanas.",
             "No sé, el frío supongo, o que me cuesta madrugar... perdona, estoy pensando en voz alta."),
            ("fr", "Une appli pour échanger des graines entre jardiniers du quartier.",
             "Je sais pas trop, que les gens jettent leurs graines en trop, peut-être ? Pardon, c'est pas très clair ce que je dis."),
            ("de", "Ich will meinen Balkon im Frühling bepflanzen.",
             "Keine Ahnung, vielleicht erst mal Erde kaufen, oder Töpfe… Entschuldigung, ich denk grad laut nach."),
            ("ja", "この前の同窓会のことをずっと考えてて。",
             "うーん、わからないです。もっと連絡取ればよかったのかな…すみません、なんかうまくまとまらなくて。"),
        ]
        var readAsEndings = 0
        for (language, opening, answer) in answers {
            let rules = try DecisionFixtures.rules(language)
            let conversation = Conversation(turns: [Turn(question: .opening, answer: opening), Turn(question: .choice(.obstacle), answer: answer)])
            #expect(rules.isStillThinking(conversation), "\(language): \(answer)")
            let reading = try #require(try await model.endingReading(of: answer, probe: try DecisionFixtures.probe()))
            guard reading.ends else { continue }
            readAsEndings += 1
            let outcome = try await service.nextQuestion(conversation, rules: rules)
            #expect(!outcome.decision.finishes, "\(language): \(answer) -> \(outcome.decision.choice)")
        }
        #expect(readAsEndings >= 2, "the probe must misread some of them for this test to mean anything")
    }

    /// A refusal said while still thinking ends all the same.
    @Test func aRefusalSaidWhileThinkingStillStops() async throws {
        let service = DecisionService(model: try DecisionFixtures.model(), settings: DecisionFixtures.settings())
        let rules = try DecisionFixtures.rules("en")
        let conversation = Conversation(turns: [
            Turn(question: .opening, answer: "Something about my job, I'm not sure yet."),
            Turn(question: .choice(.reason), answer: "Why does it matter... I dunno, it's nobody's business really. I don't want this turned into a note. Let's just not."),
        ])
        try #require(rules.isStillThinking(conversation), "the rules must read it as thinking for this test to mean anything")
        let outcome = try await service.nextQuestion(conversation, rules: rules)
        #expect(outcome.decision.choice == .stop && outcome.decision.refusal != nil, "\(outcome)")
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
        let reading = try #require(try await model.endingReading(of: conversation.lastAnswer ?? "", probe: try DecisionFixtures.probe()))
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
