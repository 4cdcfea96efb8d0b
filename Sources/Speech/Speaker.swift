import Foundation
import Synchronization

/// Plays rendered questions through PulseAudio, each as a single buffer with a little real
/// silence in front, and returns only once the sound has really been played, so the listener
/// never starts while the question is still coming out of the speaker.
public final class Speaker: Sendable {
    /// 0.24 s before the first prompt of an exchange, while the output path wakes up: without
    /// it the first ~20 ms of the question were cut. Later prompts play through the stream kept
    /// open, so 0.02 s is enough; every millisecond of it is turn latency.
    public static let firstPromptSilence: Double = 0.24
    public static let laterPromptSilence: Double = 0.02

    public let server: AudioServer
    /// The output asked for; nil means the server's default.
    public let device: String?
    /// The output stream (replaced for another sample rate), and whether it has played yet.
    private let output: Mutex<(stream: PlaybackStream, hasPlayed: Bool)>

    /// Opens the output now, so a missing device is reported before the exchange starts.
    /// `sampleRate` is the rate of the buffers to come (espeak-ng renders 22,050 Hz).
    public init(server: AudioServer, device: String? = nil, sampleRate: Int = 22_050) throws {
        self.server = server
        self.device = device
        output = Mutex((try PlaybackStream(server: server, device: device, sampleRate: sampleRate), false))
    }

    /// The name of the output device in use.
    public var deviceName: String { output.withLock { $0.stream.deviceName } }

    /// The silence `play` puts in front of the next buffer by default.
    public var nextLeadingSilence: Double {
        output.withLock { $0.hasPlayed ? Self.laterPromptSilence : Self.firstPromptSilence }
    }

    /// Plays `buffer` and returns when it has been played back. `leadingSilence` defaults to
    /// the first-prompt silence on this speaker's first play and the later-prompt silence after.
    /// Cancelling the task stops the sound at once and throws `CancellationError`.
    @discardableResult
    public func play(_ buffer: PCMBuffer, leadingSilence: Double? = nil) async throws -> PlaybackTiming {
        let (output, silence) = try self.output.withLock { state throws -> (PlaybackStream, Double) in
            let silence = leadingSilence ?? (state.hasPlayed ? Self.laterPromptSilence : Self.firstPromptSilence)
            state.hasPlayed = true
            if state.stream.sampleRate != buffer.sampleRate {
                state.stream = try PlaybackStream(server: server, device: device, sampleRate: buffer.sampleRate)
            }
            return (state.stream, silence)
        }
        let job = PlaybackJob(buffer.withLeadingSilence(seconds: silence), leadingSilence: silence)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                server.withLock { job.onFinish { continuation.resume(with: $0) } }
                output.start(job)
            }
        } onCancel: {
            output.cancel(job)
        }
    }
}
