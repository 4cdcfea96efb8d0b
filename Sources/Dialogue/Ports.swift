import DialogueCore

/// What the exchange needs from the outside world. The real voice loop, typing mode and tests
/// plug different implementations into the same `Exchange`.

/// Says a prompt (the opening, a question, a closing line) and returns once it was heard.
public protocol PromptSpeaking: Sendable {
    func say(_ prompt: SpokenPrompt) async throws
}

/// A prompt as the exchange names it; the speaker looks up the words in the language pack.
public enum SpokenPrompt: Sendable, Hashable {
    case question(TurnQuestion)
    case closing(QuestionChoice)
}

/// The person's reply to one prompt.
public enum AnswerOutcome: Sendable, Hashable {
    /// What they said (transcribed) or typed.
    case answer(String)
    /// Nothing was heard before the no-answer timeout.
    case noAnswer
    /// Sound was heard, but no words came of it (noise, or speech whisper was too unsure of).
    case unclear
    /// They ended the exchange by a key, Ctrl-C or a signal; `partial` is what was heard of
    /// the current answer, if anything.
    case ended(partial: String?)

    /// What the person said in this reply: the answer, or the words heard before a key.
    public var words: String? {
        switch self {
        case .answer(let text), .ended(let text?): text
        case .ended(nil), .noAnswer, .unclear: nil
        }
    }
}

/// What a source passes on about an answer before it is over.
public enum AnswerSoFar: Sendable, Hashable {
    /// The person paused: what they said so far may be the whole answer, so the next question
    /// is decided now.
    case paused(String)
    /// The person is still speaking: what they said so far, for work that the decision at the
    /// next pause can reuse (the model reads the prompt up to this answer ahead of time).
    case speaking(String)
}

/// Gets the answer to the prompt just spoken: listen + transcribe, or read a typed line.
public protocol AnswerSource: Sendable {
    func answer(to question: TurnQuestion) async throws -> AnswerOutcome
    /// The same; before the answer is over the source may pass what was said so far to `early`
    /// (`AnswerSoFar`), so the next question is decided, or prepared, while the person pauses
    /// or speaks. `early` returns that work, which must finish before the source runs its own
    /// engine again (two engines at once collapse on 2 cores).
    func answer(to question: TurnQuestion,
                early: @escaping @Sendable (AnswerSoFar) -> Task<Void, Never>) async throws -> AnswerOutcome
}

/// What the person said over a question (`ResumableAnswers.speechOverQuestion`).
public enum TalkOver: Sendable, Equatable {
    /// They went on with the answer before it, which had ended at a pause they only took.
    case goesOn
    /// They answer this question already.
    case answers
}

/// A source whose answers can go on after they seemed over, and that hears a person talking
/// over a question (the voice).
public protocol ResumableAnswers: AnswerSource {
    /// While a question plays: what the person says over it as soon as they speak (the
    /// exchange then stops the question), nil when they did not by the time the task is
    /// cancelled (the question has been played) or cannot be heard over it.
    func speechOverQuestion() async -> TalkOver?
    /// The answer to `question` heard on: all of it, what was said before and what follows.
    func continueAnswer(to question: TurnQuestion,
                        early: @escaping @Sendable (AnswerSoFar) -> Task<Void, Never>) async throws -> AnswerOutcome
    /// After the closing line of an ending that no rule forced: whether the person goes on
    /// within `window` (they speak, or type a line); the exchange then continues their last
    /// answer with `continueAnswer`.
    func goesOn(within window: Duration) async -> Bool
}

extension ResumableAnswers {
    /// A voice goes on as it does over a question: the watch after the last answer hears it.
    public func goesOn(within window: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.speechOverQuestion() != nil }
            group.addTask { try? await Task.sleep(for: window); return false }
            defer { group.cancelAll() }
            return await group.next() ?? false
        }
    }
}

extension AnswerSource {
    /// Sources that cannot tell early (typing, test doubles) just answer.
    public func answer(to question: TurnQuestion,
                       early: @escaping @Sendable (AnswerSoFar) -> Task<Void, Never>) async throws -> AnswerOutcome {
        try await answer(to: question)
    }
}

/// Chooses the next question. Implementations apply the rules to whatever the model says and
/// fall back to the rules alone; they never throw.
public protocol QuestionDeciding: Sendable {
    func nextQuestion(after conversation: Conversation) async -> Decision
    /// Work that a decision for a conversation starting like `conversation` can reuse (its
    /// latest answer is still being spoken). Optional: nothing by default.
    func prepare(after conversation: Conversation) async
}

extension QuestionDeciding {
    public func prepare(after conversation: Conversation) async {}
}

/// Groups the numbered sentences; never throws (the local fallback layout is always there).
public protocol LayoutDeciding: Sendable {
    func layout(for sources: [Source]) async -> (Layout, LayoutSource)
    /// The next steps and the key sentence (the local fallback: none, the first sentence).
    func highlights(for sources: [Source], language: Language) async -> (Highlights, HighlightsSource)
}

extension LayoutDeciding {
    public func highlights(for sources: [Source], language: Language) async -> (Highlights, HighlightsSource) {
        (.fallback, .fallback)
    }
}

/// Appends journal events durably (the exchange's crash safety).
public protocol JournalWriting: Sendable {
    func append(_ event: JournalEvent) throws
    /// Deletes the journal now (the person refused to be recorded).
    func remove()
}

/// A source that transcribes each answer once more after it is over, with slower settings that
/// read better (the voice). The live transcript drives the exchange; the final one goes in the note.
public protocol FinalTranscribing: AnswerSource {
    /// The final pass of the answer that the latest `answer` or `continueAnswer` returned, if one
    /// was started for it (an answer with audio).
    func finalPassOfLatestAnswer() -> (any FinalPassing)?
}

/// One answer's final pass, under way or done.
public protocol FinalPassing: Sendable {
    /// Its text once done; nil when it failed, was cancelled or found no words.
    func text() async -> String?
    /// Its text as soon as there is one: a pass that reads twice (an answer heard on: first
    /// what followed, then all of it again) gives its first text when the second is not done,
    /// and stops the second. The person waiting for the note waits no longer than they must.
    func soonText() async -> String?
    /// Whether `soonText()` returns at once.
    var isDone: Bool { get }
    /// Stops it: its text is no longer wanted.
    func cancel()
}

extension FinalPassing {
    public func soonText() async -> String? { await text() }
}
