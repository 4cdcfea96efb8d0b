import Dialogue
import DialogueCore
import Foundation
import Synchronization
import Transcription

/// Each answer transcribed once more when it is over, for the note: with the settings of
/// `transcribe` (beam search; see `options` for the window), a capped temperature fallback, and the
/// earlier answers' final text as whisper's prompt (never the question: whisper can copy a
/// prompt into the text). The passes run one at a time on the live transcriber, only while the
/// dialogue leaves it and the cores idle (`EngineArbiter`: a live pass stops a final one at once,
/// inside whisper's encoder too), in the order the answers came; an answer heard on is read
/// again whole only as spare work, after every answer's first final text. A second whisper
/// state would have held a second set of buffers.
public final class FinalPass: Sendable {
    /// Transcribes audio with a prompt, in the background (the engine behind it, in tests a
    /// script); `again` when the answer has a final text already (`EngineArbiter`'s spare work).
    typealias Reading = @Sendable (_ audio: [Float], _ prompt: String?, _ again: Bool) async throws -> Transcript
    let reading: Reading
    private struct Passes {
        /// The pass of the latest answer, and of the one before it (the prompt of an answer the
        /// person went on with, which replaces the latest).
        var latest: FinalAnswer?
        var before: FinalAnswer?
        /// The latest pass until the exchange takes it (`takeLatest`).
        var untaken: FinalAnswer?
    }
    private let passes = Mutex(Passes())

    public convenience init(transcriber: Transcriber, arbiter: EngineArbiter, language: String) {
        self.init { audio, prompt, again in
            var options = FinalPass.options(language: language, samples: audio.count)
            options.initialPrompt = prompt
            return try await arbiter.background(spare: again) { [options] in
                try await transcriber.transcribe(audio, options: options)
            }
        }
    }

    init(reading: @escaping Reading) { self.reading = reading }

