import DialogueCore
import Foundation
import Speech
import Testing
import Transcription
@testable import Evaluation
import VoiceSession

/// How `eval turns` scores a way of ending an answer: a silence is cut off when the wait is no
/// longer than it, and the adaptive wait never ends before the transcript is read.
@Suite struct TurnSummaryTests {
    let answer: TurnSet.Answer
    /// A fixture that cannot be read fails these tests, not the whole run.
    init() throws {
        answer = try JSONDecoder().decode(TurnSet.Answer.self, from: Data("""
            {"id": "a", "language": "en", "split": "test", "kind": "read", "licence": "MIT", "clip": "c", "from": 0, "to": 3, "pauses": []}
            """.utf8))
    }

    func result(_ silences: [TurnSet.Silence], completion: Double, seconds: Double) -> TurnEvaluation.MomentResult {
        TurnEvaluation.MomentResult(moment: TurnSet.Moment(answer: answer, at: 1, silences: silences), text: "",
                                    transcriptionSeconds: seconds, cue: .finalPunctuation, completion: completion)
    }

    @Test func aFixedWaitCutsEverySilenceAtLeastAsLong() {
        let moment = result([.init(kind: .inside, seconds: 0.3), .init(kind: .lengthened, seconds: 0.7),
                             .init(kind: .lengthened, seconds: 1.0)], completion: 0, seconds: 0)
        let row = TurnSummary.row(.fixed("default", 0.7), [moment])
        #expect(row.cutOffs[.inside]! == (0, 1))
        #expect(row.cutOffs[.lengthened]! == (2, 2))
        #expect(row.allCutOffs == (2, 3))
    }

    @Test func theAdaptiveWaitIsTheHangoverOnceReadAndNeverBeforeTheTranscript() {
        let wait = AdaptiveWait(shortest: 0.3, longest: 2.0, threshold: 0.7)
        let finished = result([.init(kind: .endOfTurn, seconds: nil)], completion: 0.9, seconds: 0.05)
        let slow = result([.init(kind: .endOfTurn, seconds: nil)], completion: 0.9, seconds: 0.8)
        let verySlow = result([.init(kind: .endOfTurn, seconds: nil)], completion: 0.9, seconds: 5)
        let doubtful = result([.init(kind: .endOfTurn, seconds: nil)], completion: 0.4, seconds: 0.05)
        let adaptive = TurnStrategy.adaptive("default", wait)
        #expect(adaptive.wait(finished) == 0.3)
        #expect(abs(adaptive.wait(slow) - 1.0) < 1e-9)     // pause 0.2 + T 0.8
        #expect(adaptive.wait(verySlow) == 2.0)            // never past `longest`
        #expect(adaptive.wait(doubtful) == 2.0)
        #expect(TurnStrategy.adaptive("default", wait, instant: true).wait(slow) == 0.3)
        let fallback = TurnStrategy.adaptive("default", wait, fallback: 0.7)
        #expect(fallback.wait(slow) == 0.7)
        #expect(fallback.wait(doubtful) == 2.0)
        let row = TurnSummary.row(adaptive, [finished, slow, verySlow])
        #expect(row.waits.count == 3 && abs(row.medianWait! - 1.0) < 1e-9 && abs(row.meanWait! - 1.1) < 1e-9)
        #expect(row.cutOffs.isEmpty)
    }

