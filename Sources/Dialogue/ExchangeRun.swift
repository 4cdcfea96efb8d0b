import DialogueCore
import Foundation

/// One run of an exchange: what has been heard and decided so far, and the steps of a turn —
/// ask, hear, take the reply in, decide the next question — and of the end, the layout.
struct ExchangeRun {
    let exchange: Exchange
    let early = EarlyDecision()
    /// The answers' final transcripts, where the source makes them (the voice).
    let finals: FinalTranscripts
    var conversation = Conversation()
    var decisions: [Decision] = []
    var question = TurnQuestion.opening
    var failure: String?
    var refusal: RefusalScope?
    /// After a refusal, everything said, the refused words included (in memory only).
    var asSaid: Conversation?
    /// Whether the person was told that the journal cannot be written (they are told once).
    var journalFailed = false
    /// Whether the last reply was an answer, which the person may still go on with.
    var mayGoOn = false
    /// Whether the current question was asked again after an unclear reply.
    var askedAgain = false
    /// The closing line, playing while the note is put together.
    var closing: Task<Void, Never>?
    /// An ending that no rule forced (the model's, or a cue's): the person may still take it
    /// back by going on. It is neither kept nor journaled until they have not (`confirmEnding`).
    var unconfirmedEnding: Decision?
    /// The person went on after an ending: the next turn hears their last answer on.
    var goingOnAfterEnding = false

    init(exchange: Exchange) {
        self.exchange = exchange
        finals = FinalTranscripts(journal: exchange.journal)
    }

    /// A question put to the person: the conversation before its answer, the question the
    /// answer is for, and whether the person went on with their last answer instead.
    struct Asked: Sendable {
        let before: Conversation
        let question: TurnQuestion
        let goesOn: Bool
    }

    /// What a reply leads to.
    enum Next { case decide, askAgain, end(EndReason) }

    /// Turns until the exchange ends; why it ended.
    mutating func converse() async -> EndReason {
        while true {
            if Task.isCancelled { return .interrupted }
            switch await turn() {
            case .askAgain: continue   // no decision: the same question again
            case .end(let reason): return reason
            case .decide: break
            }
            if Task.isCancelled { return .interrupted }
            if let reason = await decideNext() { return reason }
        }
    }

    /// Asks the question, hears the reply and takes it in.
    mutating func turn() async -> Next {
        do {
            let asked = try await ask()
            let reply = try await hear(asked)
            mayGoOn = false
            return await take(reply, to: asked)
        } catch is CancellationError {
            return .end(.interrupted)
        } catch {
            failure = "\(error)"
            exchange.onEvent(.failed("\(error)"))
            return .end(.failed)
        }
    }

    /// Says the question. The person may go on with their last answer before it is over: then
    /// it is stopped, and the same answer heard on (asked again after it). Or they answer it
    /// before it is over: then it is stopped, and their answer heard from its first word.
    mutating func ask() async throws -> Asked {
        if goingOnAfterEnding, let last = conversation.turns.last {
            goingOnAfterEnding = false
            return Asked(before: Conversation(turns: Array(conversation.turns.dropLast())), question: last.question, goesOn: true)
        }
        exchange.onEvent(.asking(question, number: conversation.turns.count))
        let over = try await exchange.sayUnlessTalkedOver(.question(question))
        let goesOn = over == .goesOn && mayGoOn
        if over != nil, !goesOn { exchange.onEvent(.talkedOver) }
        if goesOn, let last = conversation.turns.last {
            exchange.onEvent(.wentOn)
            return Asked(before: Conversation(turns: Array(conversation.turns.dropLast())), question: last.question, goesOn: true)
        }
        record(.asked(question))
        return Asked(before: conversation, question: question, goesOn: goesOn)
    }

    /// The reply to the question asked; what is said before it is over goes to `early`.
    func hear(_ asked: Asked) async throws -> AnswerOutcome {
        let soFar = exchange.workBeforeTheEnd(of: asked, early: early)
        if asked.goesOn, let resumable = exchange.answers as? any ResumableAnswers {
            return try await resumable.continueAnswer(to: asked.question, early: soFar)
        }
        return try await exchange.answers.answer(to: asked.question, early: soFar)
    }

