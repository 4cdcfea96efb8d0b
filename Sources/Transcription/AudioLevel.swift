/// Loudness checks that keep silence away from whisper, which invents words ("Thank you for
/// watching") when given nothing to hear.
public enum AudioLevel {
    /// Root-mean-square level of a stretch of samples in [-1, 1].
    public static func rms<C: Collection>(_ samples: C) -> Float where C.Element == Float {
        guard !samples.isEmpty else { return 0 }
        var sum: Float = 0
        for s in samples { sum += s * s }
        return (sum / Float(samples.count)).squareRoot()
    }

    /// True when at least ~0.2 s (in 20 ms frames at 16 kHz) rise above a speech threshold
    /// (-45 dBFS): silence, digital zeros or a faint hum do not count.
    public static func containsSpeechEnergy(_ samples: [Float], sampleRate: Int = 16_000,
                                            threshold: Float = 0.0056) -> Bool {
        loudFrames(samples, sampleRate: sampleRate, threshold: threshold).filter { $0 }.count >= 10
    }

    /// The longest stretch, in seconds, of 20 ms frames all above `threshold`. A voice holds
    /// its sound through words (0.66 s or longer in every real-speech clip); a keyboard's clicks
    /// stop between keys (0.18 s at most on the set's two keyboard recordings).
    public static func longestSound(_ samples: [Float], sampleRate: Int = 16_000, threshold: Float = 0.0056) -> Double {
        var run = 0, longest = 0
        for loud in loudFrames(samples, sampleRate: sampleRate, threshold: threshold) {
            run = loud ? run + 1 : 0
            longest = max(longest, run)
        }
        return Double(longest) / 50
    }

    /// Whether each 20 ms frame rises above `threshold`.
    static func loudFrames(_ samples: [Float], sampleRate: Int, threshold: Float) -> [Bool] {
        let frame = sampleRate / 50
        guard frame > 0 else { return [] }
        return stride(from: 0, through: samples.count - frame, by: frame).map { rms(samples[$0..<($0 + frame)]) > threshold }
    }
}
