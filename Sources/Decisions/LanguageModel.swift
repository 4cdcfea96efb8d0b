import CLlama
import CLlamaGuard
import DialogueCore
import Foundation

public enum LanguageModelError: Error, CustomStringConvertible, Equatable {
    case modelMissing(path: String)
    case modelUnreadable(path: String)
    case modelInvalid(path: String)
    case contextFailed
    case promptTooLong(tokens: Int, limit: Int)
    case decodeFailed(code: Int32)
    /// The task was cancelled.
    case cancelled
    /// The call's `Deadline` passed.
    case overBudget(Duration)

    public var description: String {
        switch self {
        case .modelMissing(let path):
            return "language model \(path): no such file. Install the package again (or run `make deps` in a source tree), or pass --llm-model PATH to a GGUF file."
        case .modelUnreadable(let path):
            return "language model \(path): not readable. Check its permissions."
        case .modelInvalid(let path):
            return "language model \(path): not a GGUF model llama.cpp can load (or damaged). Install the package again (or run `make deps` in a source tree), or choose another with --llm-model."
        case .contextFailed:
            return "llama.cpp could not create a context (out of memory?)."
        case .promptTooLong(let tokens, let limit):
            return "the prompt has \(tokens) tokens; the context holds \(limit)."
        case .decodeFailed(let code):
            return "llama.cpp failed to evaluate the prompt (error \(code))."
        case .cancelled:
            return "the decision was cancelled"
        case .overBudget(let budget):
            return "over the budget of \(budget)"
        }
    }
}