    /// Keeps an answer, asks once more after an unclear reply, or ends (a refusal, no answer,
    /// the person ending it).
    mutating func take(_ reply: AnswerOutcome, to asked: Asked) async -> Next {
        if let scope = Exchange.refusal(in: reply, answering: asked.question, rules: exchange.rules), let words = reply.words {
            await refuse(scope, keeping: scope == .everything ? Conversation() : asked.before,
                         asSaid: asked.before.appending(asked.question, answer: words.trimmingCharacters(in: .whitespacesAndNewlines)))
            return .end(.refused)
        }
        switch reply {
        case .answer(let text):
            var text = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty { exchange.onEvent(.noAnswer); return .end(.noAnswer) }
            if asked.goesOn, let earlier = conversation.turns.last?.answer { text = Self.heardOn(text, after: earlier, language: exchange.rules.language) }
            keep(text, answering: asked)
            mayGoOn = true   // sayUnlessResumed just speaks for sources that cannot go on
            askedAgain = false
            return .decide
        case .unclear:
            // The person said something that gave no words: ending the exchange as if they had
            // not would drop them. The question is asked once more.
            exchange.onEvent(.unclear)
            if askedAgain { return .end(.noAnswer) }
            askedAgain = true
            return .askAgain
        case .noAnswer:
            exchange.onEvent(.noAnswer)
            return .end(.noAnswer)
        case .ended(let partial):
            if let partial = partial?.trimmingCharacters(in: .whitespacesAndNewlines), !partial.isEmpty {
                keep(partial, answering: asked)
            }
            return .end(.interrupted)
        }
    }

    /// An answer heard on, whole: the earlier part and what followed read again as one. On a
    /// long one whisper can leave earlier sentences out (real voices: 7 s, a pause, 6 s more, read
    /// as the last sentence alone, which then replaced the first): those go before it then.
    /// Judged sentence by sentence, as an answer heard on twice holds the first reading's
    /// sentences and the second's, and the second reading can keep one and drop the other
    /// (real voices: three recordings spoken over two questions, the first of them lost). Kept:
    /// most of a sentence's character trigrams are in the new reading.
    static func heardOn(_ text: String, after earlier: String, language: Language) -> String {
        let reading = Set(text.characterGrams(3))
        let missing = SentenceSplitter.sentences(in: earlier, language: language).filter { sentence in
            let grams = Set(sentence.characterGrams(3))
            return !grams.isEmpty && Double(grams.intersection(reading).count) < 0.5 * Double(grams.count)
        }
        return (missing + [text]).joined(separator: " ")
    }

    mutating func keep(_ answer: String, answering asked: Asked) {
        conversation = asked.before.appending(asked.question, answer: answer)
        let finalPass = (exchange.answers as? any FinalTranscribing)?.finalPassOfLatestAnswer()
        finals.track(finalPass, turn: conversation.turns.count - 1, live: answer)
        record(asked.goesOn ? .continued(answer) : .answered(answer))
        exchange.onEvent(.answered(answer))
    }

    /// The next question (decided during the pause already when the answer is what was heard
    /// then); nil while the exchange goes on, else why it ends.
    mutating func decideNext() async -> EndReason? {
        let decision: Decision
        if let made = await early.decision(for: conversation) {
            decision = made
        } else {
            decision = await exchange.questions.nextQuestion(after: conversation)
        }
        if let scope = decision.refusal, !conversation.turns.isEmpty {
            // The model read a refusal the rules missed: the same as theirs.
            await refuse(scope, keeping: scope == .everything ? Conversation() : Conversation(turns: conversation.turns.dropLast()),
                         asSaid: conversation)
            return .refused
        }
        if decision.finishes, mayTakeBack {
            unconfirmedEnding = decision
            exchange.onEvent(.decided(decision))
            return .finished
        }
        decisions.append(decision)
        record(.decided(decision))
        exchange.onEvent(.decided(decision))
        if decision.finishes {
            // A closing line is not stopped: words said over it are not heard (the editor
            // shows the note next). The note's last work runs while it plays.
            let speaker = exchange.speaker
            closing = Task { try? await speaker.say(.closing(decision.choice)) }
            return .finished
        }
        question = .choice(decision.choice)
        return nil
    }

    /// Whether an ending now could be a misreading the person takes back: they gave an answer,
    /// which they could go on with, and no rule forced the ending (what they said, the limits).
    var mayTakeBack: Bool {
        mayGoOn && exchange.answers is any ResumableAnswers && exchange.rules.allowedChoices(conversation).finishReason == nil
    }

    /// The person did not take the ending back: it is kept and journaled.
    mutating func confirmEnding() {
        guard let ending = unconfirmedEnding else { return }
        unconfirmedEnding = nil
        decisions.append(ending)
        record(.decided(ending))
    }

    /// The person went on after the ending: it is dropped, and their last answer heard on.
    mutating func takeBackEnding() {
        unconfirmedEnding = nil
        goingOnAfterEnding = true
        exchange.onEvent(.tookBack)
    }

