/// The deterministic rules that treat the model's choice as advice. Pure functions of the
/// conversation (and the suggestion); one value per interface language.
public struct Rules: Sendable {
    /// At most six follow-up questions (the opening prompt is not counted).
    public static let maxQuestions = 6
    /// Characters of all answers after which the model path stops; the text stays for the editor.
    public static let transcriptCap = 3_600
    /// From this many follow-up questions on, our own choice is `ready`: the note has enough.
    public static let enoughQuestions = 4

    public let language: Language
    let book: PhraseBook

    public init(pack: LanguagePack) {
        language = pack.language
        book = PhraseBook(pack.phrases)
    }

    /// The rules of every supported language (the evaluations run them all).
    public static func byLanguage(loader: LanguagePackLoader = LanguagePackLoader()) throws -> [Language: Rules] {
        Dictionary(uniqueKeysWithValues: try loader.loadAll().map { ($0.language, Rules(pack: $0)) })
    }

    // MARK: Signals

    /// Whether the answer ends the exchange, and how. `question` is what it answered.
    public func endSignal(in answer: String, answering question: TurnQuestion? = nil) -> EndSignal? {
        book.endSignal(in: answer, afterAnythingElse: question == .choice(.moreDetails))
    }

    /// The end signal of the latest answer.
    public func endSignal(of conversation: Conversation) -> EndSignal? {
        guard let last = conversation.turns.last else { return nil }
        return endSignal(in: last.answer, answering: last.question)
    }

    /// A possible ending or refusal in the latest answer that `endSignal` does not force: the
    /// rules leave it to the model, and this is its prior. nil when the answer shows no cue
    /// or when `endSignal` already forces one.
    public func endingCue(of conversation: Conversation) -> EndSignal? {
        guard let last = conversation.turns.last, endSignal(of: conversation) == nil else { return nil }
        return book.endingCue(in: last.answer)
    }

    /// The refusal in `answer`, if it refuses, and what it covers: "none of this", "nichts
    /// davon" cover the whole exchange, and so does pretending nothing was said or asking to forget
    /// it; otherwise only the refusing answer is dropped.
    public func refusal(in answer: String, answering question: TurnQuestion? = nil) -> RefusalScope? {
        guard endSignal(in: answer, answering: question) == .refusal else { return nil }
        return refusalScope(of: answer)
    }

    /// What a refusing answer covers, however the refusal was recognised (the phrase rules, or
    /// the model's ending probe): everything when it says "any of this", "nichts davon", ….
    public func refusalScope(of answer: String) -> RefusalScope {
        let text = MatchableText(answer)
        let pretends = text.sentences.contains(where: book.pretendsNothingWasSaid) || text.sentences.last.map(book.forgetsWhatWasSaid) == true
        return book.refusalCoversAll.occurs(in: text) || pretends ? .everything : .answer
    }

    /// The numbered sentences a note is made of: every answer's, except those that are only
    /// control. A sentence that steers the talk ("Let's wrap up.", "That covers it.") leaves the
    /// body wherever it stands (`PhraseBook.onlySteers`); at the end of the last answer, once a
    /// rule ended the exchange, so does any control ("No, that's all. Thanks!"). Content around
    /// them stays, and a sentence only the model read as an ending stays: a misread must never
    /// cost a word. `keepingRefusals`: the person said a refusal was misread, so no sentence
    /// leaves for refusing. The journal keeps every
    /// answer whole; this is applied wherever a note is made from it.
    public func noteSources(_ conversation: Conversation, keepingRefusals: Bool = false) -> [Source] {
        let kept = { (text: String) in keepingRefusals && self.book.refuses(text) }
        var sources = SentenceSplitter.sources(from: conversation.answers, language: language)
        if endSignal(of: conversation) != nil {
            let last = conversation.turns.count - 1
            while let source = sources.last, source.answerIndex == last, book.isControlOnly(source.text), !kept(source.text) {
                sources.removeLast()
            }
        }
        return sources.filter { !book.onlySteers($0.text) || kept($0.text) }.enumerated().map { index, source in
            Source(id: index + 1, text: source.text, answerIndex: source.answerIndex)
        }
    }

