import Foundation

/// How one prompt was played, for latency work.
public struct PlaybackTiming: Sendable, Equatable {
    /// The silence put in front of the speech, in seconds.
    public var leadingSilence: Double
    /// Everything written: silence plus speech, in seconds.
    public var audioDuration: Double
    /// From the first write until the server confirmed the drain, in seconds.
    public var drainedAfter: Double
    /// The output device's latency waited for after the drain, in seconds.
    public var outputLatency: Double
}

/// One buffer on its way through a `PlaybackStream`. Its completion runs exactly once: played,
/// failed, or cancelled. Touched only with the mainloop lock held.
// @unchecked: guarded by the PulseAudio mainloop lock (its callbacks finish the job).
final class PlaybackJob: @unchecked Sendable {
    let samples: [Int16]
    let leadingSilence: Double
    let duration: Double
    var byteCount: Int { samples.count * MemoryLayout<Int16>.size }
    var written = 0
    var startedAt: ContinuousClock.Instant?
    var drainedAt: ContinuousClock.Instant?
    var outputLatency: Double = 0
    var timeout: MainloopTimer?
    private var completion: ((Result<PlaybackTiming, Error>) -> Void)?
    private var outcome: Result<PlaybackTiming, Error>?

    init(_ buffer: PCMBuffer, leadingSilence: Double) {
        samples = buffer.samples
        duration = buffer.duration
        self.leadingSilence = leadingSilence
    }

    var isFinished: Bool { outcome != nil }

    var timing: PlaybackTiming {
        var drained = 0.0
        if let startedAt, let drainedAt { drained = (drainedAt - startedAt) / .seconds(1) }
        return PlaybackTiming(leadingSilence: leadingSilence, audioDuration: duration,
                              drainedAfter: drained, outputLatency: outputLatency)
    }

    /// Sets what runs when the job ends; runs it at once if the job has ended already (it can
    /// be cancelled before it is started).
    func onFinish(_ completion: @escaping (Result<PlaybackTiming, Error>) -> Void) {
        if let outcome { completion(outcome) } else { self.completion = completion }
    }

    func finish(_ result: Result<PlaybackTiming, Error>) {
        guard outcome == nil else { return }
        outcome = result
        timeout?.cancel()
        timeout = nil
        completion?(result)
        completion = nil
    }
}
