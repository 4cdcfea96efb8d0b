import Foundation

/// Feeds the `stallmic` pipe source through its FIFO: whatever is written at real-time pace is
/// what the "microphone" delivers, and when the writing stops, the microphone stalls.
final class PipeMicrophone: @unchecked Sendable {
    let path: String
    private let descriptor: Int32

    init(directory: String, name: String = "stallmic") throws {
        path = "\(directory)/\(name).fifo"
        // The server holds the FIFO open for reading, so this does not block.
        descriptor = open(path, O_WRONLY | O_NONBLOCK)
        guard descriptor >= 0 else { throw TestAudioError("cannot open \(path): errno \(errno)") }
    }

    deinit { close(descriptor) }

    /// Writes 16 kHz s16 mono samples in 20 ms chunks on a real-time schedule, then returns
    /// (and the microphone stalls, because nothing more comes).
    func feed(_ samples: [Int16], sampleRate: Int = 16_000) async throws {
        let chunk = sampleRate / 50
        let clock = ContinuousClock()
        let start = clock.now
        var offset = 0
        while offset < samples.count {
            let count = min(chunk, samples.count - offset)
            let written = samples[offset..<(offset + count)].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == count * 2 else { throw TestAudioError("short write to \(path)") }
            offset += count
            try await clock.sleep(until: start + .seconds(Double(offset) / Double(sampleRate)))
        }
    }
}
