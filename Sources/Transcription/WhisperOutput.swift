import CWhisper
import Foundation

/// What whisper wrote in its latest run.
struct WhisperOutput {
    let context: OpaquePointer

    var segmentCount: Int32 {
        whisper_full_n_segments(context)
    }
    func tokenCount(_ segment: Int32) -> Int32 {
        whisper_full_n_tokens(context, segment)
    }
    func token(_ segment: Int32, _ index: Int32) -> whisper_token_data {
        whisper_full_get_token_data(context, segment, index)
    }
    func tokenText(_ segment: Int32, _ index: Int32) -> String {
        String(cString: whisper_full_get_token_text(context, segment, index))
    }
    func text(_ segment: Int32) -> String {
        String(cString: whisper_full_get_segment_text(context, segment))
    }
    func times(_ segment: Int32) -> (start: Double, end: Double) {
        let t0 = whisper_full_get_segment_t0(context, segment)
        let t1 = whisper_full_get_segment_t1(context, segment)
        return (Double(t0) / 100, Double(t1) / 100)
    }
    func noSpeechProbability(_ segment: Int32) -> Float {
        whisper_full_get_segment_no_speech_prob(context, segment)
    }

    /// The segments, and the text tokens of all of them (the next draft).
    func segments() -> (segments: [TranscriptSegment], tokens: [Int32]) {
        var segments: [TranscriptSegment] = []
        var tokens: [Int32] = []
        let endOfText = whisper_token_eot(context)
        for i in 0..<segmentCount {
            tokens += (0..<tokenCount(i)).map { token(i, $0).id }.filter { $0 < endOfText }
            let (start, end) = times(i)
            segments.append(TranscriptSegment(
                start: start, end: end, text: text(i), noSpeechProbability: noSpeechProbability(i),
                finalMarkProbability: finalMarkProbability(segment: i),
                averageLogProbability: averageLogProbability(segment: i)))
        }
        return (segments, tokens)
    }

    /// The mean log-probability of the segment's text tokens (special and timestamp tokens left
    /// out: they say where, not what).
    func averageLogProbability(segment: Int32) -> Float {
        let endOfText = whisper_token_eot(context)
        let logProbabilities = (0..<tokenCount(segment)).map { token(segment, $0) }.filter { $0.id < endOfText }.map(\.plog)
        return logProbabilities.isEmpty ? 0 : logProbabilities.reduce(0, +) / Float(logProbabilities.count)
    }

    /// The probability of the segment's last text token when it is a punctuation mark.
    func finalMarkProbability(segment: Int32) -> Float? {
        let endOfText = whisper_token_eot(context)
        for index in stride(from: tokenCount(segment) - 1, through: 0, by: -1) {
            let data = token(segment, index)
            guard data.id < endOfText else { continue }
            let text = tokenText(segment, index).trimmingCharacters(in: .whitespaces)
            return text.unicodeScalars.allSatisfy { CharacterSet.punctuationCharacters.contains($0) } && !text.isEmpty ? data.p : nil
        }
        return nil
    }
}
