import CLlama
import Foundation

/// Log-likelihood scoring: instead of letting a tiny model generate, ask how likely each
/// allowed option is after the prompt. The prompt is evaluated once (and stays cached); each
/// option is evaluated after it as one batch and removed again.
extension LanguageModel {
    /// Sum of log P(token | prompt, earlier tokens) for each continuation (tokenized on its
    /// own and appended, so every option is scored after the same prompt tokens).
    public func score(prompt: String, continuations: [String],
                      cancel: (@Sendable () -> Bool)? = nil) throws -> [Double] {
        let promptTokens = tokenize(prompt, addSpecial: true)
        return try score(promptTokens: promptTokens,
                         continuations: continuations.map { tokenize($0, addSpecial: false) }, cancel: cancel)
    }

    func score(promptTokens: [llama_token], continuations: [[llama_token]],
               cancel: (@Sendable () -> Bool)? = nil) throws -> [Double] {
        let first = try nextTokenLogProbabilities(after: promptTokens)
        var scores: [Double] = []
        for continuation in continuations {
            if cancel?() == true { throw LanguageModelError.cancelled }
            guard let head = continuation.first else { scores.append(0); continue }
            var total = Double(first[Int(head)])
            if continuation.count > 1 {
                let rest = try logProbabilities(of: continuation, after: promptTokens.count)
                total += rest
            }
            scores.append(total)
        }
        return scores
    }

    /// Log-softmax of the logits after `tokens` (evaluated through the prefix cache).
    func nextTokenLogProbabilities(after tokens: [llama_token]) throws -> [Float] {
        try evaluate(tokens)
        guard let logits = llama_get_logits_ith(context, -1) else {
            throw LanguageModelError.decodeFailed(code: -100)
        }
        return Self.logSoftmax(UnsafeBufferPointer(start: logits, count: vocabularySize))
    }

    /// Evaluates `continuation` minus its last token at positions `start…` in one batch
    /// (logits for every position), sums the log-probabilities of tokens 1…, and removes
    /// those positions from the cache again so the prompt stays cached alone.
    private func logProbabilities(of continuation: [llama_token], after start: Int) throws -> Double {
        let count = continuation.count - 1
        guard start + count < contextSize else {
            throw LanguageModelError.promptTooLong(tokens: start + count, limit: contextSize)
        }
        var batch = llama_batch_init(Int32(count), 0, 1)
        defer { llama_batch_free(batch) }
        for i in 0..<count {
            batch.token[i] = continuation[i]
            batch.pos[i] = llama_pos(start + i)
            batch.n_seq_id[i] = 1
            batch.seq_id[i]![0] = 0
            batch.logits[i] = 1
        }
        batch.n_tokens = Int32(count)
        let memory = llama_get_memory(context)
        defer {
            if !llama_memory_seq_rm(memory, 0, llama_pos(start), -1) {
                llama_memory_clear(memory, true)
                cached = []
            }
        }
        let status = llama_decode(context, batch)
        guard status == 0 else { throw LanguageModelError.decodeFailed(code: status) }
        var total = 0.0
        for i in 0..<count {
            guard let logits = llama_get_logits_ith(context, Int32(i)) else {
                throw LanguageModelError.decodeFailed(code: -100)
            }
            let buffer = UnsafeBufferPointer(start: logits, count: vocabularySize)
            total += Double(Self.logProbability(of: Int(continuation[i + 1]), in: buffer))
        }
        return total
    }

    static func logSoftmax(_ logits: UnsafeBufferPointer<Float>) -> [Float] {
        let norm = logSumExp(logits)
        return logits.map { $0 - norm }
    }

    static func logProbability(of token: Int, in logits: UnsafeBufferPointer<Float>) -> Float {
        logits[token] - logSumExp(logits)
    }

    static func logSumExp(_ logits: UnsafeBufferPointer<Float>) -> Float {
        let top = logits.max() ?? 0
        var sum: Float = 0
        for value in logits { sum += expf(value - top) }
        return top + logf(sum)
    }
}

extension LanguageModel {
    /// Evaluates `forced` after the prompt in one batch and returns, for each requested index
    /// of `forced`, the log-probabilities of `candidates` as the token *after* that index
    /// (index -1: right after the prompt). The forced tokens are removed from the cache again.
    func candidateLogProbabilities(promptTokens: [llama_token], forced: [llama_token], at indices: [Int],
                                   candidates: [llama_token]) throws -> [[Float]] {
        let afterPrompt = try nextTokenLogProbabilities(after: promptTokens)
        let start = promptTokens.count
        guard start + forced.count < contextSize else {
            throw LanguageModelError.promptTooLong(tokens: start + forced.count, limit: contextSize)
        }
        let wanted = Set(indices.filter { $0 >= 0 })
        var batch = llama_batch_init(Int32(max(forced.count, 1)), 0, 1)
        defer { llama_batch_free(batch) }
        for (i, token) in forced.enumerated() {
            batch.token[i] = token
            batch.pos[i] = llama_pos(start + i)
            batch.n_seq_id[i] = 1
            batch.seq_id[i]![0] = 0
            batch.logits[i] = wanted.contains(i) ? 1 : 0
        }
        batch.n_tokens = Int32(forced.count)
        let memory = llama_get_memory(context)
        defer {
            if !llama_memory_seq_rm(memory, 0, llama_pos(start), -1) {
                llama_memory_clear(memory, true)
                cached = []
            }
        }
        if !forced.isEmpty {
            let status = llama_decode(context, batch)
            guard status == 0 else { throw LanguageModelError.decodeFailed(code: status) }
        }
        return try indices.map { index in
            if index < 0 { return candidates.map { afterPrompt[Int($0)] } }
            guard let logits = llama_get_logits_ith(context, Int32(index)) else {
                throw LanguageModelError.decodeFailed(code: -100)
            }
            let buffer = UnsafeBufferPointer(start: logits, count: vocabularySize)
            let norm = Self.logSumExp(buffer)
            return candidates.map { buffer[Int($0)] - norm }
        }
    }
}