    /// Stops at once; the refused words are not kept, nor the journal. `asSaid`, everything said
    /// with the refused words, stays in memory only, for the person to take the refusal back.
    mutating func refuse(_ scope: RefusalScope, keeping kept: Conversation, asSaid: Conversation) async {
        refusal = scope
        self.asSaid = asSaid
        finals.stop()
        // The refusing answer's own pass was never taken in: it holds the refused words.
        (exchange.answers as? any FinalTranscribing)?.finalPassOfLatestAnswer()?.cancel()
        exchange.journal.remove()
        conversation = kept
        exchange.onEvent(.refused(scope))
        try? await exchange.speaker.say(.closing(.stop))
    }

    /// Journals an event; a refused exchange leaves nothing on disk. A journal that cannot be
    /// written does not stop the exchange (the words are still in memory for the editor), but
    /// the person is told once that crash safety is off.
    mutating func record(_ event: JournalEvent) {
        guard refusal == nil else { return }
        do { try exchange.journal.append(event) } catch {
            if !journalFailed {
                journalFailed = true
                exchange.onEvent(.failed("the journal could not be written (\(error)); your words are kept in memory only"))
            }
        }
    }

    /// The note's work, which leaves the run as it is (so it can run while the person may still
    /// go on, and be dropped if they do): the final transcripts, then the layout and the
    /// highlights, both by the model only in an exchange that ended normally
    /// (`EndReason.isNormal`): after an interruption or a failure the person wants their words
    /// now, one sentence per bullet.
    func note(_ endReason: EndReason) async -> Note {
        let onEvent = exchange.onEvent, rules = exchange.rules
        // An answer with nothing for the note ("I think that's all for now.") is not waited for.
        let content = Set(rules.noteSources(conversation).map(\.answerIndex))
        let final = await finals.refine(conversation, waiting: endReason.isNormal && !Task.isCancelled,
                                        matters: content.contains) { done, total in
            // Work dropped for a person who went on says nothing more about it.
            if !Task.isCancelled { onEvent(.finishingTranscript(done: done, total: total)) }
        }
        var note = Note(live: conversation, conversation: final, sources: rules.noteSources(final))
        guard endReason.isNormal, !note.sources.isEmpty, !Task.isCancelled else { return note }
        (note.layout, note.layoutSource) = await exchange.layouts.layout(for: note.sources)
        guard !Task.isCancelled else { return note }
        let (highlights, source) = await exchange.layouts.highlights(for: note.sources, language: rules.language)
        (note.highlights, note.highlightsSource) = (rules.highlights(highlights, of: note.sources), source)
        return note
    }

    /// What the note is made of.
    struct Note: Sendable {
        /// The conversation as heard live, and with the final transcripts.
        let live: Conversation, conversation: Conversation
        let sources: [Source]
        var layout: Layout, layoutSource = LayoutSource.fallback
        var highlights = Highlights.fallback, highlightsSource = HighlightsSource.fallback

        init(live: Conversation, conversation: Conversation, sources: [Source]) {
            (self.live, self.conversation, self.sources) = (live, conversation, sources)
            layout = .fallback(sourceCount: sources.count)
        }
    }

    /// The outcome, with `note` (made for this run as it is now) taken in and journaled.
    mutating func outcome(_ endReason: EndReason, note: Note) -> Exchange.Outcome {
        conversation = note.conversation
        for (turn, answer) in note.conversation.answers.enumerated() where answer != note.live.answers[turn] {
            exchange.onEvent(.finalAnswer(turn: turn, text: answer))
        }
        if !note.sources.isEmpty { record(.laidOut(note.layout, note.layoutSource)) }
        exchange.onEvent(.laidOut(note.layoutSource))
        return Exchange.Outcome(conversation: conversation, decisions: decisions, endReason: endReason, failure: failure,
                                sources: note.sources, layout: note.layout, layoutSource: note.layoutSource, refusal: refusal,
                                asSaid: asSaid, live: note.live, closing: closing,
                                highlights: note.highlights, highlightsSource: note.highlightsSource)
    }
}

extension Exchange {
    /// What is done with an answer before it is over: while the person speaks, the next
    /// decision's work is prepared; at a pause, the answer so far is journaled (a kill keeps
    /// it, unless it refuses) and the next question decided on it.
    func workBeforeTheEnd(of asked: ExchangeRun.Asked, early: EarlyDecision) -> @Sendable (AnswerSoFar) -> Task<Void, Never> {
        let questions = self.questions, rules = self.rules, journal = self.journal
        return { soFar in
            switch soFar {
            case .speaking(let text):
                let draft = asked.before.appending(asked.question, answer: text.trimmingCharacters(in: .whitespacesAndNewlines))
                return Task { await questions.prepare(after: draft) }
            case .paused(let text):
                let heard = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if rules.refusal(in: heard, answering: asked.question) == nil {
                    try? journal.append(asked.goesOn ? .continued(heard) : .heard(heard))
                }
                let guess = asked.before.appending(asked.question, answer: heard)
                return early.start(for: guess) { await questions.nextQuestion(after: guess) }
            }
        }
    }
}
