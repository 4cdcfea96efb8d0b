/// Why only finishing is possible.
public enum FinishReason: String, Sendable, Hashable, Codable {
    /// The user said "that's all".
    case userEnded
    /// The user broke off ("let's stop here", "I have to go").
    case userInterrupted
    /// The user refused to be recorded.
    case userRefused
    /// Six questions were asked.
    case questionLimit
    /// The answers reached the transcript cap; the text stays for the editor.
    case transcriptCap
    /// Every angle for this note was asked or is gated.
    case noAnglesLeft
}

/// The cases the next choice may take: the only ones the model is offered (each is scored), so
/// it can only pick what the rules would accept.
public struct ChoiceOptions: Sendable, Hashable {
    /// Allowed cases in contract order; never empty.
    public let choices: [QuestionChoice]
    /// Set exactly when only `ready`/`stop` remain.
    public let finishReason: FinishReason?

    public init(choices: [QuestionChoice], finishReason: FinishReason?) {
        self.choices = QuestionChoice.allCases.filter(choices.contains)
        self.finishReason = finishReason
    }

    /// Only finishing is possible: the model need not be asked.
    public var finishOnly: Bool { finishReason != nil }

    public func contains(_ choice: QuestionChoice) -> Bool { choices.contains(choice) }

    /// The allowed questions (without `ready`/`stop`).
    public var questions: [QuestionChoice] { choices.filter { !$0.isFinal } }
}
