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

    /// Why a recording gave no words: nothing louder than a whisper of noise (silent), a sound
    /// that never changes, static, a fan, a hum (steady), or sound that is not speech, a knock,
    /// a tone too short to matter (no speech found).
    public enum Emptiness: Equatable {
        case silent
        case steady
        case noSpeech

        public func message(file: String) -> String {
            switch self {
            case .silent: "\(file): the recording is silent; nothing to transcribe."
            case .steady: "\(file): no speech found: the sound is steady (noise, a hum or a tone), without the rise and fall of a voice."
            case .noSpeech: "\(file): no speech found (there is sound, but no words were heard)."
            }
        }
    }

    /// Peaks below about -45 dBFS are silence; a loud sound that never changes is steady;
    /// anything else is sound of some kind.
    public static func emptiness(of samples: [Float], quietLevel: Float = HallucinationFilter().quietLevel) -> Emptiness {
        guard samples.contains(where: { abs($0) > quietLevel * 2 }) else { return .silent }
        return isSteady(samples) ? .steady : .noSpeech
    }

    /// A voice rises and falls between syllables and words; static, a fan or a hum keep one
    /// level. Ten minutes of white noise were transcribed as "you", so a recording whose 20 ms
    /// levels stay within `range` dB (from the 5th to the 99th percentile: a voice in 1 % of
    /// the frames still counts) for at least a second is not given to whisper at all.
    public static func isSteady(_ samples: [Float], sampleRate: Int = 16_000, range: Float = 3) -> Bool {
        let frame = sampleRate / 50
        guard frame > 0, samples.count >= sampleRate else { return false }
        let levels = stride(from: 0, through: samples.count - frame, by: frame)
            .map { 20 * log10(max(AudioLevel.rms(samples[$0..<($0 + frame)]), 1e-6)) }.sorted()
        let low = levels[levels.count * 5 / 100], high = levels[levels.count * 99 / 100]
        return high - low < range
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
