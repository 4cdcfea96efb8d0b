import CLlama
import Foundation

/// Next steps in one pass: after the prompt (instructions and all the numbered sentences),
/// each sentence is asked about in a sequence of its own that shares the prompt's cache cells
/// ("Sentence 3: "…" Is it a next step? Answer:"), all of them in one batch, and the model's
/// log-odds of " yes" over " no" is read at each question's end. No sentence's answer is forced
/// into another's context, and the prompt is evaluated once (it stays cached for the key).
extension LanguageModel {
    func answerOdds(prompt: String, questions: [String], yes: String, no: String,
                    deadline: Deadline = .unlimited) throws -> [Double] {
        let promptTokens = tokenize(prompt, addSpecial: true)
        let yesToken = tokenize(yes, addSpecial: false).first ?? 0
        let noToken = tokenize(no, addSpecial: false).first ?? 0
        let fromHiddenStates = canScoreFromHiddenStates()
        try evaluate(promptTokens, hidden: fromHiddenStates)
        try deadline.check()
        let start = promptTokens.count
        let asked = questions.map { tokenize($0, addSpecial: false) }
        // Sequence 0 holds the prompt and the last one is the hidden-state check's.
        let perBatch = Self.maxSequences - 2
        var odds: [Double] = []
        for first in stride(from: 0, to: asked.count, by: perBatch) {
            let chunk = Array(asked[first..<min(first + perBatch, asked.count)])
            odds += try answerOdds(chunk, after: start, yes: yesToken, no: noToken, fromHiddenStates: fromHiddenStates)
            try deadline.check()
        }
        return odds
    }

    private func answerOdds(_ questions: [[llama_token]], after start: Int, yes: llama_token, no: llama_token,
                            fromHiddenStates: Bool) throws -> [Double] {
        guard start + (questions.map(\.count).max() ?? 0) < contextSize else {
            throw LanguageModelError.promptTooLong(tokens: start + (questions.map(\.count).max() ?? 0), limit: contextSize)
        }
        let memory = llama_get_memory(context)
        for index in questions.indices { llama_memory_seq_cp(memory, 0, llama_seq_id(index + 1), -1, -1) }
        defer {
            for index in questions.indices { _ = llama_memory_seq_rm(memory, llama_seq_id(index + 1), -1, -1) }
        }
        let total = questions.map(\.count).reduce(0, +)
        var batch = llama_batch_init(Int32(max(total, 1)), 0, 1)
        defer { llama_batch_free(batch) }
        var row = 0
        var lastRows: [Int32] = []
        for (index, tokens) in questions.enumerated() {
            for (offset, token) in tokens.enumerated() {
                batch.token[row] = token
                batch.pos[row] = llama_pos(start + offset)
                batch.n_seq_id[row] = 1
                batch.seq_id[row]![0] = llama_seq_id(index + 1)
                batch.logits[row] = offset == tokens.count - 1 ? 1 : 0
                row += 1
            }
            lastRows.append(Int32(row - 1))
        }
        batch.n_tokens = Int32(total)
        if fromHiddenStates {
            return try hiddenStates(batch).map { Double(try logit(of: yes, hidden: $0) - logit(of: no, hidden: $0)) }
        }
        let status = llama_decode(context, batch)
        guard status == 0 else { throw LanguageModelError.decodeFailed(code: status) }
        return try lastRows.map { row in
            guard let logits = llama_get_logits_ith(context, row) else { throw LanguageModelError.decodeFailed(code: -100) }
            return Double(logits[Int(yes)] - logits[Int(no)])
        }
    }
}
