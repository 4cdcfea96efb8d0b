import Dialogue
import Foundation
import Synchronization
import Transcription

/// Each answer transcribed once more when it is over, for the note: with the settings of
/// `transcribe` (beam search over the full window), a capped temperature fallback, and the
/// earlier answers' final text as whisper's prompt (never the question: whisper can copy a
/// prompt into the text). The passes run one at a time on the live transcriber, only while the
/// dialogue leaves it and the cores idle (`EngineArbiter`: a live pass stops a final one at once,
/// inside whisper's encoder too), in the order the answers came. A second whisper state would
/// have held a second set of buffers.
public final class FinalPass: Sendable {
    let transcriber: Transcriber
    let arbiter: EngineArbiter
    let language: String
    private struct Passes {
        /// The pass of the latest answer, and of the one before it (the prompt of an answer the
        /// person went on with, which replaces the latest).
        var latest: FinalAnswer?
        var before: FinalAnswer?
        /// The latest pass until the exchange takes it (`takeLatest`).
        var untaken: FinalAnswer?
    }
    private let passes = Mutex(Passes())

    public init(transcriber: Transcriber, arbiter: EngineArbiter, language: String) {
        self.transcriber = transcriber
        self.arbiter = arbiter
        self.language = language
    }

    /// Starts the final pass of an answer heard as `samples`; with `continuing`, of the latest
    /// answer heard on (all of it), which it replaces.
    @discardableResult
    public func start(_ samples: [Float], continuing: Bool = false) -> FinalAnswer {
        passes.withLock { passes in
            if !continuing { passes.before = passes.latest }
            let earlier = passes.before
            let pass = FinalAnswer { [transcriber, arbiter, language] in
                let prompt = await earlier?.promptText()
                func pass(prompt: String?) async throws -> Transcript {
                    var options = FinalPass.options(language: language)
                    options.initialPrompt = prompt
                    return try await arbiter.background { [options] in
                        try await transcriber.transcribe(samples, options: options)
                    }
                }
                var transcript = try await pass(prompt: prompt)
                // Whisper can answer a prompt with the prompt itself (seen on a Japanese answer
                // read as a copy of the one before it): then the answer is read without one.
                if let prompt, FinalPass.copies(prompt, in: transcript.text) {
                    transcript = try await pass(prompt: nil)
                }
                // Words whisper itself is unsure of, even after its fallback, do not replace the
                // live reading (its own threshold for a retry: a mean log-probability below -1).
                guard FinalPass.isSure(transcript) else { return "" }
                return transcript.text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            passes.latest = pass
            passes.untaken = pass
            return pass
        }
    }

    /// The latest answer's pass, once: the next answer has none until it is started.
    func takeLatest() -> FinalAnswer? {
        passes.withLock { passes in
            defer { passes.untaken = nil }
            return passes.untaken
        }
    }

    /// Whether whisper is sure enough of `transcript` for the note: the mean log-probability of
    /// its segments' tokens at or above whisper's own retry threshold.
    static func isSure(_ transcript: Transcript, threshold: Float = -1) -> Bool {
        let scores = transcript.segments.map(\.averageLogProbability)
        return !scores.isEmpty && scores.reduce(0, +) / Float(scores.count) >= threshold
    }

    /// Whether `text` is mostly `prompt` again: at least 60 % of its character 4-grams (letters
    /// and digits, case folded, any run of other characters as one space) are in the prompt.
    /// Two different sentences of one person share far fewer, in any script.
    static func copies(_ prompt: String, in text: String) -> Bool {
        let grams = text.characterGrams(4)
        guard grams.count >= 4 else { return false }
        let prompted = Set(prompt.characterGrams(4))
        let copied = grams.filter(prompted.contains).count
        return Double(copied) >= 0.6 * Double(grams.count)
    }

    /// `transcribe`'s decoding, with a temperature fallback capped at two retries (0.4, 0.8):
    /// unbounded, one hard clip took over a minute.
    static func options(language: String) -> TranscriptionOptions {
        var options = FileTranscription.options(language: language, fast: false)
        options.temperatureFallback = true
        options.temperatureIncrement = 0.4
        return options
    }
}

/// One answer's final pass.
public final class FinalAnswer: FinalPassing {
    private let task: Task<String?, Never>
    private let done = DoneFlag()

    init(_ transcribe: @escaping @Sendable () async throws -> String) {
        let done = self.done
        task = Task {
            defer { done.set() }
            guard let text = try? await transcribe(), !text.isEmpty else { return nil }
            return text
        }
    }

    public func text() async -> String? { await task.value }
    public var isDone: Bool { done.isSet }
    public func cancel() { task.cancel() }

    /// The prompt for the next answer's pass: this one's text (waited for, so the passes run in
    /// order), its last 400 characters at most (whisper keeps only the end of a long prompt).
    func promptText() async -> String? {
        guard let text = await text() else { return nil }
        return String(text.suffix(400))
    }
}

/// Set once, read from any thread.
final class DoneFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}