    /// As heard, the question sounds once the answer has ended and its decision is made: a
    /// pause shorter than that is never a cut-off the person meets, whatever the endpoint did.
    @Test func asHeardTheQuestionStartsAfterTheEndAndAfterItsDecision() {
        func heardResult(_ silences: [TurnSet.Silence], completion: Double, seconds: Double, text: String) -> TurnEvaluation.MomentResult {
            TurnEvaluation.MomentResult(moment: TurnSet.Moment(answer: answer, at: 1, silences: silences), text: text,
                                        transcriptionSeconds: seconds, cue: .finalPunctuation, completion: completion)
        }
        let fixed = TurnStrategy.heard(.fixed("default", 0.7), decision: 0.35)
        let quick = heardResult([.init(kind: .inside, seconds: 0.8)], completion: 0.9, seconds: 0.1, text: "So.")
        #expect(abs(fixed.wait(quick) - 0.7) < 1e-9)       // the end comes last: 0.7 > 0.2 + 0.1 + 0.35
        let slow = heardResult([.init(kind: .inside, seconds: 0.8)], completion: 0.9, seconds: 0.4, text: "So.")
        #expect(abs(fixed.wait(slow) - 0.95) < 1e-9)       // the decision comes last: 0.2 + 0.4 + 0.35
        #expect(TurnSummary.row(fixed, [slow]).cutOffs[.inside]! == (0, 1))
        #expect(TurnSummary.row(.fixed("default", 0.7), [slow]).cutOffs[.inside]! == (1, 1))
        let unheard = heardResult([.init(kind: .endOfTurn, seconds: nil)], completion: 0, seconds: 0.1, text: "")
        #expect(abs(fixed.wait(unheard) - 1.15) < 1e-9)    // nothing to decide on before the end
        let adaptive = TurnStrategy.heard(.adaptive("default", .default, fallback: 0.7), decision: 0.35)
        let open = heardResult([.init(kind: .inside, seconds: 1.5)], completion: 0.2, seconds: 0.1, text: "And")
        #expect(adaptive.wait(open) == AdaptiveWait.default.longest)
        #expect(TurnSummary([quick]).text.contains("As heard") == false)
        #expect(TurnSummary([quick], decisionSeconds: 0.35).text.contains("== As heard"))
    }

