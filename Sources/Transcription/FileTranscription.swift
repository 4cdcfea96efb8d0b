import Foundation

/// `transcribe FILE`: a recording is transcribed for accuracy, not turn latency, and an empty
/// result says which kind of empty it is.
public enum FileTranscription {
    /// The full 30 s encoder window and beam search, as whisper-cli does; `fast` keeps the
    /// dialogue's settings (greedy, window fitted to the clip). Timestamp tokens only with
    /// `segmentTimes` (`--json`): decoded with them, real speech read worse, a keyboard clip
    /// became words, and the set took longer; without them whisper gives one segment per 30 s
    /// window. Every language is decoded this way: the beam read Spanish and French better than
    /// greedy decoding, for about 4× the time (scripts/speech.md, "Figures behind the code").
    public static func options(language: String, fast: Bool, segmentTimes: Bool = false) -> TranscriptionOptions {
        var options = TranscriptionOptions(language: language)
        if fast { return options }
        options.timestamps = segmentTimes
        options.fitAudioContextToClip = false
        options.beamSize = 5
        return options
    }

    /// Why a recording gave no words: nothing louder than a whisper of noise (silent), or
    /// sound that is not speech, a tone, a knock, a hum (no speech found).
    public enum Emptiness: Equatable {
        case silent
        case noSpeech

        public func message(file: String) -> String {
            switch self {
            case .silent: "\(file): the recording is silent; nothing to transcribe."
            case .noSpeech: "\(file): no speech found (there is sound, but no words were heard)."
            }
        }
    }

    /// Peaks below about -45 dBFS are silence; anything louder is sound of some kind.
    public static func emptiness(of samples: [Float], quietLevel: Float = HallucinationFilter().quietLevel) -> Emptiness {
        samples.contains { abs($0) > quietLevel * 2 } ? .noSpeech : .silent
    }
}

extension Transcript {
    /// What `transcribe --json` prints: `{"language":…,"segments":[{"end","start","text"}],"text":…}`.
    public struct Output: Encodable {
        struct Segment: Encodable { let start: Double; let end: Double; let text: String }
        let text: String
        let language: String
        let segments: [Segment]
    }

    public var output: Output {
        Output(text: text, language: language, segments: segments.map {
            Output.Segment(start: $0.start, end: $0.end, text: $0.text.trimmingCharacters(in: .whitespaces))
        })
    }
}
