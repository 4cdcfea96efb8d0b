import CLlama
import Foundation

/// Log-likelihood scoring: instead of letting a tiny model generate, ask how likely each
/// allowed option is after the prompt. The prompt is evaluated once (and stays cached); each
/// option is evaluated after it as one batch and removed again.
extension LanguageModel {
    /// Sum of log P(token | prompt, earlier tokens) for each continuation, each cut to the
    /// tokens that tell it apart: its shortest prefix found in no other entry of `among` (all
    /// the labels there are, so the cut is the same in every call). Fewer tokens to score means
    /// fewer positions to read. Each token's probability is taken among the tokens the options
    /// allow at that place (the choice the options leave), computed from hidden states without
    /// llama.cpp's output layer; a model whose logits cannot be computed that way is scored
    /// among the whole vocabulary instead (see `canScoreFromHiddenStates`). Both cuts trade a
    /// case or two of accuracy for much less latency.
    public func score(prompt: String, continuations: [String], cutAmong all: [String],
                      deadline: Deadline = .unlimited) throws -> [Double] {
        let cut = Self.distinctPrefixes(continuations.map { tokenize($0, addSpecial: false) },
                                        among: all.map { tokenize($0, addSpecial: false) })
        return try score(promptTokens: tokenize(prompt, addSpecial: true), continuations: cut, deadline: deadline)
    }

    /// Each sequence up to its first token that no other entry of `among` shares at that
    /// place (the shortest prefix that is its own).
    static func distinctPrefixes(_ sequences: [[llama_token]], among all: [[llama_token]]) -> [[llama_token]] {
        sequences.map { tokens in
            var length = 1
            while length < tokens.count,
                  all.contains(where: { $0 != tokens && $0.starts(with: tokens.prefix(length)) }) { length += 1 }
            return Array(tokens.prefix(length))
        }
    }

    func score(promptTokens: [llama_token], continuations: [[llama_token]],
               deadline: Deadline = .unlimited) throws -> [Double] {
        let first = try firstTokenLogProbabilities(after: promptTokens, of: Set(continuations.compactMap(\.first)))
        try deadline.check()
        let tree = ContinuationTree(continuations)
        // The tokens read after each node: the next token of every option passing through it.
        var wanted = Array(repeating: Set<llama_token>(), count: tree.nodes.count)
        for (index, continuation) in continuations.enumerated() {
            for (node, next) in zip(tree.paths[index], continuation.dropFirst()) { wanted[node].insert(next) }
        }
        let inner = tree.nodes.isEmpty ? [] : try treeLogProbabilities(tree, after: promptTokens.count, of: wanted)
        return continuations.enumerated().map { index, continuation in
            guard let head = continuation.first else { return 0 }
            var total = Double(first[head] ?? -.infinity)
            for (node, next) in zip(tree.paths[index], continuation.dropFirst()) { total += Double(inner[node][next] ?? -.infinity) }
            return total
        }
    }

    /// The log-probabilities of `heads` right after the prompt: among `heads` themselves (from
    /// the hidden state), or among the whole vocabulary when hidden-state scoring is unavailable.
    private func firstTokenLogProbabilities(after promptTokens: [llama_token],
                                            of heads: Set<llama_token>) throws -> [llama_token: Float] {
        if canScoreFromHiddenStates(), let hidden = try evaluate(promptTokens, hidden: true) {
            return try logProbabilities(among: heads, hidden: hidden)
        }
        let all = try nextTokenLogProbabilities(after: promptTokens)
        return Dictionary(uniqueKeysWithValues: heads.map { ($0, all[Int($0)]) })
    }

    /// Every option after the same prompt in ONE decode: the options' tokens as a prefix tree
    /// (shared beginnings evaluated once), each option its own sequence sharing the prompt's
    /// cache cells. One batch of ~100 tokens costs about what one option of 8 did one by one.
    /// Returns, after each tree node, the log-probabilities of the `wanted` tokens (not the
    /// whole vocabulary: gemma's has 262k entries); the options' cells are removed again.
    private func treeLogProbabilities(_ tree: ContinuationTree, after start: Int,
                                      of wanted: [Set<llama_token>]) throws -> [[llama_token: Float]] {
        guard start + tree.depth < contextSize else {
            throw LanguageModelError.promptTooLong(tokens: start + tree.depth, limit: contextSize)
        }
        let sequences = tree.optionCount
        // Decided before the options' sequences exist: the one-time check uses a sequence of its own.
        let fromHiddenStates = canScoreFromHiddenStates()
        guard sequences < Self.maxSequences else { throw LanguageModelError.decodeFailed(code: -101) }
        let memory = llama_get_memory(context)
        for option in 0..<sequences { llama_memory_seq_cp(memory, 0, llama_seq_id(option + 1), -1, -1) }
        defer {
            for option in 0..<sequences { _ = llama_memory_seq_rm(memory, llama_seq_id(option + 1), -1, -1) }
        }
        var batch = llama_batch_init(Int32(tree.nodes.count), 0, Int32(sequences))
        defer { llama_batch_free(batch) }
        for (i, node) in tree.nodes.enumerated() {
            batch.token[i] = node.token
            batch.pos[i] = llama_pos(start + node.depth)
            batch.n_seq_id[i] = Int32(node.options.count)
            for (j, option) in node.options.enumerated() { batch.seq_id[i]![j] = llama_seq_id(option + 1) }
            batch.logits[i] = 1
        }
        batch.n_tokens = Int32(tree.nodes.count)
        if fromHiddenStates {
            let hidden = try hiddenStates(batch)
            return try tree.nodes.indices.map { try logProbabilities(among: wanted[$0], hidden: hidden[$0]) }
        }
        let status = llama_decode(context, batch)
        guard status == 0 else { throw LanguageModelError.decodeFailed(code: status) }
        return try tree.nodes.indices.map { i in
            guard let logits = llama_get_logits_ith(context, Int32(i)) else { throw LanguageModelError.decodeFailed(code: -100) }
            let buffer = UnsafeBufferPointer(start: logits, count: vocabularySize)
            let norm = Self.logSumExp(buffer)
            return Dictionary(uniqueKeysWithValues: wanted[i].map { ($0, buffer[Int($0)] - norm) })
        }
    }

