import CWhisper
import Foundation
import Synchronization

/// One piece of recognized speech, with its place in the clip.
public struct TranscriptSegment: Sendable, Equatable, Codable {
    public var start: Double
    public var end: Double
    public var text: String
    public var noSpeechProbability: Float
    /// Whisper's probability for the mark ending the segment (".", "?", ",", "。", …); nil when
    /// it ends on a word. At a pause the audio simply stops, and whisper hears from the voice
    /// whether the sentence ended: a sure full stop sounds finished, a hesitant one may not.
    public var finalMarkProbability: Float? = nil
    /// The mean log-probability of the segment's text tokens, whisper-cli's fallback measure
    /// (0 when unknown). Words invented over noise come out unsure, the same words spoken sure.
    public var averageLogProbability: Float = 0
}

/// What whisper heard in one clip.
public struct Transcript: Sendable, Equatable {
    /// whisper's language code, as the options gave it.
    public var language: String
    public var segments: [TranscriptSegment]
    /// Whisper's text tokens as it decoded them, before any filter: the draft for the same audio
    /// heard longer (`TranscriptionOptions.draft`).
    public var tokens: [Int32] = []
    /// How many tokens of the draft whisper confirmed; nil when no draft was given.
    public var draftAccepted: Int?
    public init(language: String, segments: [TranscriptSegment], tokens: [Int32] = [], draftAccepted: Int? = nil) {
        self.language = language
        self.segments = segments
        self.tokens = tokens
        self.draftAccepted = draftAccepted
    }
    /// The last segment's `finalMarkProbability`.
    public var finalMarkProbability: Float? { segments.last?.finalMarkProbability }
    public var text: String {
        segments.map { $0.text.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }
}

public enum TranscriberError: Error, CustomStringConvertible, Equatable {
    case modelMissing(path: String)
    case modelUnreadable(path: String)
    case modelInvalid(path: String)
    case unsupportedLanguage(String)
    case failed(code: Int32)

