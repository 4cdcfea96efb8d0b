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
    /// The model read a refusal to be recorded that the phrase rules missed (with `stop`): the
    /// exchange drops the answer as it does for the rules' refusals.
    public let refusal: RefusalScope?

    public init(choice: QuestionChoice, source: DecisionSource, suggestion: QuestionChoice? = nil, refusal: RefusalScope? = nil) {
        self.choice = choice
        self.source = source
        self.suggestion = suggestion
        self.refusal = refusal
    }

    public var finishes: Bool { choice.isFinal }
}
