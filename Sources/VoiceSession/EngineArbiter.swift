import Synchronization

/// Keeps background engine work (the answers' final passes) off the two cores whenever the
/// dialogue needs them: a live transcription or a decision of the language model stops the
/// background run at once, and that run starts over once no foreground work is left. Two ggml
/// engines at full threads on 2 cores collapse, and the person waits on the foreground only.
public final class EngineArbiter: Sendable {
    private struct State {
        var foreground = 0
        /// Background runs asked for and not yet finished that are not spare: a spare run yields to them.
        var regular = 0
        /// The background run under way, to stop, and its end, to wait for.
        var background: (stop: @Sendable () -> Void, end: Task<Void, Never>, spare: Bool)?
        /// Those waiting for the state to change (they look again when woken).
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())
    /// How long the foreground must stay idle before background work starts (again): while the
    /// person speaks, live passes follow each other closely, and a run started in every gap
    /// would be stopped again at once.
    let settle: Duration

    public init(settle: Duration = .milliseconds(250)) { self.settle = settle }

    /// Runs `work` with the cores to itself: a background run is stopped first.
    public func foreground<T: Sendable>(_ work: () async throws -> T) async rethrows -> T {
        let running = state.withLock { state in
            state.foreground += 1
            return state.background
        }
        running?.stop()
        await running?.end.value
        defer { leaveForeground() }
        return try await work()
    }

    /// Runs work that only saves the dialogue time later (a draft while the person speaks, the
    /// model reading ahead) as foreground work, unless a background run is under way: that run
    /// is not stopped for it, and it is skipped (nil). Stopped at every draft, a final pass that
    /// must start over each time never finished while the person spoke, and every answer's pass
    /// was left for the end of the exchange, where the person waited for them all.
    public func unlessBackground<T: Sendable>(_ work: () async throws -> T) async rethrows -> T? {
        let admitted = state.withLock { state in
            guard state.background == nil else { return false }
            state.foreground += 1
            return true
        }
        guard admitted else { return nil }
        defer { leaveForeground() }
        return try await work()
    }

    /// Runs `work` once no foreground work and no other background run is under way, starting
    /// it over each time foreground work stops it, until it finishes. `spare` work (reading an
    /// answer again when it already has a final text) also waits for the other background work,
    /// and is stopped for it like for foreground work: one at a time, the answers' first final
    /// texts come first. Throws `CancellationError` when the calling task is cancelled.
    public func background<T: Sendable>(spare: Bool = false, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        if !spare {
            let running = state.withLock { state in
                state.regular += 1
                return state.background?.spare == true ? state.background : nil
            }
            running?.stop()
        }
        defer {
            if !spare {
                state.withLock { $0.regular -= 1 }
                wakeWaiters()
            }
        }
        func free(_ state: State) -> Bool { state.foreground == 0 && state.background == nil && (!spare || state.regular == 0) }
        while true {
            try Task.checkCancellation()
            // A caller cancelled while it waits (a reading again that the note no longer wants)
            // must not wait on: every waiter looks again.
            await withTaskCancellationHandler { await wait(until: free) } onCancel: { wakeWaiters() }
            try await Task.sleep(for: settle)
            guard state.withLock({ free($0) }) else { continue }
            let run = Task { try await work() }
            let end = Task { _ = try? await run.value }
            let started = state.withLock { state in
                guard free(state) else { return false }
                state.background = (stop: { run.cancel() }, end: end, spare: spare)
                return true
            }
            if !started { run.cancel(); await end.value; continue }
            let result = await withTaskCancellationHandler { await run.result } onCancel: { run.cancel() }
            state.withLock { $0.background = nil }
            wakeWaiters()
            switch result {
            case .success(let value): return value
            case .failure(let error as CancellationError):
                if Task.isCancelled { throw error }   // the caller's own cancellation
                continue                               // stopped for other work: again
            case .failure(let error): throw error
            }
        }
    }

    private func leaveForeground() {
        let idle = state.withLock { state in
            state.foreground -= 1
            return state.foreground == 0
        }
        if idle { wakeWaiters() }
    }

    private func wakeWaiters() {
        let waiters = state.withLock { state in
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    /// Returns once `ready` holds (or may hold: the caller looks again), or the task is cancelled.
    private func wait(until ready: (State) -> Bool) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if ready(state) || Task.isCancelled { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
