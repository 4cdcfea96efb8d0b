import CWhisper
import DialogueCore
import Foundation
import Testing
@testable import Transcription

@Suite("What whisper may sample next")
struct TokenRulesTests {
    static func logits(after tokens: [whisper_token], rules: TokenRules, vocabulary: Int = 60) -> [Float] {
        var logits = [Float](repeating: 1, count: vocabulary)
        let data = tokens.map { whisper_token_data(id: $0, tid: 0, p: 0, plog: 0, pt: 0, ptsum: 0, t0: 0, t1: 0, t_dtw: 0, vlen: 0) }
        data.withUnsafeBufferPointer { tokens in
            logits.withUnsafeMutableBufferPointer { rules.apply(to: $0.baseAddress!, after: tokens) }
        }
        return logits
    }

    @Test func nonSpeechTokensAreNeverSampledAndTheRestIsUntouched() {
        let rules = TokenRules(nonSpeech: [3, 7], endOfText: 50)
        let logits = Self.logits(after: [10, 11, 12], rules: rules)
        #expect(logits.indices.filter { logits[$0] == -.infinity } == [3, 7])
    }

    @Test func aLoopLeavesOnlyEndOfTextAndTimestamps() {
        let rules = TokenRules(nonSpeech: [3], endOfText: 50)
        // "a b c" six times; the timestamp token (55) among them does not hide the loop.
        let logits = Self.logits(after: [20, 21, 22, 55] + Array([[whisper_token]](repeating: [20, 21, 22], count: 5).joined()), rules: rules)
        #expect((0..<50).allSatisfy { logits[$0] == -.infinity })
        #expect((50..<60).allSatisfy { logits[$0] == 1 })
        // Three times is a word a person repeats ("words, words, words"): whisper goes on.
        let repeated = Self.logits(after: [20, 21, 22, 20, 21, 22, 20, 21, 22], rules: rules)
        #expect(repeated.indices.filter { repeated[$0] == -.infinity } == [3])
    }

    @Test func theDefaultModelsNonSpeechTokensAreTheListedSymbols() throws {
        var params = whisper_context_default_params()
        params.use_gpu = false
        let context = try #require(whisper_init_from_file_with_params(DefaultModels.whisper, params))
        defer { whisper_free(context) }
        let tokens = Transcriber.nonSpeechTokens(context)
        let texts = tokens.map { String(cString: whisper_token_to_str(context, $0)) }
        let allowed = Set(nonSpeechSymbols.flatMap { [$0, " \($0)"] } + [" -", " '"])
        #expect(texts.allSatisfy(allowed.contains))
        for symbol in ["(", " (", "♪", " [", " -", " '", "「"] {
            #expect(texts.contains(symbol), "\(symbol) is a token of whisper's vocabulary and must be suppressed")
        }
        #expect(!texts.contains { $0.contains { $0.isLetter } })
        // The quick pass (first and last byte, length) finds every one a plain comparison finds.
        let every = (0..<whisper_n_vocab(context)).filter { allowed.contains(String(cString: whisper_token_to_str(context, $0))) }
        #expect(tokens == every)
    }
}
