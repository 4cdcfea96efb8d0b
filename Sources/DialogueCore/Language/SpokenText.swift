/// A line the user sees and hears. `speech` is what the synthesizer reads when the display
/// form would be read wrongly (Japanese: kana only, since espeak-ng reads each kanji as
/// "Chinese letter", with the particles は and を written わ and お).
public struct SpokenText: Sendable, Hashable, Codable {
    public let text: String
    public let speech: String?

    public init(text: String, speech: String? = nil) {
        self.text = text
        self.speech = speech
    }

    /// What to hand to the synthesizer.
    public var spoken: String { speech ?? text }
}
