import Foundation

/// Every question of one interface language, rendered once at start-up and kept in memory, so
/// that no synthesis sits between a decision and its audio, and without espeak-ng's own silence
/// in front (the speaker adds its own). Nothing is written to disk.
public struct PromptCache<Key: Hashable & Sendable>: Sendable {
    public let voice: String
    private let buffers: [Key: PCMBuffer]
    /// How long rendering everything took (espeak-ng's first call is the slowest).
    public let renderTime: Duration

    /// Renders each text with `voice`. Fails on the first text espeak-ng cannot render, so a
    /// missing voice is found before the exchange starts rather than at its first question.
    public init(rendering texts: [Key: String], voice: String,
                synthesizer: SpeechSynthesizer = .shared) throws {
        let clock = ContinuousClock()
        let started = clock.now
        var buffers: [Key: PCMBuffer] = [:]
        for (key, text) in texts {
            buffers[key] = try synthesizer.render(text, voice: voice).trimmingLeadingSilence()
        }
        self.voice = voice
        self.buffers = buffers
        self.renderTime = clock.now - started
    }

    /// The rendering of `key`, or nil when it was not in the texts given at start-up.
    public subscript(key: Key) -> PCMBuffer? { buffers[key] }

    public var keys: Dictionary<Key, PCMBuffer>.Keys { buffers.keys }
    public var count: Int { buffers.count }
    /// Memory held by the renderings, in bytes.
    public var byteCount: Int { buffers.values.reduce(0) { $0 + $1.samples.count * 2 } }
}
