import CLlama
import CLlamaGuard
import Foundation

/// Logits for a few tokens without the output layer. Scoring needs, after each position, the
/// logits of the few tokens the options allow there; llama.cpp would multiply every
/// position by the whole output matrix (262k rows for gemma), which was most of a decision's
/// time. Instead the decode stops at the final hidden states and the wanted rows of the output
/// matrix, read once from the GGUF file, are multiplied here.
extension LanguageModel {
    /// Decodes `batch` with every position's final hidden state copied out (the output layer
    /// is skipped, so llama.cpp's logits are stale afterwards). One row per output position.
    func hiddenStates(_ batch: llama_batch) throws -> [[Float]] {
        // No flags (llama_batch_get_one): the last token is the only output.
        var outputs = 1
        if let flags: UnsafeMutablePointer<Int8> = batch.logits { outputs = (0..<Int(batch.n_tokens)).filter { flags[$0] != 0 }.count }
        let all = try capturedStates(batch, rows: outputs)
        return stride(from: 0, to: all.count, by: embeddingSize).map { Array(all[$0..<($0 + embeddingSize)]) }
    }

    /// Decodes `batch` with hidden states copied out and the graph stopped there: the final
    /// ones of the output positions (`layerCount` 0), or the output of the first `layerCount`
    /// layers for every position of the batch. `rows` states, one after another.
    func capturedStates(_ batch: llama_batch, rows: Int, layerCount: Int32 = 0) throws -> [Float] {
        let capacity = rows * embeddingSize
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(capacity, 1))
        defer { buffer.deallocate() }
        let capture = handle.capture
        capture.pointee = dm_hidden_capture(rows: buffer, capacity: capacity, filled: 0, active: true, overflow: false,
                                            layer_count: layerCount)
        let status = llama_decode(context, batch)
        let result = capture.pointee
        capture.pointee = dm_hidden_capture()
        guard status == 0 else { throw LanguageModelError.decodeFailed(code: status) }
        guard !result.overflow, result.filled == capacity else { throw LanguageModelError.decodeFailed(code: -102) }
        return Array(UnsafeBufferPointer(start: buffer, count: capacity))
    }

    /// The logit of `token` for a hidden state: its row of the output matrix · the state.
    func logit(of token: llama_token, hidden: [Float]) throws -> Float {
        let row = try outputRow(token)
        var sum: Float = 0
        for i in 0..<embeddingSize { sum += row[i] * hidden[i] }
        return sum
    }

    /// Log-probabilities of `tokens` after a hidden state, normalized among `tokens` alone.
    func logProbabilities(among tokens: Set<llama_token>, hidden: [Float]) throws -> [llama_token: Float] {
        let logits = try tokens.map { ($0, try logit(of: $0, hidden: hidden)) }
        let norm = Self.logSumExp(logits.map { $0.1 })
        return Dictionary(uniqueKeysWithValues: logits.map { ($0.0, $0.1 - norm) })
    }

    private func outputRow(_ token: llama_token) throws -> [Float] {
        if let row = outputRows[token] { return row }
        var row = [Float](repeating: 0, count: embeddingSize)
        guard dm_output_matrix_row(handle.outputMatrix, token, &row) else {
            throw LanguageModelError.decodeFailed(code: -103)
        }
        outputRows[token] = row
        return row
    }

    /// Whether this model's logits are the output matrix times the hidden state (no bias, no
    /// soft-capping, a matrix we can read): checked once against llama.cpp's own logits for a
    /// short text, for the strongest and a spread of other tokens.
    func canScoreFromHiddenStates() -> Bool {
        if let known = hiddenScoringWorks { return known }
        let works = (try? checkHiddenScoring()) ?? false
        hiddenScoringWorks = works
        return works
    }

    /// Every logit through llama.cpp's output layer (for comparisons).
    func useOutputLayerOnly() { hiddenScoringWorks = false }

    /// Runs in a sequence of its own, so the prompt cached in sequence 0 stays.
    private func checkHiddenScoring() throws -> Bool {
        guard handle.outputMatrix != nil else { return false }
        let tokens = tokenize("Input is user data. The next question is", addSpecial: true)
        guard tokens.count >= 2, tokens.count < contextSize / 2 else { return false }
        let sequence = llama_seq_id(Self.maxSequences - 1)
        let memory = llama_get_memory(context)
        defer { _ = llama_memory_seq_rm(memory, sequence, -1, -1) }
        var batch = llama_batch_init(Int32(tokens.count), 0, 1)
        defer { llama_batch_free(batch) }
        let last = tokens.count - 1
        batch.fill(tokens, from: 0, sequence: sequence) { $0 == last }
        guard llama_decode(context, batch) == 0, let logits = llama_get_logits_ith(context, -1) else { return false }
        let full = Array(UnsafeBufferPointer(start: logits, count: vocabularySize))
        // The same last position again, this time stopping at the hidden state.
        guard llama_memory_seq_rm(memory, sequence, llama_pos(last), -1) else { return false }
        batch.fill(tokens[last...], from: last, sequence: sequence) { _ in true }
        let hidden = try hiddenStates(batch)[0]
        let top = full.indices.max { full[$0] < full[$1] }!
        let probes = [top] + Array(stride(from: 7, to: full.count, by: max(full.count / 16, 1)))
        return try probes.allSatisfy { index in
            let ours = try logit(of: llama_token(index), hidden: hidden)
            // llama.cpp rounds the hidden state to 8 bits for quantized matrices: up to ~0.2
            // apart here. A missed bias or soft-cap, or another matrix, is off by whole units.
            return abs(ours - full[index]) <= 0.5 + 0.03 * abs(full[index])
        }
    }
}