    /// Starts the final pass of an answer heard as `samples`; with `continuing`, of the latest
    /// answer heard on (all of it), which it replaces. That one reads twice when `samples` begin
    /// with the audio of the answer's first part: first only what followed it, with that part's
    /// text as the prompt, then all of it again (spare work). The note takes the whole reading where
    /// it is done and loses nothing against the first, else the first (`soonText`): read again
    /// whole before anything else, answers heard on had made the person wait 2.4–4.6 s for the
    /// note (real French voices). Whole, whisper read a name it garbled in the part alone
    /// ("UB26, PENGWIN2" against "U bé de min 6, pas grand de"), but could also read a sentence
    /// said twice in a row once.
    @discardableResult
    public func start(_ samples: [Float], continuing: Bool = false) -> FinalAnswer {
        passes.withLock { passes in
            if !continuing { passes.before = passes.latest }
            let earlier = passes.before, reading = self.reading
            /// The text of `audio`, nil when whisper is unsure of it.
            @Sendable func read(_ audio: [Float], prompt: String?, again: Bool = false) async throws -> String? {
                var transcript = try await reading(audio, prompt, again)
                // Whisper can answer a prompt with the prompt itself (seen on a Japanese answer
                // read as a copy of the one before it): then the answer is read without one.
                if let prompt, FinalPass.copies(prompt, in: transcript.text) {
                    transcript = try await reading(audio, nil, again)
                }
                // Words whisper itself is unsure of, even after its fallback, do not replace the
                // live reading (its own threshold for a retry: a mean log-probability below -1).
                guard FinalPass.isSure(transcript) else { return nil }
                return transcript.text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let pass: FinalAnswer
            // Built on the answer's first part, however often it was heard on: each time the
            // person goes on, one reading of all that followed replaces the last (heard on four
            // times, one reading per stretch had kept a Japanese note waiting 7.8 s).
            if continuing, let part = passes.latest?.firstPart, part.begins(samples) {
                pass = FinalAnswer(samples, buildingOn: part, first: {
                    guard let head = await part.soonText(),
                          let tail = try await read(Array(samples[part.length...]), prompt: FinalAnswer.prompt(head)),
                          !tail.isEmpty else { return nil }
                    return head + " " + tail
                }, then: { again in
                    try await read(samples, prompt: await earlier?.promptText(), again: again)
                })
            } else {
                pass = FinalAnswer(samples, first: { try await read(samples, prompt: await earlier?.promptText()) })
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

    /// `transcribe`'s decoding of `samples` samples (beam 5), with a temperature fallback capped
    /// at two retries (0.4, 0.8): unbounded, one hard clip took over a minute. An answer of
    /// `fittedFrom` or more is encoded in its own window (`leastWindow` at least) rather than in
    /// 30 s: a pass stopped by the live path starts over, and on a slow 2-core machine passes over
    /// 30 s never fit between live passes and left the note waiting for them all (figures in
    /// scripts/speech.md, "The final pass's encoder window").
    static func options(language: String, samples: Int) -> TranscriptionOptions {
        var options = FileTranscription.options(language: language, fast: false)
        options.temperatureFallback = true
        options.temperatureIncrement = 0.4
        if samples >= Int(fittedFrom * Double(Transcriber.sampleRate)) {
            options.audioContext = Transcriber.audioContext(forSamples: samples, least: leastWindow)
        }
        return options
    }

    /// From what length, and at least how wide, an answer's own window reads as well as 30 s with
    /// the beam, prompted or not: shorter answers read worse in one, and a narrower window
    /// repeated short clips (real-speech set, scripts/speech.md).
    static let fittedFrom = 5.0
    static let leastWindow: Int32 = 512
}

/// One answer's final pass: one reading, or two (see `FinalPass.start`).
public final class FinalAnswer: FinalPassing {
    /// The text as soon as there is one, and the best text (the same task for one reading).
    private let first: Task<String?, Never>
    private let best: Task<String?, Never>
    private let firstDone = DoneFlag(), bestDone = DoneFlag(), firstGaveText = DoneFlag()
    /// How many samples it reads, and their fingerprint: a pass of the answer heard on builds
    /// on this one only if its audio begins with them.
    let length: Int
    private let fingerprint: Int
    /// The pass of the answer's first part this one builds on.
    private let base: FinalAnswer?
    /// The pass of the answer's first part: this one's, or itself.
    var firstPart: FinalAnswer { base ?? self }
    /// Who still wants its text: whoever holds it (one) and each later pass building on it (the
    /// answer heard on replaces the earlier one, whose pass it still needs). The last cancel stops it.
    private let wanted = Mutex(1)

    /// `first` reads; `then`, if given, reads again after it (told whether the first gave a
    /// text: then it is spare work), and its text is the best unless it holds less than 90 % of
    /// the first's letters (whisper leaving a sentence out).
    init(_ samples: [Float], buildingOn base: FinalAnswer? = nil,
         first read: @escaping @Sendable () async throws -> String?,
         then reread: (@Sendable (_ again: Bool) async throws -> String?)? = nil) {
        length = samples.count
        fingerprint = Self.fingerprint(samples[...])
        self.base = base
        base?.wanted.withLock { $0 += 1 }
        let firstDone = self.firstDone, bestDone = self.bestDone, firstGaveText = self.firstGaveText
        let first = Task<String?, Never> {
            defer { firstDone.set() }
            guard let text = try? await read(), !text.isEmpty else { return nil }
            firstGaveText.set()
            return text
        }
        self.first = first
        guard let reread else {
            best = first
            return
        }
        best = Task<String?, Never> {
            defer { bestDone.set() }
            let soon = await first.value
            guard !Task.isCancelled, let again = try? await reread(soon != nil), !again.isEmpty else { return soon }
            guard let soon else { return again }
            return Double(again.letterCount) >= 0.9 * Double(soon.letterCount) ? again : soon
        }
    }

    public func text() async -> String? { await best.value }

    public func soonText() async -> String? {
        guard first != best else { return await first.value }
        // The first reading gave no text: only the second can.
        guard let soon = await first.value else { return await best.value }
        if !bestDone.isSet { best.cancel() }
        return await best.value ?? soon
    }

    public var isDone: Bool { firstDone.isSet && (first == best || bestDone.isSet || firstGaveText.isSet) }

    public func cancel() {
        let unwanted = wanted.withLock { wanted in
            wanted -= 1
            return wanted == 0
        }
        guard unwanted else { return }
        first.cancel()
        best.cancel()
        base?.cancel()
    }

    /// Whether `samples` begin with the audio this pass reads.
    func begins(_ samples: [Float]) -> Bool {
        samples.count > length && Self.fingerprint(samples[..<length]) == fingerprint
    }

    private static func fingerprint(_ samples: ArraySlice<Float>) -> Int {
        var hasher = Hasher()
        for sample in samples { hasher.combine(sample.bitPattern) }
        return hasher.finalize()
    }

    /// The prompt for the next answer's pass: this one's first text (waited for, so the first
    /// readings run in order; a reading again is spare work, which must not hold them up).
    func promptText() async -> String? {
        guard let text = await first.value else { return await text().map(Self.prompt) }
        return Self.prompt(text)
    }

    /// At most the last 400 characters of `text`: whisper keeps only the end of a long prompt.
    static func prompt(_ text: String) -> String { String(text.suffix(400)) }
}

/// Set once, read from any thread.
final class DoneFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}
