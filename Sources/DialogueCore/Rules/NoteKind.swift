/// What the note is about, from keyword checks; it picks the order in which angles are
/// asked and which angles are hinted.
public enum NoteKind: String, Sendable, Hashable, Codable, CaseIterable {
    case product, meeting, reflection, general

    /// The note's tag in the interface language ("product idea", "Besprechung", "会議").
    /// The kind the questions already asked imply, for when the words showed none: a
    /// conversation that was asked "What stayed with you?" is a reflection, one asked about
    /// its meeting is a meeting, whatever its nouns ("Ich war drei Tage auf einer Hütte").
    static func implied(by asked: [QuestionChoice]) -> NoteKind? {
        if asked.contains(where: { $0 == .meetingFocus || $0 == .decision }) { return .meeting }
        if asked.contains(.audience) { return .product }
        if asked.contains(where: { $0 == .impression || $0 == .takeaway }) { return .reflection }
        return nil
    }

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
    /// The first answer with a signal decides; within an answer a meeting ahead outranks a
    /// product idea, which outranks a reflection. A product idea is what the person came to
    /// talk about, so only the opening answer states one: later product words are the setting
    /// of a plan ("buy the paint when the shop has its discount", "on va vendre la maison"),
    /// and an injected "ask me about the target users" stays user data. Once an answer plans
    /// something ahead (`plansAhead`), no later answer makes the note a reflection.
    func kind(of answers: [String]) -> NoteKind {
        var planned = false
        for (index, answer) in answers.enumerated() {
            let text = ownWords(answer)
            if mentionsMeetingAhead(text) { return .meeting }
            if index == 0, productIdea.occurs(in: text) || namesAThing(text) { return .product }
            if plansAhead(text) { planned = true }
            if !planned, reflection.occurs(in: text) { return .reflection }
        }
        return .general
    }

    /// An answer that starts with an indefinite article (after fillers: "Um, a kettle that…")
    /// names a thing: of the openings in our labelled sets that start so (en, es, fr, de), 278
    /// of 301 are product ideas; the others are a trip, a gift, a study plan.
    func namesAThing(_ text: MatchableText) -> Bool {
        indefiniteArticles.startsClause(text.tokens, after: fillers)
    }

    /// An answer that organises something ahead and tells of nothing past: its trip, course or
    /// holiday is still to come, and the book or film of a later answer is the plan's setting
    /// ("Con un libro que me regalaron"), so no reflection follows (a meeting ahead still may).
    func plansAhead(_ text: MatchableText) -> Bool {
        planning.occurs(in: text) && !pastTime.occurs(in: text)
    }

    func mentionsMeeting(_ answer: String) -> Bool { mentionsMeetingAhead(ownWords(answer)) }

    func isHesitant(_ answer: String) -> Bool { hesitations.occurs(in: MatchableText(answer)) }
}
