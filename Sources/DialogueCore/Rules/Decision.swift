/// Who made the final choice of a turn.
public enum DecisionSource: String, Sendable, Hashable, Codable {
    /// The model's suggestion passed the rules unchanged.
    case model
    /// The rules overrode or replaced the model's suggestion.
    case rules
    /// No usable suggestion (model unavailable, or failed twice): the rules chose alone.
    case fallback
}

/// The choice that is rendered and spoken, with where it came from.
public struct Decision: Sendable, Hashable, Codable {
    public let choice: QuestionChoice
    public let source: DecisionSource
    /// What the model suggested, if it suggested anything.
    public let suggestion: QuestionChoice?

    public init(choice: QuestionChoice, source: DecisionSource, suggestion: QuestionChoice? = nil) {
        self.choice = choice
        self.source = source
        self.suggestion = suggestion
    }

    public var finishes: Bool { choice.isFinal }
}