    /// Log-softmax of the logits after `tokens` (evaluated through the prefix cache).
    public func nextTokenLogProbabilities(after tokens: [llama_token]) throws -> [Float] {
        try evaluate(tokens)
        guard let logits = llama_get_logits_ith(context, -1) else {
            throw LanguageModelError.decodeFailed(code: -100)
        }
        return Self.logSoftmax(UnsafeBufferPointer(start: logits, count: vocabularySize))
    }

    static func logSoftmax(_ logits: UnsafeBufferPointer<Float>) -> [Float] {
        let norm = logSumExp(logits)
        return logits.map { $0 - norm }
    }

    static func logSumExp(_ logits: [Float]) -> Float {
        logits.withUnsafeBufferPointer { logSumExp($0) }
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
    /// (index -1: right after the prompt), each index's up to a constant of its own: only
    /// differences between candidates at one index mean something (then they need no output
    /// layer, see `hiddenStates`). The forced tokens are removed from the cache again.
    func candidateLogProbabilities(promptTokens: [llama_token], forced: [llama_token], at indices: [Int],
                                   candidates: [llama_token]) throws -> [[Float]] {
        let hiddenPath = !forced.isEmpty && canScoreFromHiddenStates()
        let afterPrompt: [Float]
        if hiddenPath {
            let hidden = try evaluate(promptTokens, hidden: true) ?? []
            afterPrompt = indices.contains(-1) ? try candidates.map { try logit(of: $0, hidden: hidden) } : []
        } else {
            let all = try nextTokenLogProbabilities(after: promptTokens)
            afterPrompt = candidates.map { all[Int($0)] }
        }
        let start = promptTokens.count
        guard start + forced.count < contextSize else {
            throw LanguageModelError.promptTooLong(tokens: start + forced.count, limit: contextSize)
        }
        let wanted = Set(indices.filter { $0 >= 0 })
        var batch = llama_batch_init(Int32(max(forced.count, 1)), 0, 1)
        defer { llama_batch_free(batch) }
        batch.fill(forced, from: start, sequence: 0) { wanted.contains($0) }
        let memory = llama_get_memory(context)
        defer {
            if !llama_memory_seq_rm(memory, 0, llama_pos(start), -1) {
                llama_memory_clear(memory, true)
                cached = []
            }
        }
        // Output rows are in batch order: row k belongs to the k-th wanted index.
        let outputRow = Dictionary(uniqueKeysWithValues: wanted.sorted().enumerated().map { ($1, $0) })
        if hiddenPath {
            let hidden = try hiddenStates(batch)
            return try indices.map { index in
                if index < 0 { return afterPrompt }
                return try candidates.map { try logit(of: $0, hidden: hidden[outputRow[index]!]) }
            }
        }
        if !forced.isEmpty {
            let status = llama_decode(context, batch)
            guard status == 0 else { throw LanguageModelError.decodeFailed(code: status) }
        }
        return try indices.map { index in
            if index < 0 { return afterPrompt }
            guard let logits = llama_get_logits_ith(context, Int32(index)) else {
                throw LanguageModelError.decodeFailed(code: -100)
            }
            let buffer = UnsafeBufferPointer(start: logits, count: vocabularySize)
            let norm = Self.logSumExp(buffer)
            return candidates.map { buffer[Int($0)] - norm }
        }
    }
}

/// The options' tokens, all but each one's last, as a prefix tree in depth-first order (the
/// order llama.cpp needs: every sequence's positions increase). A node's options are those
/// passing through it; `paths[o]` lists option o's nodes from the root.
struct ContinuationTree {
    struct Node { let token: llama_token; let depth: Int; var options: [Int] }
    private(set) var nodes: [Node] = []
    private(set) var paths: [[Int]]
    let optionCount: Int
    var depth: Int { (nodes.map(\.depth).max() ?? -1) + 1 }

    init(_ continuations: [[llama_token]]) {
        optionCount = continuations.count
        paths = Array(repeating: [], count: continuations.count)
        build(Array(continuations.indices), continuations, depth: 0)
    }

    private mutating func build(_ options: [Int], _ continuations: [[llama_token]], depth: Int) {
        // Options that still have a token to feed at this depth (the last token is only scored).
        let going = options.filter { continuations[$0].count - 1 > depth }
        var seen: [llama_token] = []
        for option in going where !seen.contains(continuations[option][depth]) {
            let token = continuations[option][depth]
            seen.append(token)
            let sharing = going.filter { continuations[$0][depth] == token }
            nodes.append(Node(token: token, depth: depth, options: sharing))
            for member in sharing { paths[member].append(nodes.count - 1) }
            build(sharing, continuations, depth: depth + 1)
        }
    }
}
