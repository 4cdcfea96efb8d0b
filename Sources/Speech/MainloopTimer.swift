import CPulse
import Foundation

/// A timer on the PulseAudio mainloop thread, so its action runs under the same lock as the
/// stream callbacks and never races them (the watchdog, the playback timeout, the wait for the
/// output latency after a drain). Create and cancel it with the mainloop lock held.
final class MainloopTimer {
    private let api: UnsafeMutablePointer<pa_mainloop_api>
    private var event: OpaquePointer?
    private let interval: TimeInterval?
    private var action: (() -> Void)?
    private var retainedSelf: Unmanaged<MainloopTimer>?

    /// Fires once after `delay`, or every `interval` after that when an interval is given.
    init(server: AudioServer, after delay: TimeInterval, repeating interval: TimeInterval? = nil,
         action: @escaping () -> Void) {
        api = pa_threaded_mainloop_get_api(server.mainloop)
        self.interval = interval
        self.action = action
        // The event holds the timer alive until it is cancelled or has fired for the last time.
        let retained = Unmanaged.passRetained(self)
        retainedSelf = retained
        var when = MainloopTimer.time(after: delay)
        event = api.pointee.time_new(api, &when, { _, _, _, data in
            Unmanaged<MainloopTimer>.fromOpaque(data!).takeUnretainedValue().fire()
        }, retained.toOpaque())
    }

    private static func time(after seconds: TimeInterval) -> timeval {
        var when = timeval()
        pa_gettimeofday(&when)
        pa_timeval_add(&when, pa_usec_t(max(0, seconds) * 1_000_000))
        return when
    }

    private func fire() {
        guard let action else { return }
        // The action may cancel the timer, which drops the last reference to it.
        withExtendedLifetime(self) {
            if let interval, let event {
                var when = MainloopTimer.time(after: interval)
                api.pointee.time_restart(event, &when)
            } else {
                cancel()
            }
            action()
        }
    }

    /// Stops the timer; its action will not run again. Safe to call more than once.
    func cancel() {
        action = nil
        if let event { api.pointee.time_free(event) }
        event = nil
        retainedSelf?.release()
        retainedSelf = nil
    }
}
