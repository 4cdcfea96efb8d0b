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
}