    /// The opening answer's first sentence when it states the idea ("I want to build a small
    /// app…", "Mi idea es…"): its id, to keep it out of the next steps (it is what the note is
    /// about; a plan such as "First I would test it…" is a step); nil otherwise.
    func ideaStatement(in sources: [Source]) -> Int? {
        guard let first = sources.first, first.answerIndex == 0,
              book.ideaStatements.occurs(in: MatchableText(first.text)) else { return nil }
        return first.id
    }

    /// The highlights without the sentences that cannot be a step: the idea's own statement, and
    /// any sentence that only steers the exchange ("Let's wrap up.", "That's all.") wherever it
    /// stands. Such a sentence is not the key either: the key moves to the first that is content.
    /// Nothing leaves the body here: a misread must never cost a word of the note.
    public func highlights(_ highlights: Highlights, of sources: [Source]) -> Highlights {
        let control = Set(sources.filter { book.isControlOnly($0.text) }.map(\.id))
        let held = control.union([ideaStatement(in: sources)].compactMap { $0 })
        var kept = highlights
        kept.nextSteps.removeAll(where: held.contains)
        if control.contains(kept.key), let content = sources.first(where: { !control.contains($0.id) }) { kept.key = content.id }
        return kept
    }

    /// Whether a recording's last words end it: the rules read an ending there and its last
    /// sentence only steers ("…for the car. That's all."). A sentence with content in it never
    /// stops a recording ("Bye, new bike lamp.", a mishearing of "Buy a new bike lamp."): that
    /// would cost the person the rest of their memo.
    public func endsRecording(_ lastWords: String) -> Bool {
        guard endSignal(in: lastWords) != nil,
              let last = SentenceSplitter.sentences(in: lastWords, language: language).last else { return false }
        return book.isControlOnly(last)
    }

    /// "I don't know yet": valid content, not asked again.
    public func isHesitant(_ answer: String) -> Bool { book.isHesitant(answer) }

    /// The latest answer hesitates ("I don't know, maybe…", "je sais pas…") with no ending cue
    /// of any kind: the person is thinking aloud, often apologising for it, not breaking off.
    /// The model may then end only on a refusal, or with `ready` once the note has enough. In
    /// every labelled set (about 2,500 cases) 179 answers are like this, and 2 of them end: one
    /// a refusal, which the model still takes.
    public func isStillThinking(_ conversation: Conversation) -> Bool {
        guard let last = conversation.turns.last, isHesitant(last.answer) else { return false }
        return endSignal(of: conversation) == nil && endingCue(of: conversation) == nil
    }

    /// From the answers' words; when they show none, from the questions already asked.
    public func kind(of conversation: Conversation) -> NoteKind {
        let kind = book.kind(of: conversation.answers)
        guard kind == .general else { return kind }
        return NoteKind.implied(by: conversation.askedChoices) ?? kind
    }

    /// Whether some answer mentions a meeting, or its meeting was already asked about. Only a
    /// meeting note opens `decision` and `meetingFocus` (`passesGate`), and a note is one only
    /// when this holds.
    public func mentionsMeeting(_ conversation: Conversation) -> Bool {
        conversation.answers.contains(where: book.mentionsMeeting)
            || conversation.askedChoices.contains { $0 == .meetingFocus || $0 == .decision }
    }

    /// Whether the case may be asked at all in this conversation (its trigger was seen).
    public func passesGate(_ choice: QuestionChoice, in conversation: Conversation) -> Bool {
        passesGate(choice, kind: kind(of: conversation))
    }

    func passesGate(_ choice: QuestionChoice, kind: NoteKind) -> Bool {
        switch choice {
        case .audience: kind == .product
        // A meeting in a product idea or a reflection is its setting ("we talked about it at the
        // residents' meeting"), not the note's subject: on the side sets others wrote, asking what
        // that meeting should focus on was wrong each time. A plan that must go through a meeting
        // makes the meeting the news (the kind is the first answer's signal: `NoteKind`; it is
        // a meeting only where `mentionsMeeting` holds).
        case .decision, .meetingFocus: kind == .meeting
        default: true
        }
    }

