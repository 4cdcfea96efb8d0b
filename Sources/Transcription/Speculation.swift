import Foundation
import Synchronization

/// Transcription done while the person may still be speaking, so that little is left when the
/// answer ends.
///
/// At each pause the whole answer so far is transcribed. If speech resumes, that work is
/// cancelled and the next pause starts again from the beginning: pieces transcribed apart lose
/// the context before and after each cut and read worse than the whole answer, even cut in a
/// pause and prompted with the text before them; only cuts so rare that they saved nothing kept
/// the whole's accuracy (scripts/speech.md, "Figures behind the code").
///
/// When the answer ends, the final pause's transcript is its text, valid only if the answer's
/// audio starts with exactly that clip (what came after the pause was the trailing silence).
/// Anything else, or work that was cancelled or failed, gives nil, and the caller transcribes
/// the whole answer as usual.
public final class Speculation: Sendable {
    public typealias Transcribe = @Sendable ([Float]) async throws -> String

    /// The work started at the latest pause, and the clip it transcribes.
    private struct Run: Sendable {
        let clip: [Float]
        let task: Task<String?, Never>
    }

    private let latest = Mutex<Run?>(nil)

    public init() {}

    /// A pause: transcribe `clip` (the answer so far). Cancels the earlier run first.
    public func start(_ clip: [Float], transcribe: @escaping Transcribe) {
        latest.withLock { run in
            run?.task.cancel()
            run = Run(clip: clip, task: Task {
                guard let text = try? await transcribe(clip), !Task.isCancelled else { return nil }
                return text
            })
        }
    }

    /// Speech came back: the running work no longer covers the answer.
    public func resumed() { cancel() }

    /// Forget everything (the answer ended some other way, or is done).
    public func abandon() { cancel() }

    /// The transcript of the final pause's clip, if `samples` (the answer's audio) starts with
    /// exactly that clip and the work was neither cancelled nor failed; else nil.
    public func result(coveringAllSpeechIn samples: [Float]) async -> String? {
        guard let run = latest.withLock({ $0 }), run.clip.count <= samples.count,
              samples.prefix(run.clip.count).elementsEqual(run.clip) else { return nil }
        return await run.task.value?.trimmingCharacters(in: .whitespaces)
    }

    private func cancel() {
        latest.withLock { run in
            run?.task.cancel()
            run = nil
        }
    }
}

/// Whisper's latest text tokens for the answer being heard, kept up to date while the person
/// speaks, so that each pause's transcript starts from a draft (`TranscriptionOptions.draft`)
/// and only what was said since is decoded a token at a time. One pass at a time: speech that
/// goes on while one runs waits for the next `.speaking`; a pause stops the pass under way,
/// since the pause's own transcript (`update`) supersedes it.
///
/// A draft checks in one batch what would otherwise be decoded a token at a time, so a pause's
/// transcript costs less the fresher the draft is; the batch's arithmetic can move a comma.
public final class DraftKeeper: Sendable {
    public typealias Transcribe = @Sendable ([Float], [Int32]) async throws -> [Int32]

    private struct State {
        var tokens: [Int32] = []
        var pass: Task<Void, Never>?
        var generation = 0
    }
    private let state = Mutex(State())

    public init() {}

    /// The draft for the next transcription of this answer.
    public var tokens: [Int32] { state.withLock { $0.tokens } }

    /// Speech goes on: transcribe `clip` (the answer so far) with the current draft, unless a
    /// pass is under way.
    public func speaking(_ clip: [Float], transcribe: @escaping Transcribe) {
        state.withLock { state in
            guard state.pass == nil else { return }
            let draft = state.tokens, generation = state.generation
            state.pass = Task { [weak self] in
                let tokens = try? await transcribe(clip, draft)
                self?.finished(tokens, generation: generation)
            }
        }
    }

    /// A pause: the pass under way is not waited for.
    public func stop() {
        state.withLock { state in
            state.pass?.cancel()
            state.pass = nil
            state.generation += 1
        }
    }

    /// Tokens whisper gave for the answer (at a pause): the next draft.
    public func update(_ tokens: [Int32]) {
        guard !tokens.isEmpty else { return }
        state.withLock { $0.tokens = tokens }
    }

    private func finished(_ tokens: [Int32]?, generation: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            state.pass = nil
            if let tokens, !tokens.isEmpty, !Task.isCancelled { state.tokens = tokens }
        }
    }
}
