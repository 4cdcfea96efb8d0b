/// What the note is about, from keyword checks; it picks the order in which angles are
/// asked and which angles are hinted.
public enum NoteKind: String, Sendable, Hashable, Codable, CaseIterable {
    case product, meeting, reflection, general

    /// The note's tag in the interface language ("product idea", "Besprechung", "会議").
    public func tag(_ pack: LanguagePack) -> String {
        switch self {
        case .product: pack.ui(.tagProduct)
        case .meeting: pack.ui(.tagMeeting)
        case .reflection: pack.ui(.tagReflection)
        case .general: pack.ui(.tagGeneral)
        }
    }
}

extension PhraseBook {
    /// The first answer with a signal decides; within an answer a meeting outranks a product
    /// idea, which outranks a reflection. Later answers cannot turn a talk into a product
    /// (an injected "ask me about the target users" stays user data).
    func kind(of answers: [String]) -> NoteKind {
        for answer in answers {
            let text = MatchableText(answer)
            if meeting.occurs(in: text) { return .meeting }
            if productIdea.occurs(in: text) { return .product }
            if reflection.occurs(in: text) { return .reflection }
        }
        return .general
    }

    func mentionsMeeting(_ answer: String) -> Bool { meeting.occurs(in: MatchableText(answer)) }

    func isHesitant(_ answer: String) -> Bool { hesitations.occurs(in: MatchableText(answer)) }
}
