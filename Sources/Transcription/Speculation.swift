import Foundation

/// A transcription started at a pause, before the answer is known to be over. Its text stands
/// for the whole answer only if no speech came after the pause (the listener says `.resumed`
/// otherwise, and the work is cancelled).
public final class Speculation: @unchecked Sendable {
    public init() {}

    private let lock = NSLock()
    private var running: (task: Task<String?, Never>, cancel: CancelFlag, clip: [Float])?

    public func start(_ clip: [Float], transcribe: @escaping @Sendable ([Float], CancelFlag) async throws -> String) {
        let cancel = CancelFlag()
        let task = Task { try? await transcribe(clip, cancel) }
        lock.withLock {
            running?.cancel.cancel()
            running = (task, cancel, clip)
        }
    }

    public func abandon() {
        lock.withLock {
            running?.cancel.cancel()
            running = nil
        }
    }

    /// The speculative text, if a transcription is running or done for a prefix of `samples`
    /// (what came after it was the trailing silence); nil otherwise or if it failed.
    public func result(coveringAllSpeechIn samples: [Float]) async -> String? {
        guard let running = lock.withLock({ running }), !running.cancel.isCancelled,
              running.clip.count <= samples.count, samples.prefix(running.clip.count).elementsEqual(running.clip)
        else { return nil }
        return await running.task.value
    }
}
