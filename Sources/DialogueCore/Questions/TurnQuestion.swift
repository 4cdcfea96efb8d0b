/// What a turn's answer responded to: the fixed opening prompt, or a chosen case. Encoded as
/// the bare string `"opening"` or the case name, the shape of the turns in the scenario files.
public enum TurnQuestion: Sendable, Hashable, Codable, CustomStringConvertible {
    case opening
    case choice(QuestionChoice)

    public static let openingName = "opening"

    /// Parses `"opening"` or a case name; nil for anything else.
    public init?(name: String) {
        if name == Self.openingName { self = .opening; return }
        guard let choice = QuestionChoice(rawValue: name) else { return nil }
        self = .choice(choice)
    }

    public var name: String {
        switch self {
        case .opening: Self.openingName
        case .choice(let choice): choice.rawValue
        }
    }

    public var description: String { name }

    /// The case asked, or nil for the opening.
    public var choice: QuestionChoice? {
        if case .choice(let choice) = self { return choice }
        return nil
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let question = TurnQuestion(name: name) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Unknown question \"\(name)\"; expected \"opening\" or a QuestionChoice case.")
        }
        self = question
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
