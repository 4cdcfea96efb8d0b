import Foundation
@testable import Speech

/// Records a source (normally `speaker.monitor`) from creation until `stop()`. Tests compare
/// positions in the recording (which sound comes where, after which marker), not times.
final class MonitorRecorder: @unchecked Sendable {
    private let server: AudioServer
    private let capture: CaptureStream
    private var samples: [Float] = []

    init(source: String = "speaker.monitor", sampleRate: Int = 22_050, server: String? = nil) throws {
        self.server = try AudioServer(server: server, applicationName: "test recorder")
        capture = try CaptureStream(server: self.server, device: source, sampleRate: sampleRate, name: "monitor")
        self.server.withLock {
            capture.onSamples = { [weak self] chunk, _ in self?.samples.append(contentsOf: chunk) }
        }
    }

    /// Waits until the audio recorded so far satisfies `condition` (checked every 10 ms), or
    /// fails after `timeout`: a signal from the monitor instead of a guess at how long to sleep.
    func wait(timeout: Duration = .seconds(15), until condition: @escaping ([Float]) -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !server.withLock({ condition(samples) }) {
            guard ContinuousClock.now < deadline else { throw TestAudioError("the monitor did not hear what was awaited within \(timeout)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits until `count` markers (`TestAudio.marker`) have been heard.
    func waitForMarkers(_ count: Int) async throws {
        let rate = capture.sampleRate
        try await wait { TestAudio.markers(in: $0, sampleRate: rate).count >= count }
    }

    func stop() -> Recording {
        server.withLock {
            capture.onSamples = nil
            return Recording(samples: samples, sampleRate: capture.sampleRate)
        }
    }
}

/// Recorded audio: positions in it are the tests' clock.
struct Recording {
    var samples: [Float]
    var sampleRate: Int
}
