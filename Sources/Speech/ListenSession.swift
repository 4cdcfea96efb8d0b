import Foundation

/// One `listen()` in progress: the endpointing, the audio so far, and the continuation to
/// resume exactly once. Touched only with the mainloop lock held (from the read callback, the
/// watchdog timer, or a caller holding the lock).
// @unchecked: guarded by the PulseAudio mainloop lock; the read callback and the watchdog use it.
final class ListenSession: @unchecked Sendable {
    /// Audio kept in front of the detected speech start: the first voiced frame is detected
    /// late by a few milliseconds, and the recognizer does better with a little lead-in.
    static let preroll: Double = 0.3

    /// Silence after speech that counts as a pause worth speculating on (a `.pause` event):
    /// longer than the gaps between words, well inside the hangover.
    let pauseToSpeculate: Double
    private var pauseReported = false
    /// Audio between `.speaking` events while speech goes on (the first after 1 s of clip).
    static let speakingInterval = 0.5
    private var lastSpeakingAt = 0
    /// The length of the clip the latest `.pause` carried: a verdict on it names it.
    private var pauseClipLength: Int?

    let startedAt = ContinuousClock.now
    let watchdogTimeout: Double
    let device: String
    private var endpointing: Endpointing
    var configuration: Endpointing.Configuration { endpointing.configuration }
    private var samples: [Float] = []
    /// How many samples of the stream this session took in (its prefix aside): the endpoint.
    var heardCount: Int { samples.count }
    private let onEvent: (@Sendable (ListenEvent) -> Void)?
    /// Whether the server's buffer has been flushed: audio before that predates the listen.
    private var armed = false
    private var firstFrameAt: ContinuousClock.Instant?
    private var lastFrameAt: ContinuousClock.Instant?
    private var continuation: CheckedContinuation<ListenResult, Error>?
    private var outcome: Result<ListenResult, Error>?
    /// Samples of the latest chunk that came after the endpoint (they were not kept).
    private var unusedInLastChunk = 0
    /// Run once when the session ends (the listener forgets it, stops the watchdog, and keeps
    /// listening after an answer that ended at its silence).
    var onEnd: ((Result<ListenResult, Error>) -> Void)?
    /// For an answer heard on after it seemed over: its audio until then, in front of this
    /// session's (which then all belongs to the answer: no lead-in is cut).
    private var prefix: [Float] = []
    /// Asked at the end for the capture latency to report.
    var captureLatency: (() -> Double?)?

    init(configuration: Endpointing.Configuration, sampleRate: Int, watchdogTimeout: Double,
         device: String, onEvent: (@Sendable (ListenEvent) -> Void)?) {
        endpointing = Endpointing(configuration: configuration, sampleRate: sampleRate)
        pauseToSpeculate = configuration.pause
        self.watchdogTimeout = watchdogTimeout
        self.device = device
        self.onEvent = onEvent
    }

    var isFinished: Bool { outcome != nil }
    /// The room's level as this listen judged it (nil before its first frame).
    var noiseFloor: Double? { endpointing.noiseFloor }
    /// See `Endpointing.assumeFloor`.
    func assumeFloor(_ level: Double?) { endpointing.assumeFloor(level) }

    /// Hands over the continuation; resumes it at once if the session already ended.
    func install(_ continuation: CheckedContinuation<ListenResult, Error>) {
        if let outcome { continuation.resume(with: outcome) } else { self.continuation = continuation }
    }

    /// The flush is done: from now on chunks are the answer's audio.
    func arm() {
        guard !isFinished, !armed else { return }
        armed = true
        onEvent?(.state(.listening))
    }

    /// Continues an answer that seemed over: `answer` is its audio to the endpoint, `since`
    /// what the microphone heard after it, played through the endpointing now; the session is
    /// armed at once (nothing is flushed: that audio is the answer's).
    func resume(answer: [Float], since: [Float]) {
        guard !isFinished, !armed else { return }
        prefix = answer
        armed = true
        onEvent?(.state(.listening))
        // Nothing said yet is no audio: the watchdog and the level wait for the microphone.
        if !since.isEmpty { since.withUnsafeBufferPointer { receive($0, at: .now) } }
    }

