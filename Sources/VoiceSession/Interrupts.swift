import Foundation
import Synchronization

/// Ways a person ends an exchange without words: Ctrl-C (SIGINT), a key press while the
/// program listens, or the system asking it to stop (SIGTERM, SIGHUP). Each runs the handler
/// (which cancels the running work); the words so far are already journaled and go to the
/// editor (or, for SIGTERM and SIGHUP, stay in the journal for `recover`).
public final class Interrupts: Sendable {
    public enum Cause: Sendable, Equatable { case interrupt, key, terminate }

    private struct State {
        var handler: (@Sendable (Cause) -> Void)?
        var cause: Cause?
        /// How many times anything fired (a review prompt notices a Ctrl-C by this).
        var fired = 0
        var savedTerminal: termios?
        var sources: [DispatchSourceSignal] = []
    }
    private let state = Mutex(State())
    private let catchesSignals: Bool

    /// `catchesSignals: false` only takes `fire` (tests: the test process keeps its signals).
    public init(catchesSignals: Bool = true) { self.catchesSignals = catchesSignals }

    /// The first way the person ended it (a later terminate wins: it means no editor).
    public var cause: Cause? { state.withLock { $0.cause } }

    /// How many interrupts have come so far.
    public var count: Int { state.withLock { $0.fired } }

    public func onInterrupt(_ handler: @escaping @Sendable (Cause) -> Void) {
        state.withLock { $0.handler = handler }
        guard catchesSignals else { return }
        for (number, cause) in [(SIGINT, Cause.interrupt), (SIGTERM, .terminate), (SIGHUP, .terminate)] {
            signal(number, SIG_IGN)
            state.withLock { state in
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [weak self] in self?.fire(cause) }
                source.resume()
                state.sources.append(source)
            }
        }
    }

    /// Any key ends the exchange (voice mode on a terminal): the terminal goes to
    /// non-canonical, no-echo mode until `stopWatchingKeys()`.
    public func watchKeys() {
        guard catchesSignals, isatty(STDIN_FILENO) == 1 else { return }
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        state.withLock { $0.savedTerminal = original }
        // Polls rather than blocking in read(), so that once watching stops no key meant for
        // the review prompt is swallowed.
        Thread.detachNewThread { [weak self] in
            var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            while let self, self.state.withLock({ $0.savedTerminal != nil }) {
                guard poll(&poller, 1, 100) > 0 else { continue }
                var byte: UInt8 = 0
                if read(STDIN_FILENO, &byte, 1) == 1 { self.fire(.key) }
                return
            }
        }
    }

    /// Gives the terminal back (the editor and the review prompt need it as it was).
    public func stopWatchingKeys() {
        state.withLock { state in
            if var original = state.savedTerminal {
                tcsetattr(STDIN_FILENO, TCSANOW, &original)
                state.savedTerminal = nil
            }
        }
    }

    /// Records `cause` and runs the handler (signals, keys; tests call it directly).
    func fire(_ cause: Cause) {
        let handler = state.withLock { state -> (@Sendable (Cause) -> Void)? in
            if state.cause == nil || cause == .terminate { state.cause = cause }
            state.fired += 1
            return state.handler
        }
        handler?(cause)
    }
}
