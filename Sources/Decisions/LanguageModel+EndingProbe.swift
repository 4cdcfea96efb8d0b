import CLlama
import DialogueCore
import Foundation

/// The features `EndingProbe` reads: one middle layer's output averaged over the latest
/// answer's tokens and over its last few, the answer placed after a short fixed instruction
/// about ending. The instruction lives in a sequence of its own, evaluated once, so the
/// decision prompt's cache (sequence 0) is untouched; only the answer's tokens are decoded,
/// and only up to the layer.
extension LanguageModel {
    static let probeSequence = llama_seq_id(maxSequences)

    /// What the answer is read after. Changing it changes the features: train the probe again.
    static let probeInstruction = PromptPreamble.text
        + "\nTask: tell whether the person wants to stop, end the conversation, put it off, or not have their words recorded or kept."

    /// The layer's mean over the whole answer and over its last `EndingFeatures.closeTokens`
    /// tokens; nil for an empty answer (no token to average over). The tokens it shares with
    /// the answer read last (the same answer as drafted while it was spoken) keep their rows:
    /// only the rest is decoded.
    public func endingFeatures(of answer: String, layerCount: Int) throws -> EndingFeatures? {
        let body = tokenize(UserText.sanitized(answer), addSpecial: false)
        guard !body.isEmpty else { return nil }
        let prefix = try probePrefix()
        guard prefix.count + body.count < contextSize else {
            throw LanguageModelError.promptTooLong(tokens: prefix.count + body.count, limit: contextSize)
        }
        let earlier = probeAnswer
        probeAnswer = ProbeAnswer()   // until this one is read whole
        let kept = earlier.layerCount == layerCount ? zip(earlier.tokens, body).prefix { $0 == $1 }.count : 0
        _ = llama_memory_seq_rm(llama_get_memory(context), Self.probeSequence, llama_pos(prefix.count + kept), -1)
        var rows = Array(earlier.rows.prefix(kept * embeddingSize))
        if kept < body.count {
            var batch = llama_batch_init(Int32(body.count - kept), 0, 1)
            defer { llama_batch_free(batch) }
            batch.fill(body[kept...], from: prefix.count + kept, sequence: Self.probeSequence) { _ in true }
            rows += try capturedStates(batch, rows: body.count - kept, layerCount: Int32(layerCount))
        }
        probeAnswer = ProbeAnswer(tokens: body, rows: rows, layerCount: layerCount)
        func mean(_ tokens: Range<Int>) -> [Float] {
            var sum = [Float](repeating: 0, count: embeddingSize)
            for token in tokens { for i in 0..<embeddingSize { sum[i] += rows[token * embeddingSize + i] } }
            return sum.map { $0 / Float(tokens.count) }
        }
        return EndingFeatures(whole: mean(0..<body.count),
                              close: mean(max(0, body.count - EndingFeatures.closeTokens)..<body.count))
    }

    /// The instruction's tokens, in the probe's sequence of the cache: evaluated when the
    /// sequence does not hold them and the answer read last (first use, or the cache was
    /// cleared since).
    private func probePrefix() throws -> [llama_token] {
        let marker = "\u{2063}\u{2063}"
        let template = chatPrompt(system: Self.probeInstruction, user: marker)
        let head = template.components(separatedBy: marker)[0] + "Latest answer: "
        let tokens = tokenize(head, addSpecial: true)
        let memory = llama_get_memory(context)
        if llama_memory_seq_pos_max(memory, Self.probeSequence) == llama_pos(tokens.count + probeAnswer.tokens.count - 1) {
            return tokens
        }
        _ = llama_memory_seq_rm(memory, Self.probeSequence, -1, -1)
        probeAnswer = ProbeAnswer()
        var batch = llama_batch_init(Int32(tokens.count), 0, 1)
        defer { llama_batch_free(batch) }
        batch.fill(tokens, from: 0, sequence: Self.probeSequence) { $0 == tokens.count - 1 }
        let status = llama_decode(context, batch)
        guard status == 0 else {
            _ = llama_memory_seq_rm(memory, Self.probeSequence, -1, -1)
            throw LanguageModelError.decodeFailed(code: status)
        }
        return tokens
    }

    /// What identifies the weights a probe was trained on: the same shape and the same file size.
    public nonisolated var fingerprint: ModelFingerprint {
        ModelFingerprint(embedding: embeddingSize, layers: layerCount, fileBytes: fileBytes)
    }
}

/// An answer in the ending probe's sequence: its tokens and one layer's output for each.
struct ProbeAnswer {
    var tokens: [llama_token] = []
    var rows: [Float] = []
    var layerCount = 0
}

/// One layer's output averaged over the answer, and over its close alone: an ending said after
/// content ("…, right, I reckon that'll do me") is a small part of the whole mean.
public struct EndingFeatures: Sendable, Hashable {
    public static let closeTokens = 8
    public let whole: [Float]
    public let close: [Float]
}

/// What identifies the weights a probe was trained on, cheaply: the shape and the file's size
/// (another model, or the same in another quantization, differs in one of them).
public struct ModelFingerprint: Sendable, Hashable, Codable, CustomStringConvertible {
    public let embedding: Int
    public let layers: Int
    public let fileBytes: Int

    public var description: String { "\(embedding) wide, \(layers) layers, \(fileBytes) bytes" }

    public init(embedding: Int, layers: Int, fileBytes: Int) {
        self.embedding = embedding
        self.layers = layers
        self.fileBytes = fileBytes
    }
}
