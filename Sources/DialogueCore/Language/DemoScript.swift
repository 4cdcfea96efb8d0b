/// What the demo's synthetic person says, question by question, so that it answers the
/// question actually asked: the idea to the opening, to each follow-up the answer written for
/// that kind of question (or, with none, the next of the fixed answers), and the ending phrase
/// only once as many follow-ups were answered as the fixed answers hold between idea and end.
public struct DemoScript: Sendable, Equatable {
    /// The idea first, the ending phrase last, follow-up answers between (a scenario file's
    /// answers, in order).
    public let answers: [SpokenText]
    public let byQuestion: [QuestionChoice: SpokenText]

    public init(answers: [SpokenText], byQuestion: [QuestionChoice: SpokenText] = [:]) {
        self.answers = answers
        self.byQuestion = byQuestion
    }

    /// How many follow-ups are answered before the ending.
    public var followUps: Int { max(answers.count - 2, 0) }

    /// The ending is said again, up to twice, if the program asks on: as a person would repeat
    /// "that's all" when not understood (synthetic voices are sometimes misheard, e.g.
    /// Japanese いじょう as 移動).
    public static let endingRepeats = 2

    /// The answer when `question` is asked after `turn` answers (0: the opening); nil once the
    /// ending was said and repeated.
    public func answer(to question: TurnQuestion, turn: Int) -> SpokenText? {
        guard let idea = answers.first, let ending = answers.last else { return nil }
        if turn == 0 { return idea }
        if turn <= followUps { return question.choice.flatMap { byQuestion[$0] } ?? answers[turn] }
        return turn <= followUps + 1 + Self.endingRepeats ? ending : nil
    }
}
