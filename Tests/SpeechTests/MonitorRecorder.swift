import Foundation
@testable import Speech

/// Records a source (normally `speaker.monitor`) from creation until `stop()`, with the arrival
/// time of every chunk, so a test can say when each recorded sample was heard.
final class MonitorRecorder: @unchecked Sendable {
    private let server: AudioServer
    private let capture: CaptureStream
    private var samples: [Float] = []
    private var chunks: [(end: Int, arrivedAt: ContinuousClock.Instant)] = []

    init(source: String = "speaker.monitor", sampleRate: Int = 22_050) throws {
        server = try AudioServer(applicationName: "test recorder")
        capture = try CaptureStream(server: server, device: source, sampleRate: sampleRate, name: "monitor")
        server.withLock {
            capture.onSamples = { [weak self] chunk, now in
                guard let self else { return }
                samples.append(contentsOf: chunk)
                chunks.append((samples.count, now))
            }
        }
    }

    func stop() -> Recording {
        server.withLock {
            capture.onSamples = nil
            return Recording(samples: samples, sampleRate: capture.sampleRate, chunks: chunks,
                             latency: capture.latency ?? 0)
        }
    }
}

/// Recorded audio with the wall-clock time each sample was heard.
struct Recording {
    var samples: [Float]
    var sampleRate: Int
    var chunks: [(end: Int, arrivedAt: ContinuousClock.Instant)]
    /// The source latency the server reported: audio arrives this much after it was heard.
    var latency: Double

    /// When sample `index` passed through the source. The source runs on a steady clock while
    /// chunks reach us late by varying amounts (a busy machine), so the least delayed chunk
    /// fixes the clock: every other one only arrived later than it could have.
    func time(ofSample index: Int) -> ContinuousClock.Instant? {
        guard index >= 0, let first = chunks.first else { return nil }
        let rate = Double(sampleRate)
        var earliest = 0.0
        for chunk in chunks {
            earliest = min(earliest, (chunk.arrivedAt - first.arrivedAt).seconds - Double(chunk.end - first.end) / rate)
        }
        return first.arrivedAt + .seconds(earliest + Double(index - first.end) / rate - latency)
    }

    /// The first sample heard at or after `instant`.
    func firstSample(heardAtOrAfter instant: ContinuousClock.Instant) -> Int? {
        guard let zero = time(ofSample: 0) else { return nil }
        let index = max(0, Int(((instant - zero).seconds * Double(sampleRate)).rounded(.up)))
        return index < samples.count ? index : nil
    }
}
