import Foundation
import Testing
@testable import Transcription

@Suite("Hallucination filter")
struct HallucinationFilterTests {
    let filter = HallucinationFilter()
    let quiet = [Float](repeating: 0, count: 16_000 * 3)
    let loud: [Float] = (0..<(16_000 * 3)).map { (i: Int) -> Float in Float(sin(Double(i) * 0.07) * 0.3) }

    func segment(_ text: String, noSpeech: Float = 0.1) -> TranscriptSegment {
        TranscriptSegment(start: 0, end: 3, text: text, noSpeechProbability: noSpeech)
    }

    @Test(arguments: [" Thank you for watching!", "ご視聴ありがとうございました", " ¡Gracias por ver!",
                      " Merci d'avoir regardé.", " Vielen Dank fürs Zuschauen!"])
    func dropsStockPhrasesOverQuietAudio(text: String) {
        #expect(filter.filter([segment(text)], samples: quiet).isEmpty)
        // Said out loud, the same words are the user's and stay.
        #expect(filter.filter([segment(text)], samples: loud).count == 1)
    }

    func segment(_ text: String, logProbability: Float) -> TranscriptSegment {
        TranscriptSegment(start: 0, end: 3, text: text, noSpeechProbability: 0, averageLogProbability: logProbability)
    }

    /// The values whisper gave a keyboard on the real-speech set (eval speech), over loud audio.
    @Test(arguments: [" Thanks for watching.", " Thank you very much.", " Untertitel von Stephanie Geiges",
                      " Sous-titres réalisés par Jean Dupont", "ご視聴ありがとうございました"])
    func dropsAnUnsureStockPhraseOverLoudNoise(text: String) {
        #expect(filter.filter([segment(text, logProbability: -1.23)], samples: loud).isEmpty)
        // Said surely, the same words are the user's and stay.
        #expect(filter.filter([segment(text, logProbability: -0.3)], samples: loud).count == 1)
    }

    @Test func anUnsureLineIsNotAStockPhrase() {
        #expect(filter.filter([segment(" I'm in Chicago.", logProbability: -1.37)], samples: loud).count == 1)
    }

    /// A keyboard: 40 ms clicks every 150 ms, loud enough to count as speech energy.
    let keys: [Float] = (0..<(16_000 * 3)).map { (i: Int) -> Float in i % 2_400 < 640 ? Float(sin(Double(i) * 0.9) * 0.3) : 0 }

    @Test func dropsATranscriptionWithNoSureSegmentOverClicks() {
        let noise = segment(" I'm gonna use the same method as the other one.", logProbability: -2.1)
        #expect(filter.filter([noise], samples: keys).isEmpty)
        #expect(filter.filter([noise, noise], samples: keys).isEmpty)
        // Among sure segments an unsure one is a person mumbling, and stays.
        let sure = segment(" So we'll come up there.", logProbability: -0.6)
        #expect(filter.filter([sure, noise], samples: keys).count == 2)
        // Over a held sound, unsure words are a voice whisper hears poorly (espeak-ng's
        // "Empezaría con una lista en papel…" came back as "en el NVCO." at -2.0): kept.
        #expect(filter.filter([segment(" en el NVCO.", logProbability: -2.0)], samples: loud).count == 1)
    }

    @Test func dropsWhatWhisperCallsNoSpeechOverQuietAudio() {
        #expect(filter.filter([segment("Hello there.", noSpeech: 0.9)], samples: quiet).isEmpty)
        #expect(filter.filter([segment("Hello there.", noSpeech: 0.9)], samples: loud).count == 1)
    }

    @Test(arguments: ["you you you you you you you", "は は は は は は", "ははははははははは", "the the the the the the the the",
                      "2,6,1,2,1,2,1,2,1,2,1,2,1,2"])
    func dropsLoops(text: String) {
        #expect(filter.filter([segment(text)], samples: loud).isEmpty)
    }

    @Test(arguments: ["I really really want this.", "No, no, no — that is not it.", "ありがとうございます。助かります。", "Ha ha, that was funny.",
                      "Step one, step two, step three, step four.", "We tried it, we tried it again, and it worked in the end.",
                      "Montreal Forced Aligner. Word, another word. Here's some more word, word, word, word, word. Word."])
    func keepsOrdinarySpeech(text: String) {
        #expect(filter.filter([segment(text)], samples: loud).count == 1)
    }

    @Test func dropsASegmentRepeatedWordForWord() {
        let sentence = "お客さんも期間のせつやくにあります"
        let looped = (0..<4).map { TranscriptSegment(start: Double($0) * 0.7, end: Double($0 + 1) * 0.7, text: sentence, noSpeechProbability: 0.1) }
        #expect(filter.filter(looped, samples: loud).map(\.text) == [sentence])
        // Different sentences, or the same one after another, all stay.
        let varied = [segment("We tried it."), segment("It worked."), segment("We tried it.")]
        #expect(filter.filter(varied, samples: loud).count == 3)
    }

