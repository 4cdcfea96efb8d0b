import CPulse
import Foundation

/// One PulseAudio record stream delivering mono (or interleaved) 32-bit float samples through
/// the asynchronous API. A read callback hands each chunk on; nothing ever blocks waiting for
/// audio, so a dead microphone cannot hang the program and closing the stream always returns.
/// Everything but `init` runs with the mainloop lock held.
final class CaptureStream {
    /// Size of the chunks the server sends. Small enough that the end of an answer is seen
    /// within a few tens of milliseconds, large enough not to wake up needlessly.
    static let fragmentDuration: TimeInterval = 0.02

    let server: AudioServer
    let sampleRate: Int
    let channels: Int
    private let stream: OpaquePointer
    private(set) var deviceName: String = ""
    private var closed = false
    private var ready = false
    /// When the stream became ready and when its first chunk arrived (the first-frame delay).
    private(set) var readyAt: ContinuousClock.Instant?
    private(set) var firstChunkAt: ContinuousClock.Instant?
    /// Why the stream stopped, once it has.
    private(set) var failure: AudioError?
    private var scratch: [Float] = []

    /// Receives each chunk, with the time it arrived.
    var onSamples: ((UnsafeBufferPointer<Float>, ContinuousClock.Instant) -> Void)?
    /// Told once when the stream fails (device removed, server gone).
    var onFailure: ((AudioError) -> Void)?

    init(server: AudioServer, device: String?, sampleRate: Int, channels: Int = 1,
         name: String = "answer") throws {
        self.server = server
        self.sampleRate = sampleRate
        self.channels = channels
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(sampleRate), channels: UInt8(channels))
        guard let stream = server.withLock({ pa_stream_new(server.context, name, &spec, nil) }) else {
            throw AudioError.streamFailed(.input, name: device, reason: "the stream could not be created")
        }
        self.stream = stream
        let me = Unmanaged.passUnretained(self).toOpaque()
        try server.setUp(closingWith: close) {
            pa_stream_set_state_callback(stream, { _, data in
                Unmanaged<CaptureStream>.fromOpaque(data!).takeUnretainedValue().stateChanged()
            }, me)
            pa_stream_set_read_callback(stream, { _, _, data in
                Unmanaged<CaptureStream>.fromOpaque(data!).takeUnretainedValue().read()
            }, me)
            var attr = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max,
                                      minreq: UInt32.max,
                                      fragsize: byteCount(seconds: Self.fragmentDuration, spec: spec))
            // DONT_MOVE: a microphone that goes away fails the exchange instead of the
            // answer quietly continuing from another device.
            let flags = streamFlags(PA_STREAM_ADJUST_LATENCY, PA_STREAM_DONT_MOVE,
                                    PA_STREAM_AUTO_TIMING_UPDATE, PA_STREAM_INTERPOLATE_TIMING)
            if pa_stream_connect_record(stream, device, &attr, flags) < 0 {
                throw server.failure(of: stream, role: .input, device: device, wasReady: false)
            }
            deviceName = try server.waitUntilReady(stream, role: .input, device: device)
            ready = true
            readyAt = .now
        }
    }

    deinit { close() }

    private func close() {
        server.release(stream, once: &closed) {
            onSamples = nil
            onFailure = nil
        }
    }

    /// Drops what the server has buffered; `done` runs once later chunks hold only audio
    /// captured after this call.
    func flush(_ done: @escaping () -> Void) {
        final class Box { let done: () -> Void; init(_ done: @escaping () -> Void) { self.done = done } }
        guard failure == nil else { return }
        let box = Unmanaged.passRetained(Box(done))
        if let op = pa_stream_flush(stream, { _, _, data in
            let box = Unmanaged<Box>.fromOpaque(data!).takeRetainedValue()
            box.done()
        }, box.toOpaque()) {
            pa_operation_unref(op)
        } else {
            box.release()
            done()
        }
    }

    /// The delay between audio reaching the microphone and reaching us (the source's own
    /// latency plus what waits in the server), in seconds; nil when the server has not said.
    var latency: Double? {
        var microseconds: pa_usec_t = 0
        var negative: Int32 = 0
        guard pa_stream_get_latency(stream, &microseconds, &negative) == 0 else { return nil }
        return negative != 0 ? 0 : Double(microseconds) / 1_000_000
    }

    private func stateChanged() {
        server.signal()
        let state = pa_stream_get_state(stream)
        guard ready, failure == nil, state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED else { return }
        let error = server.failure(of: stream, role: .input, device: deviceName, wasReady: true)
        failure = error
        onFailure?(error)
    }

    /// Takes every chunk the server has. A hole (data lost in the server) becomes silence so
    /// the timeline stays true.
    private func read() {
        let now = ContinuousClock.now
        while pa_stream_readable_size(stream) > 0 {
            var data: UnsafeRawPointer?
            var bytes = 0
            guard pa_stream_peek(stream, &data, &bytes) == 0, bytes > 0 else { return }
            let count = bytes / MemoryLayout<Float>.size
            if scratch.count < count { scratch = Array(repeating: 0, count: count) }
            scratch.withUnsafeMutableBufferPointer { buffer in
                if let data {
                    memcpy(buffer.baseAddress!, data, count * MemoryLayout<Float>.size)
                } else {
                    buffer.baseAddress!.update(repeating: 0, count: count)
                }
                if firstChunkAt == nil { firstChunkAt = now }
                onSamples?(UnsafeBufferPointer(rebasing: buffer[0..<count]), now)
            }
            pa_stream_drop(stream)
        }
    }
}
