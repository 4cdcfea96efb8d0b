import DialogueCore
import Foundation
import Transcription

/// The last seconds of the answer so far, transcribed at a pause only to read how finished the
/// answer sounds (`TurnCompletion` needs its last words and mark), in a small encoder window, so
/// the reading could be in before the whole answer's transcript. Measured only
/// (`eval turns --tail-verdict`), not used by the listener: a reading comes no sooner than the
/// pause plus whisper's time for the tail, which leaves no room in a short wait, and the tails
/// read worse than the whole answer: without the sentence before it whisper is less sure of the
/// final mark (the figures: scripts/speech.md, "Behind the evaluation code").
public struct TurnTail: Sendable, Equatable {
    /// How much of the answer's end is read.
    public var seconds: Double
    /// The encoder's window in frames; nil: fitted to the tail (`audioContext(forSamples:)`).
    public var window: Int32?

    public init(seconds: Double, window: Int32? = nil) {
        self.seconds = seconds
        self.window = window
    }

    /// How far before `seconds` from the end the cut may move to find a quiet frame.
    public static let searchSeconds = 0.25
    static let frameSeconds = 0.02

    /// The tail of `samples` (the answer so far, its pause's silence last): from `seconds`
    /// before the end, moved earlier by up to `searchSeconds` to the start of the quietest 20 ms
    /// frame, so it does not start inside a word whisper would then guess at. All of `samples`
    /// when they are no longer.
    public func clip(of samples: [Float], rate: Int) -> ArraySlice<Float> {
        samples[Self.start(in: samples, seconds: seconds, rate: rate)...]
    }

    static func start(in samples: [Float], seconds: Double, rate: Int) -> Int {
        let frame = Int(frameSeconds * Double(rate))
        let latest = samples.count - Int(seconds * Double(rate))
        guard latest > 0 else { return 0 }
        let earliest = max(0, latest - Int(searchSeconds * Double(rate)))
        func level(_ start: Int) -> Float { AudioLevel.rms(samples[start..<min(samples.count, start + frame)]) }
        return stride(from: latest, through: earliest, by: -frame).min { level($0) < level($1) } ?? latest
    }

    /// The encoder window for a tail of `count` samples at whisper's rate: the clip plus 0.25 s
    /// (a whole answer gets 0.6 s and at least 256 frames), in steps of 64 frames (1.28 s), at
    /// least 64.
    public static func audioContext(forSamples count: Int) -> Int32 {
        Transcriber.audioContext(forSamples: count, step: 64, least: 64, margin: 0.25)
    }

    /// The options to transcribe `clip` (from `clip(of:rate:)`, at whisper's rate) with.
    public func options(for clip: ArraySlice<Float>, language: Language) -> TranscriptionOptions {
        var options = TranscriptionOptions(language: language.code)
        options.audioContext = window ?? Self.audioContext(forSamples: clip.count)
        return options
    }
}
