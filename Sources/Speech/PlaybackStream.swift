import CPulse
import Foundation

/// One PulseAudio playback stream, kept open for the whole exchange so the output path stays
/// awake between questions. A play writes the whole buffer at once (as much as the server
/// queue takes), drains it, then waits for the output's own latency: only then has the sound
/// really been played. Everything but `init` runs with the mainloop lock held.
// @unchecked: guarded by the PulseAudio mainloop lock; its callbacks run on the mainloop thread.
final class PlaybackStream: @unchecked Sendable {
    /// How far ahead the server buffers. It bounds the output device's latency (the stream asks
    /// for it with ADJUST_LATENCY) while being large enough not to underrun on a busy machine;
    /// it does not delay the start, because the whole prompt is written at once.
    static let targetLatency: TimeInterval = 0.1

    let server: AudioServer
    let sampleRate: Int
    private let stream: OpaquePointer
    private(set) var deviceName: String = ""
    private var closed = false
    private var current: PlaybackJob?
    private var drain: OpaquePointer?
    private var timingUpdate: OpaquePointer?

    init(server: AudioServer, device: String?, sampleRate: Int) throws {
        self.server = server
        self.sampleRate = sampleRate
        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(sampleRate), channels: 1)
        guard let stream = server.withLock({ pa_stream_new(server.context, "question", &spec, nil) }) else {
            throw AudioError.streamFailed(.output, name: device, reason: "the stream could not be created")
        }
        self.stream = stream
        let me = Unmanaged.passUnretained(self).toOpaque()
        deviceName = try server.setUp(closingWith: close) {
            pa_stream_set_state_callback(stream, { stream, data in
                Unmanaged<PlaybackStream>.fromOpaque(data!).takeUnretainedValue().stateChanged()
            }, me)
            pa_stream_set_write_callback(stream, { _, _, data in
                Unmanaged<PlaybackStream>.fromOpaque(data!).takeUnretainedValue().writeMore()
            }, me)
            var attr = pa_buffer_attr(maxlength: UInt32.max,
                                      tlength: byteCount(seconds: Self.targetLatency, spec: spec),
                                      prebuf: UInt32.max, minreq: UInt32.max, fragsize: UInt32.max)
            // DONT_MOVE: a device that goes away must fail the exchange, not silently move
            // the question to another output.
            let flags = streamFlags(PA_STREAM_ADJUST_LATENCY, PA_STREAM_AUTO_TIMING_UPDATE,
                                    PA_STREAM_INTERPOLATE_TIMING, PA_STREAM_DONT_MOVE)
            if pa_stream_connect_playback(stream, device, &attr, flags, nil, nil) < 0 {
                throw server.failure(of: stream, role: .output, device: device, wasReady: false)
            }
            return try server.waitUntilReady(stream, role: .output, device: device)
        }
    }

    deinit { close() }

    private func close() { server.release(stream, once: &closed) { finishOperations() } }

    /// Starts playing `job`; its completion runs when the audio has been played, or on failure.
    func start(_ job: PlaybackJob) {
        server.withLock {
            if job.isFinished { return }
            if current != nil { job.finish(.failure(AudioError.busy(.output))); return }
            if pa_stream_get_state(stream) != PA_STREAM_READY {
                job.finish(.failure(server.failure(of: stream, role: .output, device: deviceName, wasReady: true)))
                return
            }
            current = job
            job.startedAt = .now
            // A generous bound: the audio itself, the output latency, and a loaded machine.
            let limit = job.duration + 5
            job.timeout = MainloopTimer(server: server, after: limit) { [weak self, weak job] in
                guard let self, let job else { return }
                self.end(job, .failure(AudioError.playbackStalled(device: self.deviceName, seconds: limit)))
            }
            writeMore()
        }
    }

    /// Stops `job` now: queued audio is dropped and the job ends as cancelled.
    func cancel(_ job: PlaybackJob) {
        server.withLock {
            guard current === job else { job.finish(.failure(CancellationError())); return }
            if pa_stream_get_state(stream) == PA_STREAM_READY,
               let op = pa_stream_flush(stream, nil, nil) { pa_operation_unref(op) }
            end(job, .failure(CancellationError()))
        }
    }

    private func end(_ job: PlaybackJob, _ result: Result<PlaybackTiming, Error>) {
        guard current === job else { return }
        current = nil
        finishOperations()
        job.finish(result)
    }

    private func finishOperations() {
        for op in [drain, timingUpdate].compactMap({ $0 }) {
            if pa_operation_get_state(op) == PA_OPERATION_RUNNING { pa_operation_cancel(op) }
            pa_operation_unref(op)
        }
        drain = nil
        timingUpdate = nil
    }

    private func stateChanged() {
        server.signal()
        let state = pa_stream_get_state(stream)
        guard state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED, let job = current else { return }
        end(job, .failure(server.failure(of: stream, role: .output, device: deviceName, wasReady: true)))
    }

    /// Writes what is left of the current job. The first write hands the server the whole
    /// prompt (up to half its queue limit); later ones follow its requests. Then drains.
    private func writeMore() {
        guard let job = current, drain == nil else { return }
        while job.written < job.byteCount {
            let writable = pa_stream_writable_size(stream)
            guard writable != -1 else { break }
            let queueLimit = Int(pa_stream_get_buffer_attr(stream)?.pointee.maxlength ?? 0) / 2
            let allowance = job.written == 0 ? max(writable, queueLimit) : writable
            let count = min(job.byteCount - job.written, allowance)
            guard count > 0 else { return }
            let status = job.samples.withUnsafeBytes { raw in
                pa_stream_write(stream, raw.baseAddress! + job.written, count, nil, 0, PA_SEEK_RELATIVE)
            }
            guard status >= 0 else {
                end(job, .failure(server.failure(of: stream, role: .output, device: deviceName, wasReady: true)))
                return
            }
            job.written += count
        }
        guard job.written == job.byteCount else { return }
        let me = Unmanaged.passUnretained(self).toOpaque()
        drain = pa_stream_drain(stream, { _, success, data in
            Unmanaged<PlaybackStream>.fromOpaque(data!).takeUnretainedValue().drained(success != 0)
        }, me)
    }

    /// The server has handed the last sample to the output device; what is still in the device
    /// buffer (its latency) plays on, so wait that long before calling the prompt played.
    private func drained(_ success: Bool) {
        guard let job = current else { return }
        guard success else {
            end(job, .failure(server.failure(of: stream, role: .output, device: deviceName, wasReady: true)))
            return
        }
        job.drainedAt = .now
        let me = Unmanaged.passUnretained(self).toOpaque()
        timingUpdate = pa_stream_update_timing_info(stream, { stream, success, data in
            Unmanaged<PlaybackStream>.fromOpaque(data!).takeUnretainedValue().outputLatencyKnown()
        }, me)
        if timingUpdate == nil { outputLatencyKnown() }
    }

    private func outputLatencyKnown() {
        guard let job = current else { return }
        let sinkMicroseconds = pa_stream_get_timing_info(stream)?.pointee.sink_usec ?? 0
        let latency = min(Double(sinkMicroseconds) / 1_000_000, 1)
        job.outputLatency = latency
        _ = MainloopTimer(server: server, after: latency) { [weak self, weak job] in
            guard let self, let job else { return }
            self.end(job, .success(job.timing))
        }
    }
}
