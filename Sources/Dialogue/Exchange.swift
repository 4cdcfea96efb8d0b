import DialogueCore
import Foundation
import Synchronization

/// The spoken exchange as a plain loop over the ports: say a prompt, get the answer, journal
/// it, let the rules (advised by the model) pick the next question, until a final choice, an
/// ending, an interruption or a failure. Whatever happens, the words so far come back.
public struct Exchange: Sendable {
    /// The interface language's rules: what is a refusal, which sentences are content.
    public let rules: Rules
    public let speaker: any PromptSpeaking
    public let answers: any AnswerSource
    public let questions: any QuestionDeciding
    public let layouts: any LayoutDeciding
    public let journal: any JournalWriting
    public let onEvent: @Sendable (ExchangeEvent) -> Void

    public init(rules: Rules, speaker: any PromptSpeaking, answers: any AnswerSource,
                questions: any QuestionDeciding, layouts: any LayoutDeciding,
                journal: any JournalWriting, onEvent: @escaping @Sendable (ExchangeEvent) -> Void = { _ in }) {
        self.rules = rules
        self.speaker = speaker
        self.answers = answers
        self.questions = questions
        self.layouts = layouts
        self.journal = journal
        self.onEvent = onEvent
    }

    /// The exchange's outcome: everything said, how it ended, and the layout for the note.
    public struct Outcome: Sendable {
        public var conversation: Conversation
        public var decisions: [Decision]
        public var endReason: EndReason
        public var failure: String?
        public var sources: [Source]
        public var layout: Layout
        public var layoutSource: LayoutSource
        /// Set when the person refused to be recorded: the refusing answer (or, for
        /// `.everything`, every answer) is gone from `conversation` and was never journaled.
        public var refusal: RefusalScope?
    }

    public func run() async -> Outcome {
        var conversation = Conversation()
        var decisions: [Decision] = []
        var question = TurnQuestion.opening
        var endReason = EndReason.finished
        var failure: String?
        var journalFailure: String?
        var refusal: RefusalScope?
        let early = EarlyDecision()
        let journal = self.journal, rules = self.rules

        func record(_ event: JournalEvent) {
            guard refusal == nil else { return }   // a refused exchange leaves nothing on disk
            do { try journal.append(event) } catch {
                // The exchange goes on (the words are still in memory for the editor), but the
                // person is told once that crash safety is off.
                if journalFailure == nil {
                    journalFailure = "\(error)"
                    onEvent(.failed("the journal could not be written (\(error)); your words are kept in memory only"))
                }
            }
        }

        /// Stops at once; the refused words are not kept, nor the journal.
        func refuse(_ scope: RefusalScope, keeping kept: Conversation) async {
            refusal = scope
            journal.remove()
            conversation = kept
            onEvent(.refused(scope))
            endReason = .refused
            try? await speaker.say(.closing(.stop))
        }

        /// Whether the last reply was an answer, which the person may still go on with.
        var mayGoOn = false
        /// Whether the current question was asked again after an unclear reply.
        var askedAgain = false
        loop: while true {
            if Task.isCancelled { endReason = .interrupted; break }
            do {
                onEvent(.asking(question, number: conversation.turns.count))
                // The person went on with the last answer before the question was over: it is
                // stopped, and the same answer heard on (asked again after it).
                let goesOn: Bool
                if mayGoOn {
                    goesOn = try await sayUnlessResumed(.question(question))
                } else {
                    try await speaker.say(.question(question))
                    goesOn = false
                }
                let before: Conversation, asked: TurnQuestion
                if goesOn, let last = conversation.turns.last {
                    before = Conversation(turns: Array(conversation.turns.dropLast()))
                    asked = last.question
                    onEvent(.wentOn)
                } else {
                    record(.asked(question))
                    before = conversation
                    asked = question
                }
                let decideEarly = { @Sendable (soFar: AnswerSoFar) -> Task<Void, Never> in
                    switch soFar {
                    case .speaking(let text):
                        let draft = before.appending(asked, answer: text.trimmingCharacters(in: .whitespacesAndNewlines))
                        return Task { await questions.prepare(after: draft) }
                    case .paused(let text):
                        let heard = text.trimmingCharacters(in: .whitespacesAndNewlines)
                        // Journaled as heard so far (a kill keeps it), unless it refuses.
                        if rules.refusal(in: heard, answering: asked) == nil { try? journal.append(goesOn ? .continued(heard) : .heard(heard)) }
                        let guess = before.appending(asked, answer: heard)
                        return early.start(for: guess) { await questions.nextQuestion(after: guess) }
                    }
                }
                let reply: AnswerOutcome
                if goesOn, let resumable = answers as? any ResumableAnswers {
                    reply = try await resumable.continueAnswer(to: asked, early: decideEarly)
                } else {
                    reply = try await answers.answer(to: asked, early: decideEarly)
                }
                mayGoOn = false
                if let scope = Self.refusal(in: reply, answering: asked, rules: rules) {
                    await refuse(scope, keeping: scope == .everything ? Conversation() : before)
                    break loop
                }
                switch reply {
                case .answer(let text):
                    let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
                    if text.isEmpty { onEvent(.noAnswer); endReason = .noAnswer; break loop }
                    conversation = before.appending(asked, answer: text)
                    record(goesOn ? .continued(text) : .answered(text))
                    onEvent(.answered(text))
                    mayGoOn = true   // sayUnlessResumed just speaks for sources that cannot go on
                    askedAgain = false
                case .unclear:
                    // The person said something that gave no words: ending the exchange as if
                    // they had not would drop them. The question is asked once more.
                    onEvent(.unclear)
                    if askedAgain { endReason = .noAnswer; break loop }
                    askedAgain = true
                    continue loop   // no decision: the same question again
                case .noAnswer:
                    onEvent(.noAnswer)
                    endReason = .noAnswer
                    break loop
                case .ended(let partial):
                    if let partial = partial?.trimmingCharacters(in: .whitespacesAndNewlines), !partial.isEmpty {
                        conversation = before.appending(asked, answer: partial)
                        record(goesOn ? .continued(partial) : .answered(partial))
                        onEvent(.answered(partial))
                    }
                    endReason = .interrupted
                    break loop
                }
            } catch is CancellationError {
                endReason = .interrupted
                break
            } catch {
                failure = "\(error)"
                onEvent(.failed(failure!))
                endReason = .failed
                break
            }
            if Task.isCancelled { endReason = .interrupted; break }
            // Decided during the pause already when the answer is what was heard then.
            let decision: Decision
            if let made = await early.decision(for: conversation) {
                decision = made
            } else {
                decision = await questions.nextQuestion(after: conversation)
            }
            if let scope = decision.refusal, !conversation.turns.isEmpty {
                // The model read a refusal the rules missed: the same as theirs.
                await refuse(scope, keeping: scope == .everything ? Conversation() : Conversation(turns: conversation.turns.dropLast()))
                break
            }
            decisions.append(decision)
            record(.decided(decision))
            onEvent(.decided(decision))
            if decision.finishes {
                // A closing line is not stopped: words said over it are not heard (the editor
                // shows the note next).
                try? await speaker.say(.closing(decision.choice))
                break
            }
            question = .choice(decision.choice)
        }
        _ = await early.decision(for: nil)
        onEvent(.finished(endReason))

        let sources = rules.noteSources(conversation)
        var layout = Layout.fallback(sourceCount: sources.count)
        var layoutSource = LayoutSource.fallback
        // The model groups the sentences only in an exchange that ended normally; after an
        // interruption or a failure the person wants their words now, one sentence per bullet.
        if endReason == .finished, !sources.isEmpty, !Task.isCancelled {
            (layout, layoutSource) = await layouts.layout(for: sources)
        }
        if !sources.isEmpty { record(.laidOut(layout, layoutSource)) }
        onEvent(.laidOut(layoutSource))
        return Outcome(conversation: conversation, decisions: decisions, endReason: endReason,
                       failure: failure, sources: sources, layout: layout, layoutSource: layoutSource, refusal: refusal)
    }