/// A GGUF model and one context, owned together by this actor: llama.cpp contexts are not
/// thread-safe, and keeping one context lets the constant instruction prefix stay in the KV
/// cache across calls (only the tokens after the common prefix are evaluated again).
public actor LanguageModel {
    let handle: LlamaHandle
    var model: OpaquePointer { handle.model }
    var context: OpaquePointer { handle.context }
    var vocab: OpaquePointer { handle.vocab }
    /// The tokens whose keys and values are in the cache, in order.
    var cached: [llama_token] = []
    /// The answer last read after the ending probe's instruction (in its own sequence), with
    /// its layer's rows: a longer draft of the same answer reads only what it adds.
    var probeAnswer = ProbeAnswer()
    /// Sequences one context holds: the prompt's, plus one per option scored at once (20 at
    /// most). No more: llama.cpp reserves (and clears) an output row of the whole vocabulary per
    /// sequence, 1 MB each for gemma.
    static let maxSequences = QuestionChoice.allCases.count + 1

    public nonisolated let path: String
    public nonisolated let vocabularySize: Int
    /// Width of the hidden state (one row of the output matrix).
    nonisolated let embeddingSize: Int
    nonisolated let layerCount: Int
    nonisolated let fileBytes: Int
    /// Rows of the output matrix already read from the file, by token.
    var outputRows: [llama_token: [Float]] = [:]
    /// Whether logits computed from hidden states match llama.cpp's own (checked once, on
    /// first use; nil until then). When they do not, scoring uses the full output layer.
    var hiddenScoringWorks: Bool?
    public nonisolated let contextSize: Int
    public nonisolated let summary: String
    /// The model's own chat template, if it carries one (instruction-tuned models do).
    public nonisolated let chatTemplate: String?

    public init(path: String, contextSize: Int = 2048, threads: Int32 = 2) throws {
        LlamaBackend.initialize()
        guard FileManager.default.fileExists(atPath: path) else {
            throw LanguageModelError.modelMissing(path: path)
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw LanguageModelError.modelUnreadable(path: path)
        }
        var modelParams = llama_model_default_params()
        modelParams.n_gpu_layers = 0
        // No repacked copies of the weights: they are used in place from the mapped file.
        // Measured with gemma-3-270m: 13 MB less resident memory, decisions no slower.
        modelParams.use_extra_bufts = false
        guard let model = llama_model_load_from_file(path, modelParams) else {
            throw LanguageModelError.modelInvalid(path: path)
        }
        var params = llama_context_default_params()
        params.n_ctx = UInt32(contextSize)
        params.n_batch = UInt32(contextSize)
        params.n_ubatch = 512
        params.n_threads = threads
        params.n_threads_batch = threads
        // Options are scored side by side, one sequence each, sharing the prompt's cells
        // (see `score`): that needs several sequences in one unified cache. One more holds the
        // ending probe's instruction (`endingFeatures`).
        params.n_seq_max = UInt32(Self.maxSequences + 1)
        params.kv_unified = true
        params.no_perf = true
        // Sliding-window models (gemma-3) otherwise drop the cache and re-read every prompt.
        params.swa_full = true
        // Keys at 8 bits: the cache holds 4,096 cells so a long exchange's sentences fit, and
        // that is a good part of a dialogue's peak memory. Values stay f16: quantized values need
        // flash attention, which made decisions slower on CPU.
        params.type_k = GGML_TYPE_Q8_0
        let capture = UnsafeMutablePointer<dm_hidden_capture>.allocate(capacity: 1)
        capture.initialize(to: dm_hidden_capture())
        dm_install_hidden_capture(&params, capture)
        guard let context = llama_init_from_model(model, params) else {
            capture.deallocate()
            llama_model_free(model)
            throw LanguageModelError.contextFailed
        }
        let vocab = llama_model_get_vocab(model)!
        self.embeddingSize = Int(llama_model_n_embd(model))
        self.layerCount = Int(llama_model_n_layer(model))
        self.fileBytes = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        let outputMatrix = dm_output_matrix_open(path, Int64(embeddingSize), Int64(llama_vocab_n_tokens(vocab)))
        self.handle = LlamaHandle(model: model, context: context, vocab: vocab,
                                  capture: capture, outputMatrix: outputMatrix)
        self.path = path
        self.vocabularySize = Int(llama_vocab_n_tokens(vocab))
        self.contextSize = Int(llama_n_ctx(context))
        var buffer = [CChar](repeating: 0, count: 256)
        _ = llama_model_desc(model, &buffer, buffer.count)
        self.summary = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.chatTemplate = llama_model_chat_template(model, nil).map { String(cString: $0) }
    }


    /// Formats a system + user exchange with the model's chat template, ready for the answer.
    /// Base models (no template) get a plain completion prompt instead.
    public nonisolated func chatPrompt(system: String, user: String) -> String {
        guard let template = chatTemplate else { return system + "\n\n" + user + "\n" }
        return system.withCString { systemText in
            user.withCString { userText in
                "system".withCString { systemRole in
                    "user".withCString { userRole in
                        var messages = [llama_chat_message(role: systemRole, content: systemText),
                                        llama_chat_message(role: userRole, content: userText)]
                        var size = Int32((system.utf8.count + user.utf8.count) * 2 + 512)
                        for _ in 0..<2 {
                            var buffer = [CChar](repeating: 0, count: Int(size))
                            let n = llama_chat_apply_template(template, &messages, messages.count, true,
                                                              &buffer, size)
                            if n < 0 { break }
                            if n <= size {
                                return String(decoding: buffer.prefix(Int(n)).map { UInt8(bitPattern: $0) },
                                              as: UTF8.self)
                            }
                            size = n
                        }
                        return system + "\n\n" + user + "\n"
                    }
                }
            }
        }
    }

    public func tokenize(_ text: String, addSpecial: Bool) -> [llama_token] {
        let utf8Count = Int32(text.utf8.count)
        var tokens = [llama_token](repeating: 0, count: Int(utf8Count) + 8)
        var n = llama_tokenize(vocab, text, utf8Count, &tokens, Int32(tokens.count), addSpecial, true)
        if n < 0 {
            tokens = [llama_token](repeating: 0, count: Int(-n))
            n = llama_tokenize(vocab, text, utf8Count, &tokens, Int32(tokens.count), addSpecial, true)
        }
        return Array(tokens.prefix(Int(max(n, 0))))
    }

    /// Reads `text` into the KV cache (as the start of a later prompt), without computing
    /// anything after it.
    public func prefill(_ text: String) throws {
        try evaluate(tokenize(text, addSpecial: true), hidden: canScoreFromHiddenStates())
    }

    /// Brings the KV cache to exactly `tokens`: keeps the common prefix with what is cached,
    /// removes the rest, and evaluates only the new suffix.
    /// With `hidden`, the last token's final hidden state is returned instead of its logits
    /// being computed (see `hiddenStates`).
    @discardableResult
    func evaluate(_ tokens: [llama_token], hidden: Bool = false) throws -> [Float]? {
        guard tokens.count < contextSize else {
            throw LanguageModelError.promptTooLong(tokens: tokens.count, limit: contextSize)
        }
        var common = zip(cached, tokens).prefix { $0 == $1 }.count
        // The last token must be evaluated again so its logits are fresh.
        if common == tokens.count { common -= 1 }
        let memory = llama_get_memory(context)
        if !llama_memory_seq_rm(memory, 0, llama_pos(common), -1) {
            llama_memory_clear(memory, true)
            common = 0
        }
        cached = Array(tokens.prefix(common))
        var suffix = Array(tokens[common...])
        do {
            let state = try suffix.withUnsafeMutableBufferPointer { buffer in
                let batch = llama_batch_get_one(buffer.baseAddress, Int32(buffer.count))
                if hidden { return try hiddenStates(batch).last }
                let status = llama_decode(context, batch)
                guard status == 0 else { throw LanguageModelError.decodeFailed(code: status) }
                return nil
            }
            cached = tokens
            return state
        } catch {
            llama_memory_clear(memory, true)
            cached = []
            throw error
        }
    }
}

