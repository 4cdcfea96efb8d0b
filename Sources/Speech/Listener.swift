import Foundation

/// Captures answers from the microphone: 16 kHz mono float, with endpointing and a watchdog.
///
/// The record stream opens with the listener and stays open for the whole exchange (one audio
/// session), so a listen starts without waiting for a device; what arrives while nobody listens
/// (the question leaking from the speaker, for instance) is dropped, and each `listen()` first
/// flushes the server's buffer. Call `listen()` only after the question has been played.
// @unchecked: `session` is guarded by the PulseAudio mainloop lock; capture callbacks read it.
public final class Listener: @unchecked Sendable {
    public static let sampleRate = 16_000
    /// A microphone stream that delivers nothing for this long has failed.
    public static let defaultWatchdogTimeout: Double = 5

    public let server: AudioServer
    public let configuration: Endpointing.Configuration
    public let watchdogTimeout: Double
    private let capture: CaptureStream
    private var session: ListenSession?

    /// Opens the microphone `device` (nil: the server's default source) now, so a missing one
    /// is reported before the exchange starts.
    public init(server: AudioServer, device: String? = nil,
                configuration: Endpointing.Configuration = .default,
                watchdogTimeout: Double = Listener.defaultWatchdogTimeout) throws {
        self.server = server
        self.configuration = configuration
        self.watchdogTimeout = watchdogTimeout
        capture = try CaptureStream(server: server, device: device, sampleRate: Self.sampleRate)
        server.withLock {
            // Weak: a callback may run while the listener is being released on another thread.
            capture.onSamples = { [weak self] chunk, now in self?.session?.receive(chunk, at: now) }
            capture.onFailure = { [weak self] error in self?.session?.fail(error) }
        }
    }

    /// The name of the microphone in use.
    public var deviceName: String { server.withLock { capture.deviceName } }

    /// Seconds from opening the stream to its first audio (nil until audio has come).
    public var openingDelay: Double? {
        server.withLock {
            guard let ready = capture.readyAt, let first = capture.firstChunkAt else { return nil }
            return (first - ready).timeInterval
        }
    }

    /// Returns once the microphone has delivered its first audio, or after `timeout`. A new
    /// record stream can take a second or two to start; whatever is said before that is not
    /// captured at all, so a caller that listens right after opening waits here first.
    public func waitForFirstAudio(timeout: Double = Listener.defaultWatchdogTimeout) async {
        let opened = ContinuousClock.now
        while openingDelay == nil, (ContinuousClock.now - opened) < .seconds(timeout) {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Listens for one answer. Returns when the answer ended (`.endOfSpeech`,
    /// `.maximumLength`), when nobody spoke (`.noAnswer`, no audio returned), on `stop()`
    /// (`.stopped`) or when the task is cancelled (`.cancelled`), in the last two cases with what
    /// was captured so far. Throws `AudioError` when the microphone delivers nothing for the
    /// watchdog timeout, goes away, or the server is lost. `onEvent` runs on the audio thread.
    public func listen(configuration: Endpointing.Configuration? = nil,
                       onEvent: (@Sendable (ListenEvent) -> Void)? = nil) async throws -> ListenResult {
        let session = ListenSession(configuration: configuration ?? self.configuration,
                                    sampleRate: Self.sampleRate, watchdogTimeout: watchdogTimeout,
                                    device: deviceName, onEvent: onEvent)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                server.withLock {
                    session.install(continuation)
                    begin(session)
                }
            }
        } onCancel: {
            server.withLock { session.stop(.cancelled) }
        }
    }

    /// The transcript at the pause whose clip (from `.pause`) had `clipLength` samples was read:
    /// with an adaptive configuration, the answer now ends after `hangover` of silence.
    public func decidePause(hangover: Double, clipLength: Int) {
        server.withLock { session?.decidePause(hangover: hangover, clipLength: clipLength) }
    }

    /// Ends the current listen now, keeping what was heard (`.stopped`). For a key press that
    /// means "I am done"; cancel the listening task instead to abandon the answer.
    public func stop() {
        server.withLock { session?.stop(.stopped) }
    }

    /// Lock held.
    private func begin(_ session: ListenSession) {
        guard !session.isFinished else { return }
        if let failure = capture.failure { session.fail(failure); return }
        if self.session != nil { session.fail(AudioError.busy(.input)); return }
        self.session = session
        let watchdog = MainloopTimer(server: server, after: 0.05, repeating: 0.05) { [weak session] in
            session?.checkWatchdog(now: .now)
        }
        session.captureLatency = { [weak capture] in capture?.latency }
        session.onEnd = { [weak self, weak session] in
            watchdog.cancel()
            if let self, self.session === session { self.session = nil }
        }
        capture.flush { [weak session] in session?.arm() }
    }
}
