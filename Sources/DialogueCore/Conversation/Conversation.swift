/// One question and the user's answer to it (the transcript as recognized or typed).
public struct Turn: Sendable, Hashable, Codable {
    public var question: TurnQuestion
    public var answer: String

    public init(question: TurnQuestion, answer: String) {
        self.question = question
        self.answer = answer
    }
}

/// The exchange so far. The rules are pure functions of this value.
public struct Conversation: Sendable, Hashable, Codable {
    public var turns: [Turn]

    public init(turns: [Turn] = []) { self.turns = turns }

    public var answers: [String] { turns.map(\.answer) }

    /// The follow-up cases asked so far, in order (the opening is not a case).
    public var askedChoices: [QuestionChoice] { turns.compactMap(\.question.choice) }

    /// How many follow-up questions were asked (the opening does not count).
    public var questionCount: Int { askedChoices.count }

    /// Characters of all answers together: what the transcript cap measures.
    public var transcriptLength: Int { turns.reduce(0) { $0 + $1.answer.count } }

    public var lastAnswer: String? { turns.last?.answer }

    public func appending(_ question: TurnQuestion, answer: String) -> Conversation {
        Conversation(turns: turns + [Turn(question: question, answer: answer)])
    }
}
