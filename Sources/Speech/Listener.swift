import Foundation

/// Captures answers from the microphone: 16 kHz mono float, with endpointing and a watchdog.
///
/// The record stream opens with the listener and stays open for the whole exchange (one audio
/// session): everything it hears goes into one recording (`AnswerStream`), and each answer is a
/// span of it, so a listen starts without waiting for a device and nothing said between two
/// listens is lost. Call `listen()` after the question has been played (`questionEnds()`).
// @unchecked: `stream` is guarded by the PulseAudio mainloop lock; capture callbacks feed it.
public final class Listener: @unchecked Sendable {
    public static let sampleRate = 16_000
    /// A microphone stream that delivers nothing for this long has failed.
    public static let defaultWatchdogTimeout: Double = 5

    public let server: AudioServer
    public let configuration: Endpointing.Configuration
    public let watchdogTimeout: Double
    private let capture: CaptureStream
    private let stream = AnswerStream(sampleRate: Listener.sampleRate)

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
            capture.onSamples = { [weak self] chunk, now in self?.stream.receive(chunk, at: now) }
            capture.onFailure = { [weak self] error in self?.stream.session?.fail(error) }
        }
    }

    /// How the program's own voice is kept out of what the microphone hears: it decides whether
    /// the person can talk over a question (barge-in).
    public enum OwnVoice: String, Sendable {
        /// The microphone is the server's echo canceller (module-echo-cancel): the person can
        /// talk over a question, which then stops.
        case echoCancelled
        /// The output cannot reach the microphone (a private server's virtual devices).
        case unheard
        /// A loudspeaker may be heard by the microphone: the program takes its own question out
        /// (`questionStarts(playing:)`), and listens over it once that works; without the
        /// question's samples, what is said once it plays is not listened for.
        case mayBeHeard
    }

    /// Set once at the start of an exchange (`detectEchoCancellation()` finds it for a real device).
    public var ownVoice: OwnVoice {
        get { server.withLock { stream.ownVoice } }
        set { server.withLock { stream.ownVoice = newValue } }
    }

    /// `.echoCancelled` when the microphone in use is one the server's echo canceller made.
    public func detectEchoCancellation() throws {
        let cancelled = try server.info().echoCancelledSources.contains(deviceName)
        if cancelled { ownVoice = .echoCancelled }
    }

    /// A question starts playing (see `AnswerStream.questionStarts`). With `playing`, the
    /// buffer the speaker plays after `leadingSilence`: where the microphone may hear it, its
    /// echo is taken out in process.
    public func questionStarts(playing: PCMBuffer? = nil, leadingSilence: Double = 0) {
        let reference = playing.map { buffer in
            StreamingResampler.convert(buffer.withLeadingSilence(seconds: leadingSilence).samples.map { Float($0) / 32768 },
                                       from: buffer.sampleRate, to: Self.sampleRate)
        }
        server.withLock { stream.questionStarts(configuration: configuration, playing: reference) }
    }

    /// The question has played, or was `stopped` before its end: the next answer is heard
    /// from here.
    public func questionEnds(stopped: Bool = false) {
        server.withLock { stream.questionEnds(stopped: stopped) }
    }

    /// The name of the microphone in use.
    public var deviceName: String { server.withLock { capture.deviceName } }

    /// Seconds from opening the stream to its first audio (nil until audio has come).
    public var openingDelay: Double? {
        server.withLock {
            guard let ready = capture.readyAt, let first = capture.firstChunkAt else { return nil }
            return (first - ready) / .seconds(1)
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
    ///
    /// With `continuing`, after `speechResumed()` said the person went on: the same answer is
    /// heard on, and the result holds all of it (the audio before the endpoint, and everything
    /// since). Without a resumed answer to continue, it is an ordinary listen.
    public func listen(configuration: Endpointing.Configuration? = nil, continuing: Bool = false,
                       onEvent: (@Sendable (ListenEvent) -> Void)? = nil) async throws -> ListenResult {
        let session = ListenSession(configuration: configuration ?? self.configuration,
                                    sampleRate: Self.sampleRate, watchdogTimeout: watchdogTimeout,
                                    device: deviceName, onEvent: onEvent)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                server.withLock {
                    session.install(continuation)
                    begin(session, continuing: continuing)
                }
            }
        } onCancel: {
            server.withLock { session.stop(.cancelled) }
        }
    }

    /// While a question plays (or before it): what the person says over it as soon as they
    /// speak (at once if they already have); nil when the next listen begins, after
    /// `Afterword.longest`, when the task is cancelled, or where they cannot be told from the
    /// question. The caller stops the question, and then continues the answer with
    /// `listen(continuing: true)` or hears the next one with `listen()`.
    public func speechOverQuestion() async -> SpeechOverQuestion? {
        let heard = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                server.withLock { stream.waitForSpeech(continuation, configuration: configuration) }
            }
        } onCancel: {
            server.withLock { stream.cancelWaiters() }
        }
        return heard ? server.withLock { stream.speechOverQuestion } : nil
    }

    /// The transcript at the pause whose clip (from `.pause`) had `clipLength` samples was read:
    /// with an adaptive configuration, the answer now ends after `hangover` of silence.
    public func decidePause(hangover: Double, clipLength: Int) {
        server.withLock { stream.session?.decidePause(hangover: hangover, clipLength: clipLength) }
    }

    /// Ends the current listen now, keeping what was heard (`.stopped`). For a key press that
    /// means "I am done"; cancel the listening task instead to abandon the answer.
    public func stop() {
        server.withLock { stream.session?.stop(.stopped) }
    }

    /// Lock held.
    private func begin(_ session: ListenSession, continuing: Bool) {
        guard !session.isFinished else { return }
        if let failure = capture.failure { session.fail(failure); return }
        if stream.session != nil { session.fail(AudioError.busy(.input)); return }
        let watchdog = MainloopTimer(server: server, after: 0.05, repeating: 0.05) { [weak session] in
            session?.checkWatchdog(now: .now)
        }
        session.captureLatency = { [weak capture] in capture?.latency }
        session.onEnd = { [weak self, weak session] result in
            watchdog.cancel()
            guard let self, let session else { return }
            self.stream.end(session, with: result)
        }
        stream.begin(session, continuing: continuing) { [capture] armed in capture.flush(armed) }
    }
}