    public var description: String {
        switch self {
        case .modelMissing(let path):
            return "whisper model \(path): no such file. Install the package again (or run `make deps` in a source tree), or pass --whisper-model PATH."
        case .modelUnreadable(let path):
            return "whisper model \(path): not readable. Check its permissions."
        case .modelInvalid(let path):
            return "whisper model \(path): not a whisper.cpp ggml model (or damaged). Install the package again (or run `make deps` in a source tree), or choose another with --whisper-model."
        case .unsupportedLanguage(let language):
            return "whisper does not know the language code \"\(language)\"."
        case .failed(let code):
            return "whisper failed to transcribe the clip (error \(code))."
        }
    }
}

/// Options for one transcription. The dialogue wants speed and no invented words: greedy,
/// no temperature fallback (a hard clip can take over a minute with it), and a token cap.
public struct TranscriptionOptions: Sendable {
    /// whisper's language code (`LanguagePack.whisperLanguage`): this target knows whisper, not
    /// the interface languages, so it takes the code whisper takes.
    public var language: String
    public var threads: Int32 = 2
    /// A cap on tokens per segment (half the decoder's 448-token context): a decoding loop on
    /// a hard clip ends here instead of running for a minute. 0 means no cap.
    public var maxTokensPerSegment: Int32 = 224
    public var temperatureFallback = false
    /// The temperature added at each fallback retry (whisper's default 0.2 retries up to 5 times).
    public var temperatureIncrement: Float = 0.2
    /// 1 is greedy (the dialogue: fastest). Files use 5, like whisper-cli, for its accuracy.
    public var beamSize: Int32 = 1
    /// Timestamp tokens, for segment times (files: `transcribe --json`). The dialogue needs no
    /// times, and is as accurate and faster without them (scripts/speech.md). They had also
    /// ended whisper's sentence loops, which `tokenRules` now ends.
    public var timestamps = false
    /// Shrink the encoder window to the clip: the encoder otherwise always processes 30 s.
    public var fitAudioContextToClip = true
    /// The encoder's window in frames (50 a second) instead of the fitted one: a short clip read
    /// only for its last words (`TurnTail`) runs in less than the fitted minimum of 256.
    public var audioContext: Int32?
    /// Skip clips without speech energy and drop invented segments (see HallucinationFilter).
    public var hallucinationFilter: HallucinationFilter? = HallucinationFilter()
    /// Text whisper reads as what was said before the clip (the answer so far, when only its new
    /// part is transcribed): it goes on from there instead of starting a new text.
    public var initialPrompt: String?
    /// Text tokens whisper gave earlier for the start of this audio (`Transcript.tokens` at the
    /// previous pause): checked in one decoder batch instead of decoded one at a time, which was
    /// half of whisper's time at a pause (`scripts/whisper_draft.cpp`). The text is whisper's
    /// greedy text (batched arithmetic can tip a near-tie, rarely: a comma); a wrong draft costs
    /// one batch. Used only by greedy decoding without
    /// timestamps, prompt or temperature fallback, on clips up to 30 s; nil: whisper_full.
    public var draft: [Int32]?
    /// Called from whisper's thread with the percentage done (0…100), for a long file's
    /// progress line; nil (the dialogue) costs nothing.
    public var progress: (@Sendable (Int) -> Void)?
    public init(language: String) { self.language = language }
}

/// whisper.cpp in process. One context, owned by this actor, so no two threads enter it.
public actor Transcriber {
    private let handle: WhisperHandle
    private var context: OpaquePointer { handle.context }
    private let tokenRules: TokenRules
    public nonisolated let modelPath: String
    public nonisolated let isMultilingual: Bool
    public nonisolated let modelType: String

    /// whisper's fixed sample rate.
    public static let sampleRate = 16_000

    public init(modelPath: String) throws {
        EngineLog.install()
        guard FileManager.default.fileExists(atPath: modelPath) else {
            throw TranscriberError.modelMissing(path: modelPath)
        }
        guard FileManager.default.isReadableFile(atPath: modelPath) else {
            throw TranscriberError.modelUnreadable(path: modelPath)
        }
        let handle = try Self.load(modelPath)
        let context = handle.context
        self.handle = handle
        self.tokenRules = TokenRules(nonSpeech: Self.nonSpeechTokens(context), endOfText: whisper_token_eot(context))
        self.modelPath = modelPath
        self.isMultilingual = whisper_is_multilingual(context) != 0
        self.modelType = String(cString: whisper_model_type_readable(context))
    }

    /// Flash attention: its encoder buffers are a quarter of the plain path's (23 against 86 MB).
    /// It reads exactly the clip's window only in the engines `make deps` builds
    /// (scripts/whisper.sed); an unpatched whisper.cpp reads past it.
    private static func load(_ modelPath: String) throws -> WhisperHandle {
        var params = whisper_context_default_params()
        params.use_gpu = false
        params.flash_attn = true
        guard let context = whisper_init_from_file_with_params(modelPath, params) else {
            throw TranscriberError.modelInvalid(path: modelPath)
        }
        return WhisperHandle(context)
    }

    /// Encoder runs whisper finished in the latest transcription (its timings are reset at each
    /// one): one stopped by cancellation is not counted (a pause stops the pass under way inside
    /// the encoder, see scripts/whisper_draft.cpp).
    var encoderRuns: Int32 {
        dialogue_memo_encoder_runs(context)
    }

    /// Whether whisper has the language code (en, ja, …); needs no model.
    public static func knowsLanguage(_ code: String) -> Bool {
        EngineLog.install()   // whisper logs an unknown code
        return whisper_lang_id(code) >= 0
    }

    /// Transcribes 16 kHz mono samples in [-1, 1]. Cancelling the task stops whisper at its
    /// next compute step, inside the encoder too (a cancelled exchange does not wait for a long clip) and throws
    /// `CancellationError`, as a task cancelled before the call does. Work whisper finished
    /// before it saw the cancellation is returned.
    public func transcribe(_ samples: [Float], options: TranscriptionOptions) async throws -> Transcript {
        try Task.checkCancellation()
        let abort = AbortFlag()
        return try await withTaskCancellationHandler {
            try run(samples, options: options, abort: abort)
        } onCancel: {
            abort.raise()
        }
    }

    func run(_ samples: [Float], options: TranscriptionOptions, abort: AbortFlag) throws -> Transcript {
        guard Self.knowsLanguage(options.language) else {
            throw TranscriberError.unsupportedLanguage(options.language)
        }
        // Silence is never sent to whisper: it would come back as invented words.
        if let filter = options.hallucinationFilter,
           !AudioLevel.containsSpeechEnergy(samples, threshold: filter.quietLevel) {
            return Transcript(language: options.language, segments: [])
        }
        var params = Self.parameters(options, sampleCount: samples.count)
        let callbacks = attachCallbacks(to: &params, abort: abort, progress: options.progress)
        defer { callbacks.forEach { $0.release() } }

        whisper_reset_timings(context)
        var accepted: Int32 = -1
        let status = decode(samples, params: params, options: options, accepted: &accepted)
        if EngineLog.isVerbose { whisper_print_timings(context) }
        TimeMarks.mark("decoded")
        guard status == 0 else { throw abort.isRaised ? CancellationError() : TranscriberError.failed(code: status) }

        var (segments, tokens) = readSegments()
        if let filter = options.hallucinationFilter {
            segments = filter.filter(segments, samples: samples)
        }
        TimeMarks.mark("filtered")
        return Transcript(language: options.language, segments: segments, tokens: tokens,
                          draftAccepted: options.draft == nil || accepted < 0 ? nil : Int(accepted))
    }

    /// Whisper's parameters for `options` (its callbacks come with `attachCallbacks`).
    static func parameters(_ options: TranscriptionOptions, sampleCount: Int) -> whisper_full_params {
        var params = whisper_full_default_params(options.beamSize > 1 ? WHISPER_SAMPLING_BEAM_SEARCH
                                                                       : WHISPER_SAMPLING_GREEDY)
        params.beam_search.beam_size = max(options.beamSize, 1)
        params.n_threads = options.threads
        params.print_progress = false
        params.print_realtime = false
        params.print_timestamps = false
        params.print_special = false
        params.no_context = true
        params.single_segment = false
        params.max_tokens = options.maxTokensPerSegment
        params.suppress_blank = true
        params.suppress_nst = false   // the same tokens are suppressed by `tokenRules`, cheaper
        params.no_timestamps = !options.timestamps
        params.temperature_inc = options.temperatureFallback ? options.temperatureIncrement : 0
        if let frames = options.audioContext {
            params.audio_ctx = frames
        } else if options.fitAudioContextToClip {
            params.audio_ctx = audioContext(forSamples: sampleCount)
        }
        return params
    }

    /// Points whisper's callbacks at their objects: the abort flag, the token rules and the
    /// progress report. The objects are retained until the returned references are released.
    func attachCallbacks(to params: inout whisper_full_params, abort: AbortFlag,
                         progress: (@Sendable (Int) -> Void)?) -> [Unmanaged<AnyObject>] {
        let abortFlag = Unmanaged<AnyObject>.passRetained(abort)
        params.abort_callback = { data in
            guard let data else { return false }
            return Unmanaged<AbortFlag>.fromOpaque(data).takeUnretainedValue().isRaised
        }
        params.abort_callback_user_data = abortFlag.toOpaque()
        let rules = Unmanaged<AnyObject>.passRetained(tokenRules)
        params.logits_filter_callback = { _, _, tokens, count, logits, data in
            guard let data, let logits else { return }
            Unmanaged<TokenRules>.fromOpaque(data).takeUnretainedValue()
                .apply(to: logits, after: UnsafeBufferPointer(start: tokens, count: Int(count)))
        }
        params.logits_filter_callback_user_data = rules.toOpaque()
        guard let progress else { return [abortFlag, rules] }
        let handler = Unmanaged<AnyObject>.passRetained(ProgressHandler(progress))
        params.progress_callback = { _, _, percent, data in
            guard let data else { return }
            Unmanaged<ProgressHandler>.fromOpaque(data).takeUnretainedValue().report(Int(percent))
        }
        params.progress_callback_user_data = handler.toOpaque()
        return [abortFlag, rules, handler]
    }

    /// Runs whisper on `samples` (from `options.draft` on, when there is one; `accepted`: how
    /// much of the draft it kept); whisper's status.
    func decode(_ samples: [Float], params: whisper_full_params, options: TranscriptionOptions,
                accepted: inout Int32) -> Int32 {
        var params = params
        return options.language.withCString { language in
            params.language = language
            let prompt = options.initialPrompt.flatMap { strdup($0) }
            defer { free(prompt) }
            params.initial_prompt = UnsafePointer(prompt)
            return samples.withUnsafeBufferPointer { buffer in
                guard let draft = options.draft else {
                    return dialogue_memo_full(context, params, buffer.baseAddress, Int32(buffer.count))
                }
                return draft.withUnsafeBufferPointer { tokens in
                    dialogue_memo_full_with_draft(context, params, buffer.baseAddress, Int32(buffer.count),
                                                  tokens.baseAddress, Int32(tokens.count), &accepted)
                }
            }
        }
    }

    /// The segments whisper wrote, and the text tokens of all of them (the next draft).
    func readSegments() -> (segments: [TranscriptSegment], tokens: [Int32]) {
        var segments: [TranscriptSegment] = []
        var tokens: [Int32] = []
        let endOfText = whisper_token_eot(context)
        for i in 0..<whisper_full_n_segments(context) {
            tokens += (0..<whisper_full_n_tokens(context, i)).map { whisper_full_get_token_id(context, i, $0) }.filter { $0 < endOfText }
            segments.append(TranscriptSegment(
                start: Double(whisper_full_get_segment_t0(context, i)) / 100,
                end: Double(whisper_full_get_segment_t1(context, i)) / 100,
                text: String(cString: whisper_full_get_segment_text(context, i)),
                noSpeechProbability: whisper_full_get_segment_no_speech_prob(context, i),
                finalMarkProbability: Self.finalMarkProbability(segment: i, in: context),
                averageLogProbability: Self.averageLogProbability(segment: i, in: context)))
        }
        return (segments, tokens)
    }

    /// The mean log-probability of the segment's text tokens (special and timestamp tokens left
    /// out: they say where, not what).
    static func averageLogProbability(segment: Int32, in context: OpaquePointer) -> Float {
        let endOfText = whisper_token_eot(context)
        let logProbabilities = (0..<whisper_full_n_tokens(context, segment))
            .map { whisper_full_get_token_data(context, segment, $0) }
            .filter { $0.id < endOfText }.map(\.plog)
        return logProbabilities.isEmpty ? 0 : logProbabilities.reduce(0, +) / Float(logProbabilities.count)
    }

    /// The probability of the segment's last text token when it is a punctuation mark.
    static func finalMarkProbability(segment: Int32, in context: OpaquePointer) -> Float? {
        let endOfText = whisper_token_eot(context)
        for index in stride(from: whisper_full_n_tokens(context, segment) - 1, through: 0, by: -1) {
            let token = whisper_full_get_token_data(context, segment, index)
            guard token.id < endOfText else { continue }
            let text = String(cString: whisper_full_get_token_text(context, segment, index)).trimmingCharacters(in: .whitespaces)
            return text.unicodeScalars.allSatisfy { CharacterSet.punctuationCharacters.contains($0) } && !text.isEmpty ? token.p : nil
        }
        return nil
    }

    /// The encoder's window in frames (1500 = 30 s), sized to the clip: the encoder otherwise
    /// always processes 30 s. At least 256 frames (5.12 s, `least`); above that the clip plus
    /// `margin` in steps of 32 frames, so a short answer does not pay for a much longer encoder
    /// run (unpatched whisper.cpp needed multiples of 256: its flash attention read past any
    /// other size what earlier clips left there; scripts/whisper.sed). A window
    /// this close needs room after the speech, or a clip can come out repeated; the accuracy
    /// and the time it saves are in scripts/speech.md.
    /// Beyond 1280 frames the model's full 1500, as every whisper.cpp run uses by default.
    public static func audioContext(forSamples count: Int, step: Int32 = 32, least: Int32 = 256, margin: Double = 0.6) -> Int32 {
        let seconds = Double(count) / Double(sampleRate)
        let frames = Int32((seconds + margin) * 50)   // 50 encoder frames per second
        let padded = max(least, (frames + step - 1) / step * step)
        return padded > 1280 ? 1500 : padded
    }
}

/// Symbols that are not speech (brackets, music notes, …), as whisper.cpp's `suppress_nst`
/// lists them after OpenAI's tokenizer: whisper.cpp looks each one up by string at every step
/// of every decoder (about 110 lookups per token); here they are found once per model.
let nonSpeechSymbols = [
    "\"", "#", "(", ")", "*", "+", "/", ":", ";", "<", "=", ">", "@", "[", "\\", "]", "^",
    "_", "`", "{", "|", "}", "~", "「", "」", "『", "』", "<<", ">>", "<<<", ">>>", "--",
    "---", "-(", "-[", "('", "(\"", "((", "))", "(((", ")))", "[[", "]]", "{{", "}}", "♪♪",
    "♪♪♪", "♩", "♪", "♫", "♬", "♭", "♮", "♯",
]

extension Transcriber {
    /// The ids of `nonSpeechSymbols`, alone or after a space, plus " -" and " '" (allowed only
    /// inside words): what `suppress_nst` suppresses.
    static func nonSpeechTokens(_ context: OpaquePointer) -> [whisper_token] {
        let wanted = Set(nonSpeechSymbols.flatMap { [Array($0.utf8), Array(" \($0)".utf8)] } + [Array(" -".utf8), Array(" '".utf8)])
        // Most tokens are words: a first or last byte no symbol has, or longer than any, rules
        // them out before their text is copied (the whole vocabulary took 8-10 ms a load).
        let longest = wanted.map(\.count).max() ?? 0
        var firsts = [Bool](repeating: false, count: 256), lasts = firsts
        for symbol in wanted {
            firsts[Int(symbol[0])] = true
            lasts[Int(symbol[symbol.count - 1])] = true
        }
        return (0..<whisper_n_vocab(context)).filter { token in
            guard let text = whisper_token_to_str(context, token) else { return false }
            let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
            let count = strnlen(text, longest + 1)
            guard count > 0, count <= longest, firsts[Int(bytes[0])], lasts[Int(bytes[count - 1])] else { return false }
            return wanted.contains(Array(UnsafeBufferPointer(start: bytes, count: count)))
        }
    }
}

/// What whisper may sample next, applied to its logits at every step: no non-speech symbols,
/// and a decoding loop ends its segment at once (only end-of-text and timestamps stay
/// possible) instead of running up to the token cap.
final class TokenRules: Sendable {
    let nonSpeech: [whisper_token]
    let endOfText: whisper_token
    init(nonSpeech: [whisper_token], endOfText: whisper_token) {
        self.nonSpeech = nonSpeech
        self.endOfText = endOfText
    }

    func apply(to logits: UnsafeMutablePointer<Float>, after tokens: UnsafeBufferPointer<whisper_token_data>) {
        for token in nonSpeech { logits[Int(token)] = -.infinity }
        let text = tokens.lazy.map(\.id).filter { $0 < self.endOfText }
        guard HallucinationFilter.endsInLoop(Array(text.suffix(3 * HallucinationFilter.longestLoopTokens))) else { return }
        for token in 0..<Int(endOfText) { logits[token] = -.infinity }
    }
}

/// `TranscriptionOptions.progress`, boxed for whisper's C callback.
final class ProgressHandler: Sendable {
    let report: @Sendable (Int) -> Void
    init(_ report: @escaping @Sendable (Int) -> Void) { self.report = report }
}

/// Owns the whisper context; frees it when the last reference goes.
final class WhisperHandle {
    let context: OpaquePointer
    init(_ context: OpaquePointer) { self.context = context }
    deinit { whisper_free(context) }
}

/// Raised when the task running a transcription is cancelled; whisper's abort callback polls
/// it between compute steps, on whisper's thread.
final class AbortFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    func raise() { raised.store(true, ordering: .relaxed) }
    var isRaised: Bool { raised.load(ordering: .relaxed) }
}