extension llama_batch {
    /// `tokens` in one sequence at positions `start`, `start + 1`, …; a token gets an output
    /// (logits, or its hidden state) where `output` says so for its index in `tokens`.
    mutating func fill(_ tokens: some Collection<llama_token>, from start: Int, sequence: llama_seq_id,
                       output: (Int) -> Bool) {
        for (i, token) in tokens.enumerated() {
            self.token[i] = token
            pos[i] = llama_pos(start + i)
            n_seq_id[i] = 1
            seq_id[i]![0] = sequence
            logits[i] = output(i) ? 1 : 0
        }
        n_tokens = Int32(tokens.count)
    }
}

/// Owns the model and its context; frees both when the last reference goes.
final class LlamaHandle {
    let model: OpaquePointer
    let context: OpaquePointer
    let vocab: OpaquePointer
    /// Read by the context's evaluation callback; lives as long as the context.
    let capture: UnsafeMutablePointer<dm_hidden_capture>
    let outputMatrix: OpaquePointer?

    init(model: OpaquePointer, context: OpaquePointer, vocab: OpaquePointer,
         capture: UnsafeMutablePointer<dm_hidden_capture>, outputMatrix: OpaquePointer?) {
        self.model = model
        self.context = context
        self.vocab = vocab
        self.capture = capture
        self.outputMatrix = outputMatrix
    }

    deinit {
        llama_free(context)
        llama_model_free(model)
        capture.deallocate()
        dm_output_matrix_free(outputMatrix)
    }
}

/// llama.cpp's process-wide set-up, done once; its log goes to standard error only when
/// DIALOGUE_MEMO_DEBUG is set.
enum LlamaBackend {
    private static let once: Void = {
        llama_backend_init()
        if ProcessInfo.processInfo.environment["DIALOGUE_MEMO_DEBUG"] != nil {
            llama_log_set({ _, text, _ in
                if let text { FileHandle.standardError.write(Data(String(cString: text).utf8)) }
            }, nil)
        } else {
            llama_log_set({ _, _, _ in }, nil)
        }
    }()

    static func initialize() { _ = once }
}
