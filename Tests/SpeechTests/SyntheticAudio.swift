import Foundation

/// Deterministic test signals at 16 kHz: silence, noise and voice-like sound at chosen levels,
/// so endpointing can be tested without a microphone.
struct SyntheticAudio {
    static let sampleRate = 16_000
    private(set) var samples: [Float] = []
    private var seed: UInt64 = 0x9E37_79B9_7F4A_7C15

    var duration: Double { Double(samples.count) / Double(Self.sampleRate) }

    static func amplitude(dBFS: Double) -> Float { Float(pow(10, dBFS / 20)) }

    mutating func silence(_ seconds: Double) -> Self {
        samples += Array(repeating: 0, count: count(seconds)); return self
    }

    /// White noise whose RMS is `dBFS`.
    mutating func noise(_ seconds: Double, dBFS: Double) -> Self {
        let peak = Self.amplitude(dBFS: dBFS) * Float(3).squareRoot()  // uniform in [-a, a] has RMS a/√3
        for _ in 0..<count(seconds) { samples.append(nextUniform() * peak) }
        return self
    }

    /// A vowel-like tone (150 Hz with harmonics) whose RMS is about `dBFS`, optionally over noise.
    mutating func voice(_ seconds: Double, dBFS: Double, noiseDBFS: Double? = nil) -> Self {
        let amplitude = Self.amplitude(dBFS: dBFS) * 1.2
        let noise = noiseDBFS.map { Self.amplitude(dBFS: $0) * Float(3).squareRoot() } ?? 0
        let start = samples.count
        for i in 0..<count(seconds) {
            let t = Double(start + i) / Double(Self.sampleRate)
            let tone = (sin(2 * .pi * 150 * t) + 0.5 * sin(2 * .pi * 300 * t) + 0.3 * sin(2 * .pi * 450 * t)) / 1.2
            samples.append(Float(tone) * amplitude + (noise > 0 ? nextUniform() * noise : 0))
        }
        return self
    }

    /// Syllables: `count` bursts of voice `on` seconds long separated by `off` seconds of `gapDBFS`.
    mutating func syllables(_ count: Int, on: Double, off: Double, dBFS: Double, gapDBFS: Double? = nil) -> Self {
        for _ in 0..<count {
            _ = voice(on, dBFS: dBFS)
            _ = gapDBFS.map { noise(off, dBFS: $0) } ?? silence(off)
        }
        return self
    }

    /// A click: a few milliseconds of full-scale noise.
    mutating func click(_ seconds: Double = 0.02, dBFS: Double = -6) -> Self { noise(seconds, dBFS: dBFS) }

    private func count(_ seconds: Double) -> Int { Int((seconds * Double(Self.sampleRate)).rounded()) }

    private mutating func nextUniform() -> Float {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Float(Double(seed >> 11) / Double(1 << 53)) * 2 - 1
    }
}

func makeAudio(_ build: (inout SyntheticAudio) -> Void) -> [Float] {
    var audio = SyntheticAudio()
    build(&audio)
    return audio.samples
}
