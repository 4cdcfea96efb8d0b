import Foundation
@testable import Speech

/// Small measurements on audio used to compare what was played with what was heard.
enum Signal {
    static func floats(_ buffer: PCMBuffer) -> [Float] { buffer.samples.map { Float($0) / 32768 } }

    /// Linear-interpolation resampling: plenty for levels and alignment in tests.
    static func resample(_ samples: [Float], from source: Int, to target: Int) -> [Float] {
        guard source != target, !samples.isEmpty else { return samples }
        let count = Int(Double(samples.count) * Double(target) / Double(source))
        return (0..<count).map { i in
            let position = Double(i) * Double(source) / Double(target)
            let left = Int(position)
            let right = min(left + 1, samples.count - 1)
            let fraction = Float(position - Double(left))
            return samples[left] * (1 - fraction) + samples[right] * fraction
        }
    }

    static func int16(_ samples: [Float]) -> [Int16] {
        samples.map { Int16(max(-32768, min(32767, ($0 * 32768).rounded()))) }
    }

    static func rms(_ samples: ArraySlice<Float>) -> Float {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0) { $0 + $1 * $1 } / Float(samples.count)).squareRoot()
    }

    /// The first sample louder than `threshold`.
    static func onset(_ samples: [Float], threshold: Float = 0.002) -> Int? {
        samples.firstIndex { abs($0) > threshold }
    }

    /// Where a sound that lasts begins: the first sample louder than `threshold` in the first
    /// 5 ms window louder than `level` (-40 dBFS). Unlike `onset`, it does not take a click of
    /// a few samples for a sound.
    static func lastingOnset(_ samples: [Float], sampleRate: Int, level: Float = 0.01, threshold: Float = 0.002) -> Int? {
        let window = sampleRate / 200
        guard samples.count >= window else { return nil }
        let loud = level * level * Float(window)
        var energy = samples[..<window].reduce(0) { $0 + $1 * $1 }
        for start in 0...(samples.count - window) {
            if start > 0 {
                energy += samples[start + window - 1] * samples[start + window - 1] - samples[start - 1] * samples[start - 1]
            }
            if energy > loud {
                return samples[start..<(start + window)].firstIndex { abs($0) > threshold }
            }
        }
        return nil
    }

    /// The end of the last 10 ms window louder than `level` (-50 dBFS): the audible end.
    static func audibleEnd(_ samples: [Float], sampleRate: Int, level: Float = 0.00316) -> Int? {
        let window = sampleRate / 100
        var end: Int?
        var start = 0
        while start + window <= samples.count {
            if rms(samples[start..<(start + window)]) > level { end = start + window }
            start += window
        }
        return end
    }

    /// Normalized correlation of `b` against `a` shifted by `lag` (b[i] ~ a[i + lag]).
    static func correlation(_ a: [Float], _ b: [Float], lag: Int) -> Double {
        var dot = 0.0, aa = 0.0, bb = 0.0
        for i in b.indices where i + lag >= 0 && i + lag < a.count {
            let x = Double(a[i + lag]), y = Double(b[i])
            dot += x * y; aa += x * x; bb += y * y
        }
        return aa > 0 && bb > 0 ? dot / (aa * bb).squareRoot() : 0
    }

    /// The lag within `around ± radius` where `b` best matches `a`, and how well.
    static func align(_ a: [Float], _ b: [Float], around: Int, radius: Int) -> (lag: Int, correlation: Double) {
        var best = (lag: around, correlation: -1.0)
        for lag in (around - radius)...(around + radius) {
            let c = correlation(a, b, lag: lag)
            if c > best.correlation { best = (lag, c) }
        }
        return best
    }
}
