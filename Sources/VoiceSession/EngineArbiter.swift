import Synchronization

/// Keeps background engine work (the answers' final passes) off the two cores whenever the
/// dialogue needs them: a live transcription or a decision of the language model stops the
/// background run at once, and that run starts over once no foreground work is left. Two ggml
/// engines at full threads on 2 cores collapse, and the person waits on the foreground only.
public final class EngineArbiter: Sendable {
    private struct State {
        var foreground = 0
        /// The background run under way, to stop, and its end, to wait for.
        var background: (stop: @Sendable () -> Void, end: Task<Void, Never>)?
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
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

    /// Runs `work` once no foreground work is under way, starting it over each time foreground
    /// work stops it, until it finishes. Throws `CancellationError` when the calling task is
    /// cancelled.
    public func background<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        while true {
            try Task.checkCancellation()
            await idle()
            try await Task.sleep(for: settle)
            guard state.withLock({ $0.foreground == 0 }) else { continue }
            let run = Task { try await work() }
            let end = Task { _ = try? await run.value }
            let started = state.withLock { state in
                guard state.foreground == 0 else { return false }
                state.background = (stop: { run.cancel() }, end: end)
                return true
            }
            if !started { run.cancel(); await end.value; continue }
            let result = await withTaskCancellationHandler { await run.result } onCancel: { run.cancel() }
            state.withLock { $0.background = nil }
            switch result {
            case .success(let value): return value
            case .failure(let error as CancellationError):
                if Task.isCancelled { throw error }   // the caller's own cancellation
                continue                               // stopped for foreground work: again
            case .failure(let error): throw error
            }
        }
    }

    private func leaveForeground() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.foreground -= 1
            guard state.foreground == 0 else { return [] }
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        waiters.forEach { $0.resume() }
    }

    /// Returns once no foreground work is under way.
    private func idle() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.foreground == 0 { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
