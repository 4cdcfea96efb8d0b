import CPulse
import Foundation

/// What the playback and capture streams share: waiting for a new stream to be ready, naming
/// the device it landed on, and turning PulseAudio's error codes into `AudioError`s.
extension AudioServer {
    /// How long a new stream may take to become ready before the server is declared stuck.
    static let streamSetupTimeout: TimeInterval = 3

    /// Waits (lock held) until `stream` is ready and returns the name of its device.
    func waitUntilReady(_ stream: OpaquePointer, role: AudioDeviceRole, device: String?) throws -> String {
        let settled = wait(timeout: Self.streamSetupTimeout) {
            let state = pa_stream_get_state(stream)
            return state == PA_STREAM_READY || state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED
        }
        guard settled else {
            throw AudioError.streamFailed(role, name: device, reason: "the server did not open the stream within \(Int(Self.streamSetupTimeout)) seconds")
        }
        guard pa_stream_get_state(stream) == PA_STREAM_READY else {
            throw failure(of: stream, role: role, device: device, wasReady: false)
        }
        return pa_stream_get_device_name(stream).map { String(cString: $0) } ?? device ?? "default"
    }

    /// Why `stream` failed (lock held). A refused device at set-up is a missing device; a stream
    /// killed later lost its device; a lost connection is the server going away.
    func failure(of stream: OpaquePointer, role: AudioDeviceRole, device: String?, wasReady: Bool) -> AudioError {
        if isLost { return .serverGone(lastError) }
        let code = pa_context_errno(context)
        if !wasReady, code == Int32(PA_ERR_NOENTITY.rawValue) {
            return .deviceNotFound(role, name: device, available: [])
        }
        if wasReady, code == Int32(PA_ERR_KILLED.rawValue) || code == Int32(PA_ERR_NOENTITY.rawValue) {
            return .deviceRemoved(role, name: device ?? "default")
        }
        if code == Int32(PA_ERR_CONNECTIONTERMINATED.rawValue) { return .serverGone(lastError) }
        return .streamFailed(role, name: device, reason: lastError)
    }

    /// Sets a new stream up with the lock held. If that fails, `close` lets the stream go and
    /// the error names the devices a person could choose instead.
    func setUp<T>(closingWith close: () -> Void, _ body: () throws -> T) throws -> T {
        do { return try withLock(body) } catch {
            close()
            throw withAvailableDevices(error)
        }
    }

    /// Lets go of `stream` once (lock taken): a failed `init` closes it, then `deinit` runs as
    /// well. `clear` drops what its owner holds of its own first.
    func release(_ stream: OpaquePointer, once closed: inout Bool, clearing clear: () -> Void) {
        withLock {
            guard !closed else { return }
            closed = true
            clear()
            release(stream)
        }
    }

    /// Lets go of a stream (lock held): no more callbacks, disconnected if it was connected,
    /// and our reference dropped. What each stream clears of its own comes before this.
    func release(_ stream: OpaquePointer) {
        pa_stream_set_state_callback(stream, nil, nil)
        pa_stream_set_read_callback(stream, nil, nil)
        pa_stream_set_write_callback(stream, nil, nil)
        if pa_stream_get_state(stream) == PA_STREAM_READY { pa_stream_disconnect(stream) }
        pa_stream_unref(stream)
    }

    /// Fills in the devices a person could choose instead (lock not held: it asks the server).
    func withAvailableDevices(_ error: Error) -> Error {
        guard case AudioError.deviceNotFound(let role, let name, _) = error else { return error }
        let info = try? self.info(timeout: 1)
        let available = role == .output ? info?.sinks ?? [] : info?.microphones ?? []
        return AudioError.deviceNotFound(role, name: name, available: available)
    }
}

/// Flags for PulseAudio stream connections, combined without the C enum's ceremony.
func streamFlags(_ flags: pa_stream_flags...) -> pa_stream_flags_t {
    pa_stream_flags_t(rawValue: flags.reduce(0) { $0 | $1.rawValue })
}

/// Bytes of `seconds` of audio in `spec`.
func byteCount(seconds: Double, spec: pa_sample_spec) -> UInt32 {
    var spec = spec
    return UInt32(pa_usec_to_bytes(pa_usec_t(seconds * 1_000_000), &spec))
}
