import CPulse
import Foundation

public enum AudioServerError: Error, CustomStringConvertible, Equatable {
    case unreachable(String)
    case timedOut

    public var description: String {
        switch self {
        case .unreachable(let reason):
            return "no PulseAudio server reachable (\(reason)). Start one (pulseaudio --start, or PipeWire's pipewire-pulse), or use --type to type your answers."
        case .timedOut:
            return "the PulseAudio server did not answer within 3 seconds."
        }
    }
}

/// What the audio server reports about itself and its default devices.
public struct AudioServerInfo: Sendable, Equatable {
    public var serverName: String
    public var serverVersion: String
    public var defaultSink: String?
    public var defaultSource: String?
    public var sinks: [String]
    public var sources: [String]
    /// Sources made by the server's echo canceller (module-echo-cancel): what they capture has
    /// the server's own output taken out.
    public var echoCancelledSources: [String] = []

    /// The echo canceller's arguments we recommend (`doctor`) and test with. With webrtc's
    /// defaults a question played alone passed for the person 5 times in 12 plays, and its
    /// gain control turns the microphone's volume; with these, 0 in 12, and the person talking
    /// over the question was heard 12 of 12 either way (real PulseAudio, test devices).
    public static let echoCancellerArguments = ["aec_method=webrtc", #"aec_args="extended_filter=1 analog_gain_control=0 digital_gain_control=0""#]

    public init(serverName: String, serverVersion: String, defaultSink: String?, defaultSource: String?,
                sinks: [String], sources: [String], echoCancelledSources: [String] = []) {
        self.serverName = serverName
        self.serverVersion = serverVersion
        self.defaultSink = defaultSink
        self.defaultSource = defaultSource
        self.sinks = sinks
        self.sources = sources
        self.echoCancelledSources = echoCancelledSources
    }

    /// Sources a person can speak into: monitors of outputs are not microphones.
    public var microphones: [String] { sources.filter { !$0.hasSuffix(".monitor") } }
}

/// A connection to the PulseAudio server through the asynchronous API (the simple API cannot
/// time out, and its read blocks forever on a dead microphone). Owns the threaded mainloop and
/// the context; both are freed in `deinit`.
///
/// One connection is the audio session of an exchange: the `Speaker` and the `Listener` share
/// it, and their streams stay open across prompts and answers instead of being reconfigured each
/// turn. All PulseAudio calls happen with the mainloop lock held; callbacks run on the mainloop
/// thread, which holds it already.
// @unchecked: its state is guarded by the PulseAudio mainloop lock, which Swift cannot see.
public final class AudioServer: @unchecked Sendable {
    let mainloop: OpaquePointer
    let context: OpaquePointer