    /// Whisper is surer of its final marks in English than in Spanish: the same completion is
    /// finished in one and not in the other, as the live listener reads it.
    @Test func theThresholdIsEachLanguages() throws {
        #expect(abs(AdaptiveWait.default.forLanguage("en").threshold - 0.8) < 1e-9)
        #expect(abs(AdaptiveWait.default.forLanguage("es").threshold - 0.6) < 1e-9)
        for language: Language in ["fr", "de", "ja"] { #expect(AdaptiveWait.default.forLanguage(language) == .default) }
        #expect(abs(AdaptiveWait.relaxed.forLanguage("en").threshold - 0.85) < 1e-9)
        func answer(in language: String) throws -> TurnSet.Answer {
            try JSONDecoder().decode(TurnSet.Answer.self, from: Data("""
                {"id": "a", "language": "\(language)", "split": "test", "kind": "read", "licence": "MIT", "clip": "c", "from": 0, "to": 3, "pauses": []}
                """.utf8))
        }
        let adaptive = TurnStrategy.adaptive("default", .default, fallback: 0.7)
        for (language, wait) in [("en", 2.0), ("es", 0.3), ("fr", 0.3)] {
            let moment = TurnEvaluation.MomentResult(moment: TurnSet.Moment(answer: try answer(in: language), at: 1, silences: []),
                                                     text: "Sí.", transcriptionSeconds: 0.05, cue: .finalPunctuation, completion: 0.75)
            #expect(adaptive.wait(moment) == wait, "\(language)")
        }
    }

    @Test func theModelRowsUseItsCompletionAndAddItsTimeAndAppearOnlyWhenMeasured() {
        var measured = result([.init(kind: .endOfTurn, seconds: nil)], completion: 0, seconds: 0.5)
        measured.modelCompletion = 0.3
        measured.modelSeconds = 0.1
        #expect(abs(TurnStrategy.model().wait(measured) - 0.8) < 1e-9)   // pause 0.2 + T 0.5 + model 0.1
        #expect(TurnStrategy.model(instant: true).wait(measured) == 0.3)
        measured.modelCompletion = 0.01
        #expect(TurnStrategy.model(instant: true).wait(measured) == 2.0)
        #expect(TurnSummary([measured]).strategies.count == TurnStrategy.all.count + 2)
        #expect(TurnSummary([result([], completion: 0, seconds: 0)]).strategies.count == TurnStrategy.all.count)
    }

    func withTail(completion: Double?, seconds: Double, whole: Double, wholeSeconds: Double) -> TurnEvaluation.MomentResult {
        var moment = result([.init(kind: .endOfTurn, seconds: nil)], completion: whole, seconds: wholeSeconds)
        moment.tails = [TurnEvaluation.TailReading(tail: TurnTail(seconds: 2), window: 128, text: completion == nil ? "" : "so",
                                                   seconds: seconds, cue: .finalPunctuation, completion: completion)]
        return moment
    }

    @Test func theTailIsReadFirstAndTheWholeAnswerAfterIt() {
        let wait = AdaptiveWait(shortest: 0.3, longest: 2.0, threshold: 0.7), tail = TurnTail(seconds: 2)
        let alone = TurnStrategy.tailFirst(0, tail, wait, fallback: 0.7, wholeDecides: false)
        let thenWhole = TurnStrategy.tailFirst(0, tail, wait, fallback: 0.7, wholeDecides: true)
        // Read at 0.2 + 0.1 s as finished: 0.3 s, whatever the whole answer says later.
        let quick = withTail(completion: 0.9, seconds: 0.1, whole: 0.1, wholeSeconds: 0.5)
        #expect(abs(alone.wait(quick) - 0.3) < 1e-9 && abs(thenWhole.wait(quick) - 0.3) < 1e-9)
        // Read as open: 2 s alone; the whole answer, read at 0.3 + 0.5 s as finished, ends it then.
        let open = withTail(completion: 0.2, seconds: 0.1, whole: 0.9, wholeSeconds: 0.5)
        #expect(alone.wait(open) == 2.0)
        #expect(abs(thenWhole.wait(open) - 0.8) < 1e-9)
        // A tail read no sooner than the preset's silence changes nothing.
        #expect(thenWhole.wait(withTail(completion: 0.9, seconds: 0.5, whole: 0.9, wholeSeconds: 0)) == 0.7)
        // Nothing heard in the tail: the preset's silence, unless the whole answer is read before it.
        #expect(alone.wait(withTail(completion: nil, seconds: 0.1, whole: 0.9, wholeSeconds: 0.6)) == 0.7)
        #expect(abs(alone.wait(withTail(completion: nil, seconds: 0.1, whole: 0.9, wholeSeconds: 0.2)) - 0.5) < 1e-9)
        #expect(TurnSummary([quick]).strategies.count == TurnStrategy.all.count + 2)
    }

    @Test func theAreaUnderTheCurveCountsEndsScoredAbovePausesAndTiesHalf() {
        #expect(TurnSummary.areaUnderCurve([(0.9, true), (0.2, false), (0.3, false)]) == 1)
        #expect(TurnSummary.areaUnderCurve([(0.2, true), (0.9, false)]) == 0)
        #expect(TurnSummary.areaUnderCurve([(0.5, true), (0.5, false), (0.1, false)]) == 0.75)
        #expect(TurnSummary.areaUnderCurve([(0.5, true)]).isNaN)
    }

    @Test func theReportShowsEachSplitAndLanguageWithEveryStrategy() throws {
        let text = TurnSummary([result([.init(kind: .inside, seconds: 0.4)], completion: 0.9, seconds: 0.1)]).text
        #expect(text.contains("test en: 1 answers"))
        #expect(text.contains("fixed aggressive 0.35 s"))
        #expect(!text.contains("dev en"))
        let aggressive = try #require(text.split(separator: "\n").first { $0.contains("fixed aggressive") })
        #expect(aggressive.contains("1/1 100%"))
    }

    @Test func earlierTranscriptsAreReadBackByAnswerAndPause() throws {
        let line = result([.init(kind: .inside, seconds: 0.4)], completion: 0.9, seconds: 0.25).jsonLine
        let heard = try TurnEvaluation.Heard.load("a header line\n" + line + "\n")
        let entry = try #require(heard[TurnEvaluation.Heard.key("a", 1)])
        #expect(entry.seconds == 0.25 && entry.text == "" && entry.mark == nil)
    }

    /// The presets shift the thresholds as `--silence` promises: relaxed waits out more
    /// doubtful endings, aggressive fewer.
    @Test func thePresetsShiftTheThresholds() {
        let presets = [AdaptiveWait.relaxed, .default, .aggressive]
        #expect(presets.map(\.threshold) == presets.map(\.threshold).sorted(by: >))
        #expect(presets.map(\.shortest) == presets.map(\.shortest).sorted(by: >))
        #expect(presets.allSatisfy { $0.hangover(completion: $0.threshold) == $0.shortest && $0.hangover(completion: 0) == $0.longest })
    }

    /// `--incremental`: the final text is made of pieces no shorter than asked, chained from the
    /// answer's start.
    @Test func theFinalPiecesChainFromTheStartAndAreNoShorterThanAsked() {
        func pieces(_ minimum: Double) -> [[Double]] {
            TurnEvaluation.finalPieces(ends: [2.8, 3.5, 7], from: 0, minimumPiece: minimum).map { [$0.from, $0.to] }
        }
        #expect(pieces(0) == [[0, 2.8], [2.8, 3.5], [3.5, 7]])
        #expect(pieces(2) == [[0, 3.5], [3.5, 7]])
        #expect(pieces(4) == [[0, 7]])
    }
}
