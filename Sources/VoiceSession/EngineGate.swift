import Synchronization

/// Lets whisper wait for llama.cpp work started earlier: two ggml engines at full threads on
/// 2 cores collapse, so they never run at once.
public final class EngineGate: Sendable {
    private let pending = Mutex<Task<Void, Never>?>(nil)

    public init() {}

    /// Adds `task` to the work whisper waits for (after what was already there).
    public func hold(_ task: Task<Void, Never>) {
        pending.withLock { pending in
            let earlier = pending
            pending = Task { await earlier?.value; await task.value }
        }
    }

    /// Returns once every task held so far has finished.
    public func wait() async { await pending.withLock { $0 }?.value }
}