    /// Connects to `server` (a PulseAudio server string such as "unix:/run/…/native"), or when
    /// nil to the one named by PULSE_SERVER, or the user's default one.
    public init(server: String? = nil, applicationName: String = "dialogue-memo",
                timeout: TimeInterval = 3) throws {
        guard let mainloop = pa_threaded_mainloop_new() else { throw AudioServerError.unreachable("out of memory") }
        self.mainloop = mainloop
        guard let context = pa_context_new(pa_threaded_mainloop_get_api(mainloop), applicationName) else {
            pa_threaded_mainloop_free(mainloop)
            throw AudioServerError.unreachable("out of memory")
        }
        self.context = context
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_context_set_state_callback(context, { _, data in
            let server = Unmanaged<AudioServer>.fromOpaque(data!).takeUnretainedValue()
            pa_threaded_mainloop_signal(server.mainloop, 0)
        }, me)
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        if pa_context_connect(context, server, PA_CONTEXT_NOFLAGS, nil) < 0 {
            throw AudioServerError.unreachable(String(cString: pa_strerror(pa_context_errno(context))))
        }
        guard pa_threaded_mainloop_start(mainloop) >= 0 else { throw AudioServerError.unreachable("cannot start the mainloop") }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let state = pa_context_get_state(context)
            if state == PA_CONTEXT_READY { break }
            if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
                throw AudioServerError.unreachable(String(cString: pa_strerror(pa_context_errno(context))))
            }
            if Date() > deadline { throw AudioServerError.timedOut }
            waitBriefly()
        }
    }

    deinit {
        let inLoop = pa_threaded_mainloop_in_thread(mainloop) != 0
        if !inLoop { pa_threaded_mainloop_lock(mainloop) }
        pa_context_set_state_callback(context, nil, nil)
        pa_context_disconnect(context)
        pa_context_unref(context)
        if inLoop {
            // The last reference went away inside one of our own callbacks (a stream finishing
            // a play while its owner was already gone). A loop cannot stop and free itself from
            // its own thread, so another thread does it once this callback has returned.
            let loop = MainloopHandle(pointer: mainloop)
            Thread.detachNewThread { loop.stopAndFree() }
        } else {
            pa_threaded_mainloop_unlock(mainloop)
            MainloopHandle(pointer: mainloop).stopAndFree()
        }
    }

    /// Runs `body` with the mainloop lock held. On the mainloop thread (inside a callback) the
    /// lock is already held, and taking it again is not allowed.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        if pa_threaded_mainloop_in_thread(mainloop) != 0 { return try body() }
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return try body()
    }

    /// Waits with the lock held until `done()` holds, or gives up after `timeout` (false).
    /// Stream and context callbacks signal the mainloop, which re-checks the condition.
    func wait(timeout: TimeInterval, until done: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !done() {
            if Date() > deadline { return false }
            waitBriefly()
        }
        return true
    }

    /// Wakes every thread waiting in `wait(timeout:until:)`.
    func signal() { pa_threaded_mainloop_signal(mainloop, 0) }

    /// Whether the connection has been lost (server stopped, socket closed). Lock held.
    var isLost: Bool {
        let state = pa_context_get_state(context)
        return state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED
    }

    /// The context's last error as text. Lock held.
    var lastError: String { String(cString: pa_strerror(pa_context_errno(context))) }

    /// Waits on the mainloop with the lock held; a timer wakes it so no wait is unbounded.
    private func waitBriefly() {
        let api = pa_threaded_mainloop_get_api(mainloop)!
        var when = timeval()
        pa_gettimeofday(&when)
        pa_timeval_add(&when, 50_000)
        let timer = api.pointee.time_new(api, &when, { _, _, _, data in
            pa_threaded_mainloop_signal(OpaquePointer(data), 0)
        }, UnsafeMutableRawPointer(mainloop))
        pa_threaded_mainloop_wait(mainloop)
        api.pointee.time_free(timer)
    }

    /// Server name, version and the default and available devices.
    public func info(timeout: TimeInterval = 3) throws -> AudioServerInfo {
        /// Filled by callbacks on the mainloop thread while this thread waits holding its lock.
        final class Collected {
            var info = AudioServerInfo(serverName: "", serverVersion: "", defaultSink: nil,
                                       defaultSource: nil, sinks: [], sources: [])
            var pending = 3
        }
        let collected = Collected()
        let box = Unmanaged.passRetained(collected)
        defer { box.release() }
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        if isLost { throw AudioServerError.unreachable(lastError) }
        let data = box.toOpaque()
        let ops: [OpaquePointer?] = [
            pa_context_get_server_info(context, { _, info, data in
                let c = Unmanaged<Collected>.fromOpaque(data!).takeUnretainedValue()
                if let info {
                    c.info.serverName = String(cString: info.pointee.server_name)
                    c.info.serverVersion = String(cString: info.pointee.server_version)
                    c.info.defaultSink = info.pointee.default_sink_name.map { String(cString: $0) }
                    c.info.defaultSource = info.pointee.default_source_name.map { String(cString: $0) }
                }
                c.pending -= 1
            }, data),
            pa_context_get_sink_info_list(context, { _, info, eol, data in
                let c = Unmanaged<Collected>.fromOpaque(data!).takeUnretainedValue()
                if eol != 0 { c.pending -= 1 } else if let info { c.info.sinks.append(String(cString: info.pointee.name)) }
            }, data),
            pa_context_get_source_info_list(context, { _, info, eol, data in
                let c = Unmanaged<Collected>.fromOpaque(data!).takeUnretainedValue()
                if eol != 0 { c.pending -= 1 } else if let info {
                    let name = String(cString: info.pointee.name)
                    c.info.sources.append(name)
                    if let driver = info.pointee.driver, String(cString: driver).contains("echo-cancel") {
                        c.info.echoCancelledSources.append(name)
                    }
                }
            }, data),
        ]
        defer {
            // An operation still running must not call back into `collected` after we return.
            for case let op? in ops {
                if pa_operation_get_state(op) == PA_OPERATION_RUNNING { pa_operation_cancel(op) }
                pa_operation_unref(op)
            }
        }
        let deadline = Date().addingTimeInterval(timeout)
        while collected.pending > 0 {
            if isLost { throw AudioServerError.unreachable(lastError) }
            if Date() > deadline { throw AudioServerError.timedOut }
            waitBriefly()
        }
        return collected.info
    }
}

/// A threaded mainloop handed to another thread for its final stop.
// @unchecked: a raw mainloop pointer, used by the one thread that stops and frees it.
private struct MainloopHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    func stopAndFree() {
        pa_threaded_mainloop_stop(pointer)
        pa_threaded_mainloop_free(pointer)
    }
}