    @Test func aPhraseSaidThreeTimesOrMoreIsKeptOnce() {
        let looped = " Zuerst sprechen. und es ist sehr schön, es ist sehr schön, es ist sehr schön, es ist sehr schön, es ist sehr s"
        #expect(filter.filter([segment(looped)], samples: loud).map(\.text)
                == ["Zuerst sprechen. und es ist sehr schön, es ist sehr s"])
        // A whole sentence looped (without timestamp tokens nothing splits it into segments).
        let sentence = " Most people only need a drill, one sort twice a year."
        #expect(HallucinationFilter.collapsingRepeatedPhrases(String(repeating: sentence, count: 5)) == String(sentence.dropFirst()))
        // An 18-word sentence, three times, the last one cut (a real voice's answer in the
        // voices bench, read live with a draft).
        let austen = "Had he married a more amiable woman, he might have been made still more respectable than he was."
        #expect(HallucinationFilter.collapsingRepeatedPhrases("This is a long stop. \(austen) \(austen) \(austen.dropLast())")
                == "This is a long stop. \(austen)")
        // Twice is speech; so are repeated single words.
        for text in [" We tried, we tried, and it worked.", " No, no, no, that is not it.", " Go go go go!"] {
            #expect(HallucinationFilter.collapsingRepeatedPhrases(text) == text)
        }
    }

    @Test func aJapaneseSentenceLoopedIsKeptOnce() {
        // The demo's loop in a CI run: one sentence of about 30 characters, over and over, no spaces.
        let sentence = "母ら、被災を見せを引いていて、それから毎日少しずつ話しています。"
        let looped = "最初に言うと、" + String(repeating: sentence, count: 6) + "母ら、被災"
        #expect(filter.filter([segment(looped)], samples: loud).map(\.text) == ["最初に言うと、" + sentence + "母ら、被災"])
        // Twice is speech; so are short units people repeat, and ordinary sentences.
        for text in ["そう、そう、そうです。", "どんどんどん進めたい。", sentence + sentence, "ありがとうございます。助かります。",
                     "Ja, das ist sehr schön. Schön, schön, schön!"] {
            #expect(HallucinationFilter.collapsingRepeatedPhrases(text) == text)
        }
    }

    @Test func tokensEndingInALoopAreCaught() {
        let unit: [Int32] = [1, 2, 3]
        #expect(HallucinationFilter.endsInLoop([9] + Array([[Int32]](repeating: unit, count: 6).joined())))
        #expect(HallucinationFilter.endsInLoop(Array(repeating: 5, count: 8)))
        #expect(!HallucinationFilter.endsInLoop([9, 1, 2, 3, 1, 2, 3]))
        // A word and its comma said three or four times is speech (" words, words, words, words"
        // ended a real monologue before its last eight words were written).
        #expect(!HallucinationFilter.endsInLoop([9, 1, 2, 3, 1, 2, 3, 1, 2, 3]))
        #expect(!HallucinationFilter.endsInLoop([9] + Array([[Int32]](repeating: [7, 8], count: 5).joined())))
        #expect(!HallucinationFilter.endsInLoop(Array(repeating: 5, count: 7)))
        #expect(!HallucinationFilter.endsInLoop([1, 2, 3, 1, 2, 3, 1, 2, 4]))
        // 24 tokens, a long sentence; 40, a Japanese one of about 30 characters.
        for sentence in [Array(Int32(100)..<Int32(124)), Array(Int32(100)..<Int32(140))] {
            #expect(HallucinationFilter.endsInLoop(sentence + sentence + sentence))
            #expect(!HallucinationFilter.endsInLoop(sentence + sentence))
        }
    }

    /// The in-place check says what the rule says, stated here by building each loop it names:
    /// on random token runs over a small vocabulary, so that loops of every length are common,
    /// and on near misses.
    @Test func theLoopCheckMatchesItsRule() {
        func byTheRule(_ tokens: [Int32]) -> Bool {
            if tokens.count >= 8, Set(tokens.suffix(8)).count == 1 { return true }
            return (2...HallucinationFilter.longestLoopTokens).contains { length in
                let times = length < 6 ? 6 : 3
                guard tokens.count >= times * length else { return false }
                let unit = Array(tokens.suffix(length))
                return Set(unit).count > 1 && Array(tokens.suffix(times * length)) == Array([[Int32]](repeating: unit, count: times).joined())
            }
        }
        var random = SystemRandomNumberGenerator()
        var loops = 0
        for _ in 0..<3_000 {
            let unit = (0..<Int.random(in: 1...30, using: &random)).map { _ in Int32.random(in: 1...3, using: &random) }
            let repeats = Array([[Int32]](repeating: unit, count: Int.random(in: 1...7, using: &random)).joined())
            var tokens = (0..<Int.random(in: 0...20, using: &random)).map { _ in Int32.random(in: 1...3, using: &random) } + repeats
            // A near miss: one token of the run changed, often the last.
            if Bool.random(using: &random), !tokens.isEmpty {
                let at = Bool.random(using: &random) ? tokens.count - 1 : Int.random(in: 0..<tokens.count, using: &random)
                tokens[at] = 4
            }
            let expected = byTheRule(tokens)
            loops += expected ? 1 : 0
            #expect(HallucinationFilter.endsInLoop(tokens) == expected, "\(tokens)")
        }
        #expect(loops > 300 && loops < 2_700, "both kinds of run were tried: \(loops) loops of 3,000")
    }
}
