import Foundation

/// `transcribe FILE`: a recording is transcribed for accuracy, not turn latency, and an empty
/// result says which kind of empty it is.
public enum FileTranscription {
    /// The full 30 s encoder window and beam search, as whisper-cli does; `fast` keeps the
    /// dialogue's settings (greedy, window fitted to the clip), and `greedyLanguages` decode as
    /// the dialogue does. Timestamp tokens only with `segmentTimes` (`--json`): decoded with
    /// them, the text of real speech came out worse (eval speech, test part: en .162 against
    /// .086 without, fr .136 against .114; the dev part the same either way, en .019, es .077,
    /// fr .224), a keyboard clip gave ". . . Thank you very much." instead of nothing, and the
    /// set took 58.8 s against 51.0 s. Without them whisper gives one segment per 30 s window.
    public static func options(language: String, fast: Bool, segmentTimes: Bool = false) -> TranscriptionOptions {
        var options = TranscriptionOptions(language: language)
        if fast { return options }
        options.timestamps = segmentTimes
        if !greedyLanguages.contains(language) {
            options.fitAudioContextToClip = false
            options.beamSize = 5
        }
        return options
    }

    /// Languages the dialogue's settings transcribe better than beam search over 30 s, and 3×
    /// faster: chosen on the real-speech set's dev part (eval speech, WER: es .077 against
    /// .103, fr .224 against .254; en even at .019, so it keeps whisper-cli's beam), confirmed
    /// on the test part (es .059 against .078, fr .125 against .159). Few clips (es 2 dev, fr
    /// 4): measure again as the set grows.
    static let greedyLanguages: Set<String> = ["es", "fr"]

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
    /// `{"language":…,"segments":[{"end","start","text"}],"text":…}`
    public var jsonLine: String {
        struct Segment: Encodable { let start: Double; let end: Double; let text: String }
        struct Output: Encodable { let text: String; let language: String; let segments: [Segment] }
        let output = Output(text: text, language: language, segments: segments.map {
            Segment(start: $0.start, end: $0.end, text: $0.text.trimmingCharacters(in: .whitespaces))
        })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(output)) ?? Data(), as: UTF8.self)
    }
}
