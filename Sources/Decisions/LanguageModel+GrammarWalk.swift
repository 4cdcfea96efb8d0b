import CLlama
import CLlamaGuard
import Foundation

/// Walks a grammar through llama.cpp's own grammar engine without running the model: at each
/// step every candidate token is offered to the grammar sampler, one it allows is picked at
/// random, and fed back. This is how the tests show that a generated grammar can write only
/// what we can read (each walk is one string the grammar admits, chosen by chance).
extension LanguageModel {
    /// Tokens the walk may use: short pieces made only of `characters` (by default, those of
    /// the layout grammar: JSON punctuation, digits and the letters of its keys and values),
    /// plus end-of-generation. A smaller pool makes each step cheaper.
    public func grammarWalkPool(characters: String = #"{}[]",:0123456789firstSourceIsTitlegroupsfalse"#) -> [Int32] {
        let allowed = Set(characters.unicodeScalars)
        var pool: [llama_token] = []
        for token in 0..<Int32(vocabularySize) {
            if llama_vocab_is_eog(vocab, token) { pool.append(token); continue }
            if llama_vocab_is_control(vocab, token) { continue }
            let text = piece(token)
            guard !text.isEmpty, text.utf8.count <= 8, text.unicodeScalars.allSatisfy(allowed.contains) else { continue }
            pool.append(token)
        }
        return pool
    }

    /// One random string the grammar admits (ends when end-of-generation is picked, which the
    /// grammar allows only once complete). Throws if the grammar does not parse, gets stuck
    /// (no candidate allowed) or throws inside llama.cpp.
    public func walkGrammar(_ grammar: String, seed: UInt64, maxSteps: Int = 2_000,
                            pool: [Int32]? = nil) throws -> String {
        var error = [CChar](repeating: 0, count: 512)
        func errorText() -> String {
            String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        guard let sampler = dm_grammar_sampler(vocab, grammar, "root", &error, error.count) else {
            throw LanguageModelError.grammarInvalid(errorText())
        }
        defer { llama_sampler_free(sampler) }
        let candidates = pool ?? grammarWalkPool()
        var random = SplitMix64(seed: seed)
        var bytes: [UInt8] = []
        for _ in 0..<maxSteps {
            var data = candidates.map { llama_token_data(id: $0, logit: 0, p: 0) }
            let allowed: [llama_token] = try data.withUnsafeMutableBufferPointer { buffer in
                var array = llama_token_data_array(data: buffer.baseAddress, size: buffer.count, selected: -1, sorted: false)
                guard dm_apply(sampler, &array, &error, error.count) else {
                    throw LanguageModelError.samplingFailed(errorText())
                }
                return buffer.prefix(array.size).filter { $0.logit.isFinite }.map(\.id)
            }
            guard !allowed.isEmpty else { throw LanguageModelError.samplingFailed("no token allowed after \(String(decoding: bytes, as: UTF8.self))") }
            // End as soon as the grammar allows it half of the time, so walks stay short.
            let ends = allowed.filter { llama_vocab_is_eog(vocab, $0) }
            if !ends.isEmpty && (ends.count == allowed.count || random.next() % 2 == 0) {
                return String(decoding: bytes, as: UTF8.self)
            }
            let choices = allowed.filter { !llama_vocab_is_eog(vocab, $0) }
            let token = choices[Int(random.next() % UInt64(choices.count))]
            guard dm_accept(sampler, token, &error, error.count) else {
                throw LanguageModelError.samplingFailed(errorText())
            }
            bytes += Array(piece(token).utf8)
        }
        throw LanguageModelError.tooManyTokens(limit: maxSteps)
    }

    /// Whether the grammar accepts exactly `text` as tokenized by this model, then allows the end.
    public func grammarAccepts(_ grammar: String, text: String) throws -> Bool {
        var error = [CChar](repeating: 0, count: 512)
        guard let sampler = dm_grammar_sampler(vocab, grammar, "root", &error, error.count) else {
            throw LanguageModelError.grammarInvalid(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { llama_sampler_free(sampler) }
        for token in tokenize(text, addSpecial: false) {
            var data = [llama_token_data(id: token, logit: 0, p: 0)]
            let ok = data.withUnsafeMutableBufferPointer { buffer -> Bool in
                var array = llama_token_data_array(data: buffer.baseAddress, size: 1, selected: -1, sorted: false)
                return dm_apply(sampler, &array, &error, error.count) && buffer[0].logit.isFinite
            }
            guard ok, dm_accept(sampler, token, &error, error.count) else { return false }
        }
        var end = [llama_token_data(id: llama_vocab_eos(vocab), logit: 0, p: 0)]
        return end.withUnsafeMutableBufferPointer { buffer -> Bool in
            var array = llama_token_data_array(data: buffer.baseAddress, size: 1, selected: -1, sorted: false)
            return dm_apply(sampler, &array, &error, error.count) && buffer[0].logit.isFinite
        }
    }

    /// Whether llama.cpp's parser accepts the grammar (the sampler is created).
    public func grammarParses(_ grammar: String) -> Bool {
        var error = [CChar](repeating: 0, count: 512)
        guard let sampler = dm_grammar_sampler(vocab, grammar, "root", &error, error.count) else { return false }
        llama_sampler_free(sampler)
        return true
    }
}

/// A small seeded generator so walks and fuzz runs are reproducible.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
