import Foundation

/// Ways a person ends an exchange without words: Ctrl-C (SIGINT), a key press while the
/// program listens, or the system asking it to stop (SIGTERM, SIGHUP). Each cancels the running
/// exchange; the words so far are already journaled and go to the editor (or, for SIGTERM and
/// SIGHUP, stay in the journal for `recover`).
final class Interrupts: @unchecked Sendable {
    enum Cause: Equatable { case interrupt, key, terminate }

    private let lock = NSLock()
    private var sources: [DispatchSourceSignal] = []
    private var handler: (@Sendable (Cause) -> Void)?
    private(set) var cause: Cause?
    private var savedTerminal: termios?

    func onInterrupt(_ handler: @escaping @Sendable (Cause) -> Void) {
        lock.withLock { self.handler = handler }
        for (number, cause) in [(SIGINT, Cause.interrupt), (SIGTERM, .terminate), (SIGHUP, .terminate)] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.fire(cause) }
            source.resume()
            sources.append(source)
        }
    }

    /// Any key ends the exchange (voice mode on a terminal): the terminal goes to
    /// non-canonical, no-echo mode until `stop()`.
    func watchKeys() {
        guard isatty(STDIN_FILENO) == 1 else { return }
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        lock.withLock { savedTerminal = original }
        // Polls rather than blocking in read(), so that once watching stops no key meant for
        // the review prompt is swallowed.
        Thread.detachNewThread { [weak self] in
            var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            while let self, self.lock.withLock({ self.savedTerminal != nil }) {
                guard poll(&poller, 1, 100) > 0 else { continue }
                var byte: UInt8 = 0
                if read(STDIN_FILENO, &byte, 1) == 1 { self.fire(.key) }
                return
            }
        }
    }

    /// Gives the terminal back (the editor and the review prompt need it as it was).
    func stopWatchingKeys() {
        lock.withLock {
            if var original = savedTerminal {
                tcsetattr(STDIN_FILENO, TCSANOW, &original)
                savedTerminal = nil
            }
        }
    }

    private func fire(_ cause: Cause) {
        let handler = lock.withLock { () -> (@Sendable (Cause) -> Void)? in
            if self.cause == nil || cause == .terminate { self.cause = cause }
            return self.handler
        }
        handler?(cause)
    }
}
