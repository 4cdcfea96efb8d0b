/// Mono 16-bit PCM in memory. No voice is ever written to disk.
public struct PCMBuffer: Sendable, Equatable {
    public var sampleRate: Int
    public var samples: [Int16]
    public init(sampleRate: Int, samples: [Int16]) {
        self.sampleRate = sampleRate
        self.samples = samples
    }
    public var duration: Double { Double(samples.count) / Double(sampleRate) }

    /// A copy with `seconds` of digital silence in front, as one contiguous buffer. The silence
    /// is played through the already open stream: a pause taken before writing (a sleep) does
    /// not open the output path and the start of the speech gets clipped instead.
    public func withLeadingSilence(seconds: Double) -> PCMBuffer {
        let count = max(0, Int((seconds * Double(sampleRate)).rounded()))
        var copy = [Int16](repeating: 0, count: count)
        copy.reserveCapacity(count + samples.count)
        copy.append(contentsOf: samples)
        return PCMBuffer(sampleRate: sampleRate, samples: copy)
    }

    /// A copy without the silence in front of the first sample above `level`, but `keeping` of
    /// it: espeak-ng starts some prompts with up to 50 ms of near-silence, which only delays
    /// the question after a decision. A buffer that never rises above `level` is kept whole.
    public func trimmingLeadingSilence(above level: Int16 = 64, keeping seconds: Double = 0.005) -> PCMBuffer {
        guard let first = samples.firstIndex(where: { $0 > level || $0 < -level }) else { return self }
        let start = max(0, first - Int((seconds * Double(sampleRate)).rounded()))
        return PCMBuffer(sampleRate: sampleRate, samples: Array(samples[start...]))
    }
}
