/// Angles that look unasked for the kind of note, from keyword checks, for the prompt. They
/// are hints: the user may have covered an angle in other words, and the model may still end.
public struct AngleHints: Sendable, Hashable {
    public let kind: NoteKind
    /// Unasked, allowed angles whose cue words appear in no answer, in hint order.
    public let angles: [QuestionChoice]

    public init(kind: NoteKind, angles: [QuestionChoice]) {
        self.kind = kind
        self.angles = angles
    }

    /// Lines for the prompt, in English (the prompt's language), e.g.
    /// `Kind of note (keyword guess): product idea.` and
    /// `Looks unasked (keyword hint, may be covered in other words): problem`.
    public var lines: [String] {
        var lines = ["Kind of note (keyword guess): \(kind.promptName)."]
        for angle in angles {
            lines.append("Looks unasked (keyword hint, may be covered in other words): \(angle.rawValue)")
        }
        return lines
    }
}

extension NoteKind {
    /// How prompts name the kind of note.
    public var promptName: String {
        switch self {
        case .product: "product idea"
        case .meeting: "meeting"
        case .reflection: "reflection"
        case .general: "general"
        }
    }
}
