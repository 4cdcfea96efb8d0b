import Foundation

/// Transcription done while the person may still be speaking, so that little is left when the
/// answer ends.
///
/// At each pause the audio since the last kept stretch is transcribed. If speech resumes, that
/// work is kept as a finished stretch when it covers at least `minimumStretch` samples (the
/// pause came between words, so the cut splits none), else it is cancelled and the next pause
/// covers it again. When the answer ends, its text is the kept stretches plus the last pause's
/// transcription, joined — valid only if the answer's audio starts with everything transcribed
/// (what came after the last pause was the trailing silence). Anything missing or failed
/// gives nil, and the caller transcribes the whole answer as usual.
public final class Speculation: @unchecked Sendable {
    public typealias Transcribe = @Sendable ([Float], CancelFlag) async throws -> String

    /// Stretches shorter than this are transcribed again with what follows: whisper does
    /// poorly on very short clips.
    public let minimumStretch: Int
    /// Between stretches: " ", or "" for languages written without spaces.
    public let separator: String

    private struct Work {
        let task: Task<String?, Never>
        let cancel: CancelFlag
        /// Where this stretch starts and ends in the answer's audio.
        let start: Int
        let end: Int
    }

    private let lock = NSLock()
    private var kept: [Work] = []
    private var running: Work?
    /// The audio transcribed so far (the latest pause's clip), to check the final answer against.
    private var heard: [Float] = []

    public init(minimumStretch: Int = 24_000, separator: String = " ") {
        self.minimumStretch = minimumStretch
        self.separator = separator
    }

    /// A pause: transcribe `clip` (the answer so far) from the end of the last kept stretch.
    public func start(_ clip: [Float], transcribe: @escaping Transcribe) {
        lock.withLock {
            running?.cancel.cancel()
            let from = min(kept.last?.end ?? 0, clip.count)
            let part = Array(clip[from...])
            let cancel = CancelFlag()
            running = Work(task: Task { try? await transcribe(part, cancel) }, cancel: cancel, start: from, end: clip.count)
            heard = clip
        }
    }

    /// Speech came back: keep the running work as a stretch if it is long enough.
    /// Returns whether it was kept.
    @discardableResult
    public func resumed() -> Bool {
        lock.withLock {
            guard let work = running else { return false }
            running = nil
            if work.end - work.start >= minimumStretch {
                kept.append(work)
                return true
            }
            work.cancel.cancel()
            heard = Array(heard.prefix(kept.last?.end ?? 0))
            return false
        }
    }

    /// Forget everything (the answer ended some other way, or is done).
    public func abandon() {
        lock.withLock {
            running?.cancel.cancel()
            kept.forEach { $0.cancel.cancel() }
            running = nil
            kept = []
            heard = []
        }
    }

    /// The answer's text, if everything in `samples` that is not trailing silence has been
    /// transcribed (or is being transcribed); nil otherwise or if any part failed.
    public func result(coveringAllSpeechIn samples: [Float]) async -> String? {
        let (parts, heard) = lock.withLock { () -> ([Work], [Float]) in
            (kept + (running.map { [$0] } ?? []), self.heard)
        }
        // The last part must be the work started at the final pause: it reaches the trailing silence.
        guard let last = parts.last, lock.withLock({ running != nil }), !last.cancel.isCancelled, last.end == heard.count,
              heard.count <= samples.count, samples.prefix(heard.count).elementsEqual(heard) else { return nil }
        var texts: [String] = []
        for part in parts {
            guard let text = await part.task.value else { return nil }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { texts.append(trimmed) }
        }
        return texts.joined(separator: separator)
    }

    /// How many stretches were kept (for the event log).
    public var keptStretches: Int { lock.withLock { kept.count } }
}