    /// Cases asked, plus those that would ask the same again in other words.
    public func coveredChoices(_ conversation: Conversation) -> Set<QuestionChoice> {
        var covered = Set<QuestionChoice>()
        for turn in conversation.turns {
            guard let choice = turn.question.choice else { continue }
            covered.insert(choice)
            covered.formUnion(AngleOrder.alwaysOverlapping(choice))
            if isHesitant(turn.answer) { covered.formUnion(AngleOrder.overlappingWhenHesitant(choice)) }
        }
        return covered
    }

    // MARK: Choices

    /// What the next choice may be. Finishing only, with the reason, after an explicit ending
    /// or refusal, at six questions, at the transcript cap, or when no angle is left.
    public func allowedChoices(_ conversation: Conversation) -> ChoiceOptions {
        switch endSignal(of: conversation) {
        case .refusal: return ChoiceOptions(choices: [.stop], finishReason: .userRefused)
        case .interruption: return ChoiceOptions(choices: [.stop], finishReason: .userInterrupted)
        case .ending: return ChoiceOptions(choices: QuestionChoice.finals, finishReason: .userEnded)
        case nil: break
        }
        if conversation.questionCount >= Self.maxQuestions {
            return ChoiceOptions(choices: QuestionChoice.finals, finishReason: .questionLimit)
        }
        if conversation.transcriptLength >= Self.transcriptCap {
            return ChoiceOptions(choices: QuestionChoice.finals, finishReason: .transcriptCap)
        }
        let covered = coveredChoices(conversation)
        let kind = kind(of: conversation)
        let questions = QuestionChoice.questions.filter {
            !covered.contains($0) && passesGate($0, kind: kind)
        }
        if questions.isEmpty {
            return ChoiceOptions(choices: QuestionChoice.finals, finishReason: .noAnglesLeft)
        }
        // The model sees every ending: a refusal or a goodbye in the person's own words is not
        // in any phrase list. It must prefer an ending by a calibrated margin over the best
        // question to take it (`DecisionSettings.endingMargin`).
        return ChoiceOptions(choices: questions + QuestionChoice.finals, finishReason: nil)
    }

    /// The choice our rules make alone (no model, or the model failed twice): the user's
    /// ending if any; `ready` once the note has enough; a meeting that just came up; else the
    /// first open angle in the priority order for this kind of note.
    public func fallbackChoice(_ conversation: Conversation) -> QuestionChoice {
        let options = allowedChoices(conversation)
        if options.finishOnly {
            return options.contains(.ready) ? .ready : .stop
        }
        if conversation.questionCount >= Self.enoughQuestions { return .ready }
        var order: [QuestionChoice] = []
        if let last = conversation.lastAnswer, book.mentionsMeeting(last),
           !conversation.answers.dropLast().contains(where: book.mentionsMeeting) {
            order += AngleOrder.meetingJustMentioned
        }
        let kind = kind(of: conversation)
        order += conversation.questionCount == 0 ? AngleOrder.first(kind) : []
        order += AngleOrder.later(kind)
        return order.first(where: options.contains) ?? .ready
    }

    /// Turns the model's suggestion into the final decision. The user's ending, the limits
    /// and the gates win; a suggestion the rules do not allow (asked already, gated) is
    /// replaced by our own choice; no suggestion at all means the fallback.
    public func apply(modelSuggestion: QuestionChoice?, to conversation: Conversation) -> Decision {
        guard let suggestion = modelSuggestion else {
            return Decision(choice: fallbackChoice(conversation), source: .fallback)
        }
        if allowedChoices(conversation).contains(suggestion) {
            return Decision(choice: suggestion, source: .model, suggestion: suggestion)
        }
        return Decision(choice: fallbackChoice(conversation), source: .rules, suggestion: suggestion)
    }

    /// Angles that look unasked for this kind of note, for the prompt.
    public func angleHints(_ conversation: Conversation) -> AngleHints {
        let kind = kind(of: conversation)
        let options = allowedChoices(conversation)
        let texts = conversation.answers.map(MatchableText.init)
        let angles = AngleOrder.hinted(kind).filter { angle in
            guard options.contains(angle), !options.finishOnly else { return false }
            guard let cues = book.angleCues[angle] else { return true }
            return !texts.contains(where: cues.occurs)
        }
        return AngleHints(kind: kind, angles: angles)
    }
}