    /// Says `prompt` unless the person goes on with their last answer first, and then stops it
    /// at once: true when they did.
    func sayUnlessResumed(_ prompt: SpokenPrompt) async throws -> Bool {
        guard let resumable = answers as? any ResumableAnswers else {
            try await speaker.say(prompt)
            return false
        }
        enum Outcome: Sendable { case said, resumed(Bool) }
        let speaker = self.speaker
        return try await withThrowingTaskGroup(of: Outcome.self) { group in
            group.addTask { try await speaker.say(prompt); return .said }
            group.addTask { .resumed(await resumable.speechResumed()) }
            while let outcome = try await group.next() {
                switch outcome {
                case .said: group.cancelAll(); return false
                case .resumed(true): group.cancelAll(); return true
                case .resumed(false): continue   // nothing more to wait for: let the question finish
                }
            }
            return false
        }
    }

    /// The scope of a refusal in a reply (a whole answer, or the words heard before a key).
    static func refusal(in reply: AnswerOutcome, answering question: TurnQuestion, rules: Rules) -> RefusalScope? {
        switch reply {
        case .answer(let text): rules.refusal(in: text, answering: question)
        case .ended(let partial?): rules.refusal(in: partial, answering: question)
        case .ended(nil), .noAnswer, .unclear: nil
        }
    }
}

/// A decision started on the answer as heard at a pause, before the answer was known to be
/// over. Decisions are pure functions of the conversation, so it is used exactly when the
/// final conversation is the one it was started for; otherwise it is dropped.
final class EarlyDecision: Sendable {
    private let started = Mutex<(conversation: Conversation, task: Task<Decision, Never>)?>(nil)

    /// Starts deciding for `conversation` (replacing an earlier guess); returns the work.
    /// A guess that lost its point is cancelled (the deciders then stop between steps).
    func start(for conversation: Conversation, decide: @escaping @Sendable () async -> Decision) -> Task<Void, Never> {
        let task = Task { await decide() }
        started.withLock { started in
            started?.task.cancel()
            started = (conversation, task)
        }
        return Task { _ = await task.value }
    }

    /// The early decision if it was made for exactly this conversation, else nil (the answer
    /// went on after the pause, or there was none). Clears it either way; nil only clears.
    func decision(for conversation: Conversation?) async -> Decision? {
        let guess = started.withLock { started in
            defer { started = nil }
            return started
        }
        guard let guess else { return nil }
        guard guess.conversation == conversation else {
            guess.task.cancel()
            return nil
        }
        return await guess.task.value
    }
}
