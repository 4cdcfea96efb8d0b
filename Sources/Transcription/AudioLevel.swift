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
        let frame = sampleRate / 50
        guard frame > 0 else { return false }
        var loud = 0
        var start = 0
        while start + frame <= samples.count {
            if rms(samples[start..<(start + frame)]) > threshold { loud += 1 }
            if loud >= 10 { return true }
            start += frame
        }
        return false
    }
}
