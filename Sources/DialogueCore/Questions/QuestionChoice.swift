/// The next step of the exchange, as the model may choose it. One mutually exclusive enum: a
/// shape with separate "finish?" and "stop?" flags made the small model stop on ordinary
/// requests. The order is part of the contract (options are offered and scored in it).
public enum QuestionChoice: String, CaseIterable, Codable, Sendable, Hashable {
    case audience, ideaDetails, useCase, problem, reason, example, obstacle, preparation
    case takeaway, validation, keyPoint, impression, decision, meetingFocus, purpose
    case nextStep, startingPoint, moreDetails, ready, stop

    /// `ready` and `stop` finish the exchange; every other case is a question to ask.
    public var isFinal: Bool { self == .ready || self == .stop }

    /// The cases that are questions, in contract order.
    public static let questions: [QuestionChoice] = allCases.filter { !$0.isFinal }

    /// The cases that finish the exchange, in contract order.
    public static let finals: [QuestionChoice] = [.ready, .stop]
}
