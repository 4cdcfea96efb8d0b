/// The deterministic priority of angles per kind of note: what a careful interviewer asks
/// first. Used for the fallback choice and to replace a case the rules reject.
enum AngleOrder {
    /// Right after the opening answer.
    static func first(_ kind: NoteKind) -> [QuestionChoice] {
        switch kind {
        case .product: [.problem, .ideaDetails, .useCase, .audience, .reason, .validation, .obstacle]
        case .meeting: [.meetingFocus, .decision, .purpose, .preparation]
        case .reflection: [.impression, .keyPoint, .takeaway, .example]
        case .general: [.reason, .startingPoint, .obstacle, .ideaDetails]
        }
    }

    /// Once the conversation is under way: from the idea to testing and the way forward. In a
    /// general note, what may get in the way and the next step come before where to start: on
    /// the labelled sets others wrote, where each was still open after the first question,
    /// `obstacle` was acceptable 76 % of the time, `nextStep` 67 %, `startingPoint` 61 %.
    static func later(_ kind: NoteKind) -> [QuestionChoice] {
        switch kind {
        case .product:
            [.validation, .obstacle, .ideaDetails, .useCase, .nextStep, .startingPoint, .audience,
             .problem, .reason, .example, .moreDetails]
        case .meeting:
            [.meetingFocus, .decision, .preparation, .purpose, .obstacle, .keyPoint, .nextStep,
             .reason, .example, .moreDetails]
        case .reflection:
            [.impression, .takeaway, .nextStep, .example, .keyPoint, .reason, .moreDetails]
        case .general:
            [.obstacle, .nextStep, .startingPoint, .preparation, .reason, .ideaDetails, .example,
             .keyPoint, .moreDetails]
        }
    }

    /// When the latest answer is the first to mention a meeting: the meeting is the news.
    static let meetingJustMentioned: [QuestionChoice] = [.meetingFocus, .decision]

    /// Angles the prompt hints at when they look unasked.
    static func hinted(_ kind: NoteKind) -> [QuestionChoice] {
        switch kind {
        case .product: [.problem, .reason, .validation]
        case .meeting: [.purpose, .decision, .preparation]
        case .reflection: [.impression, .example, .takeaway]
        case .general: [.reason, .startingPoint, .nextStep]
        }
    }

    /// Angles that ask the same thing in other words, always: a stated goal answers "why".
    static func alwaysOverlapping(_ choice: QuestionChoice) -> [QuestionChoice] {
        switch choice {
        case .reason: [.purpose]
        case .purpose: [.reason]
        default: []
        }
    }

    /// Angles that would re-ask a hesitant answer ("I don't know how to test it yet") in
    /// other words: where to start and the next step are the same unknown.
    static func overlappingWhenHesitant(_ choice: QuestionChoice) -> [QuestionChoice] {
        let family: [QuestionChoice] = [.validation, .startingPoint, .nextStep]
        return family.contains(choice) ? family.filter { $0 != choice } : []
    }
}
