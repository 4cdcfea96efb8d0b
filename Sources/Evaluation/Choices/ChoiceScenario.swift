import DialogueCore
import Foundation

/// One labelled case of a choice scenario file (the project's `Tests/Fixtures`, or a public
/// set of the same shape): a conversation so far and the next choices a thoughtful
/// interviewer would accept.
public struct ChoiceScenario: Sendable, Hashable, Codable {
    public let id: String
    public let language: Language
    /// The labeller's kind: product, meeting, plan, reflection, other.
    public let kind: String
    public let turns: [Turn]
    public let acceptable: [QuestionChoice]
    /// The last answer is an explicit ending or refusal.
    public let mustEnd: Bool
    public let note: String?
    /// "dev" (tuned on) or "test" (reported only); nil in sets without a split.
    public let split: String?
    /// What the case tests (ordinary, refusal, injection, …); nil when unlabelled.
    public let category: String?

    public var conversation: Conversation { Conversation(turns: turns) }
}

/// The whole scenario file.
public struct ChoiceScenarioSet: Sendable, Hashable, Codable {
    public let version: Int
    public let description: String
    public let cases: [ChoiceScenario]

    public static func load(from url: URL) throws -> ChoiceScenarioSet {
        try JSONDecoder().decode(ChoiceScenarioSet.self, from: Data(contentsOf: url))
    }
}
