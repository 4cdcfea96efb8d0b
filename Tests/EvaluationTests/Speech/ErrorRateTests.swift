import Foundation
import Testing
@testable import Evaluation

/// The figures `eval speech` reports, checked against the bench's own examples
/// (scripts/bench/dmbench/scoring.py), so both say the same.
@Suite struct ErrorRateTests {
    @Test func wordsIgnoreCasePunctuationAndSymbols() {
        #expect(ErrorRate.words("Ask not — what YOUR country can do!") == ["ask", "not", "what", "your", "country", "can", "do"])
        #expect(ErrorRate.words("C'est l’idée, n'est-ce pas ?") == ["c", "est", "l", "idée", "n", "est", "ce", "pas"])
    }

    @Test func editDistanceCountsInsertionsDeletionsAndSubstitutions() {
        #expect(ErrorRate.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(ErrorRate.editDistance([String](), ["a"]) == 1)
        #expect(ErrorRate.editDistance(Array("ab"), Array("ab")) == 0)
    }

    @Test func wordErrorRateAndJapaneseCharacterErrorRate() {
        let english = ErrorRate.of("ask not what you country can do", reference: "Ask not what your country can do.", language: "en")
        #expect(english.errors == 1 && english.units == 7)
        let japanese = ErrorRate.of("東京に行きます", reference: "東京へ行きます。", language: "ja")
        #expect(japanese.errors == 1 && japanese.units == 7)
        #expect(ErrorRate.of("", reference: "a b", language: "fr") == (errors: 2, units: 2))
    }

    @Test func figuresAreWrittenAsTheIssuesWriteThem() {
        #expect(ErrorFigure.format(1, 7) == ".143")
        #expect(ErrorFigure.format(0, 0) == ".000")
        #expect(ErrorFigure.format(9, 7) == "1.286")
    }

    @Test func theSummaryScoresEachLanguageOverAllItsWordsAndCountsNoiseThatGaveText() {
        func clip(_ id: String, _ language: String, _ split: String, mixing speech: String? = nil) -> SpeechSet.Clip {
            SpeechSet.Clip(id: id, language: language, kind: speech == nil ? "read" : "noisy", split: split, reference: "a b c d",
                           referenceDigits: nil, file: id + ".wav", durationSeconds: 1,
                           build: speech.map { .init(mix: .init(speech: $0, noise: "noise-1", snrDb: 10)) })
        }
        var short = SpeechEvaluation.ClipResult(clip: clip("en-1", "en", "dev"))
        short.runs[.ours] = ("a b c d", 0, 4, 1)
        var long = SpeechEvaluation.ClipResult(clip: clip("en-2", "en", "test"))
        long.runs[.ours] = ("a x", 3, 4, 1)
        var noise = SpeechEvaluation.ClipResult(clip: clip("noise-1", "none", "dev"))
        noise.runs[.ours] = ("Thank you.", 0, 0, 1)
        // en-1 under noise: one word wrong, one invented ("zz" is in no reference).
        var noisy = SpeechEvaluation.ClipResult(clip: clip("en-noisy-1", "en", "dev", mixing: "en-1"))
        noisy.runs[.ours] = ("a b zz d", 1, 4, 1)
        let text = SpeechSummary([short, long, noise, noisy]).text
        #expect(text.contains("dev:\n  en (1 clips): ours .000"), "the noisy clip is not in the clean rows")
        #expect(text.contains("== Speech under noise"))
        #expect(text.contains("dev:\n  en (1 clips): ours .250 / .000, 1 / 0"))
        #expect(text.contains("test:\n  en (1 clips): ours .750"))
        #expect(text.contains("all:\n  en (2 clips): ours .375"))
        #expect(text.contains("clips that gave text: ours 1/1"))
        #expect(noise.line.contains("ours “Thank you.”"))
    }

    @Test func whisperCLISoundLabelsMeanNoSpeech() {
        #expect(SpeechEvaluation.isSoundLabel("[BLANK_AUDIO]"))
        #expect(SpeechEvaluation.isSoundLabel("(clicking)"))
        #expect(!SpeechEvaluation.isSoundLabel("Press (1) to continue."))
    }
}