    /// One chunk from the microphone.
    func receive(_ chunk: UnsafeBufferPointer<Float>, at now: ContinuousClock.Instant) {
        guard armed, !isFinished else { return }
        if firstFrameAt == nil { firstFrameAt = now }
        lastFrameAt = now
        let before = endpointing.state
        let used = endpointing.process(chunk)
        samples.append(contentsOf: chunk[0..<used])
        unusedInLastChunk = chunk.count - used
        onEvent?(.level(endpointing.level))
        if endpointing.state != before, endpointing.state == .hearingSpeech {
            onEvent?(.state(.hearingSpeech))
        }
        if let onEvent, let silence = endpointing.trailingSilence {
            if !pauseReported && silence >= pauseToSpeculate {
                pauseReported = true
                // Cut where `ListenResult.speech(margin:)` will cut the answer if it ends here.
                let clip = ListenResult.speech(clip(), clipStart: clipStart, speechEnd: endpointing.speechEnd,
                                               margin: pauseToSpeculate, sampleRate: endpointing.sampleRate)
                pauseClipLength = clip.count
                onEvent(.pause(clip: clip))
            } else if pauseReported && silence < pauseToSpeculate {
                pauseReported = false
                pauseClipLength = nil
                onEvent(.resumed)
            }
            let rate = Double(endpointing.sampleRate)
            if !pauseReported, clipLength >= Int(rate), clipLength - lastSpeakingAt >= Int(Self.speakingInterval * rate) {
                lastSpeakingAt = clipLength
                onEvent(.speaking(clip: Array(clip())))
            }
        }
        // An event handler may have stopped the listen already.
        if case .ended(let ending) = endpointing.state, !isFinished { finish(ending, at: now) }
    }

    /// The watchdog: fails when no audio came for `watchdogTimeout` since the listen began or
    /// since the last chunk, whichever is later.
    func checkWatchdog(now: ContinuousClock.Instant) {
        guard !isFinished else { return }
        let since = lastFrameAt ?? startedAt
        if (now - since) / .seconds(1) >= watchdogTimeout {
            fail(AudioError.microphoneSilent(device: device, seconds: watchdogTimeout))
        }
    }

    /// The transcript of the pause whose clip had `clipLength` samples was read: wait `hangover`
    /// from the end of speech. A verdict on an earlier pause (speech came back since) is ignored.
    func decidePause(hangover: Double, clipLength: Int) {
        guard !isFinished, pauseReported, pauseClipLength == clipLength else { return }
        endpointing.decidePause(hangover: hangover)
        if case .ended(let ending) = endpointing.state { finish(ending, at: .now) }
    }

    /// Ends the listen from outside, keeping what was captured.
    func stop(_ ending: AnswerEnding) {
        guard !isFinished else { return }
        endpointing.end(ending)
        finish(ending, at: .now)
    }

    func fail(_ error: Error) {
        guard !isFinished else { return }
        complete(.failure(error))
    }

    private func finish(_ ending: AnswerEnding, at now: ContinuousClock.Instant) {
        onEvent?(.state(.ended(ending)))
        complete(.success(result(ending, declaredAt: now)))
    }

    private func complete(_ result: Result<ListenResult, Error>) {
        outcome = result
        onEnd?(result)
        onEnd = nil
        continuation?.resume(with: result)
        continuation = nil
    }

    private func result(_ ending: AnswerEnding, declaredAt now: ContinuousClock.Instant) -> ListenResult {
        let rate = Double(endpointing.sampleRate)
        let latency = captureLatency?()
        var timing = ListenTiming(
            firstFrameDelay: firstFrameAt.map { ($0 - startedAt) / .seconds(1) },
            speechStart: endpointing.speechStart, speechEnd: endpointing.speechEnd,
            endpoint: Double(samples.count) / rate,
            declaredAfter: (now - startedAt) / .seconds(1),
            captureLatency: latency)
        if let lastFrameAt, let latency {
            timing.endpointLag = (now - lastFrameAt) / .seconds(1) + Double(unusedInLastChunk) / rate + latency
        }
        return ListenResult(ending: ending, samples: ending == .noAnswer ? [] : Array(clip()),
                            sampleRate: endpointing.sampleRate, clipStart: clipStart, timing: timing)
    }

    /// Where the answer's audio starts: a little before the detected speech; for an answer
    /// heard on, where its first part starts (before this session: negative).
    private var clipStart: Double {
        if !prefix.isEmpty { return -Double(prefix.count) / Double(endpointing.sampleRate) }
        return endpointing.speechStart.map { max(0, $0 - Self.preroll) } ?? 0
    }

    /// The length of `clip()`, without building it.
    private var clipLength: Int {
        if !prefix.isEmpty { return prefix.count + samples.count }
        return samples.count - min(samples.count, Int(clipStart * Double(endpointing.sampleRate)))
    }

    /// The answer's audio so far.
    private func clip() -> ArraySlice<Float> {
        if !prefix.isEmpty { return ArraySlice(prefix + samples) }
        return samples[min(samples.count, Int(clipStart * Double(endpointing.sampleRate)))...]
    }
}
