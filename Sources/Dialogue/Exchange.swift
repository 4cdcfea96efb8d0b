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
        /// After a refusal, everything said, the refused words included: held in memory only, so
        /// that a person at a terminal can say the refusal was misread (`takingBackTheRefusal`).
        public var asSaid: Conversation?

        /// The outcome with every refused word back where it was: the person said at the prompt
        /// that they want them kept after all, so nothing leaves the note for refusing. The
        /// exchange still stopped on the refusal (`endReason` stays `.refused`), so, as after a
        /// key, the note is one sentence per bullet; nil when nothing was refused.
        public func takingBackTheRefusal(rules: Rules) -> Outcome? {
            guard refusal != nil, let asSaid else { return nil }
            let sources = rules.noteSources(asSaid, keepingRefusals: true)
            return Outcome(conversation: asSaid, decisions: decisions, endReason: endReason, failure: failure, sources: sources,
                           layout: .fallback(sourceCount: sources.count), layoutSource: .fallback, refusal: nil, asSaid: nil)
        }
        /// The conversation as heard live, which drove the exchange: how it ended is read from it
        /// (`conversation` holds the final transcripts, which may word an ending otherwise); nil:
        /// the same as `conversation`.
        public var live: Conversation?
        /// The closing line while it still plays (`runUnderClosingLine`); nil once it is over.
        public var closing: Task<Void, Never>?
        /// The next steps and the key sentence (asked of the model only when the exchange
        /// ended normally), made while the closing line played.
        public var highlights = Highlights.fallback
        public var highlightsSource = HighlightsSource.fallback
    }

    /// Asks and decides until a final choice, an ending, an interruption or a failure, then
    /// lays out the note's sentences.
    public func run() async -> Outcome {
        var outcome = await runUnderClosingLine()
        await outcome.closing?.value
        outcome.closing = nil
        return outcome
    }

    /// The same, returning while the closing line may still be playing (`Outcome.closing`), so
    /// that the caller's own work for the note runs under it too. The final transcripts and the
    /// layout already did.
    public func runUnderClosingLine() async -> Outcome {
        var run = ExchangeRun(exchange: self)
        var endReason = await run.converse()
        var note: Task<ExchangeRun.Note, Never>?
        while let ending = run.unconfirmedEnding, let source = answers as? any ResumableAnswers {
            // The note is made while the closing line plays and the person may still go on, and
            // dropped if they do.
            let made = Task { [run, endReason] in await run.note(endReason) }
            let wentOn = await closingTakenBack(ending.choice, by: source)
            guard wentOn, !Task.isCancelled else {
                run.confirmEnding()
                // A key or Ctrl-C in the window: the words now, as they are (made afresh below).
                if Task.isCancelled { made.cancel() } else { note = made }
                break
            }
            made.cancel()
            run.takeBackEnding()
            endReason = await run.converse()
        }
        _ = await run.early.decision(for: nil)
        onEvent(.finished(endReason))
        guard let note else { return await run.outcome(endReason, note: run.note(endReason)) }
        return await run.outcome(endReason, note: withTaskCancellationHandler { await note.value } onCancel: { note.cancel() })
    }

    /// How long the person has, once the closing line of an ending that no rule forced is over,
    /// to take it back by going on: 99 % of the real thinking pauses inside answers are shorter
    /// (217 in the turn-taking set: median 0.35 s, 95 % 1.11 s, 99 % 1.5 s).
    public static let takeBackWindow = Duration.milliseconds(1_500)

    /// Says the closing line and listens on for `takeBackWindow` after it: whether the person
    /// went on (over the line, which then stops, or after it).
    func closingTakenBack(_ choice: QuestionChoice, by source: any ResumableAnswers) async -> Bool {
        if ((try? await sayUnlessTalkedOver(.closing(choice))) ?? nil) != nil { return true }
        guard !Task.isCancelled else { return false }
        return await source.goesOn(within: Self.takeBackWindow)
    }

    /// Says `prompt` unless the person speaks over it (going on with their last answer, or
    /// answering it already), and then stops it at once: what they did, nil when they did not.
    func sayUnlessTalkedOver(_ prompt: SpokenPrompt) async throws -> TalkOver? {
        guard let resumable = answers as? any ResumableAnswers else {
            try await speaker.say(prompt)
            return nil
        }
        enum Outcome: Sendable { case said, heard(TalkOver?) }
        let speaker = self.speaker
        return try await withThrowingTaskGroup(of: Outcome.self) { group in
            group.addTask { try await speaker.say(prompt); return .said }
            group.addTask { .heard(await resumable.speechOverQuestion()) }
            while let outcome = try await group.next() {
                switch outcome {
                case .said: group.cancelAll(); return nil
                case .heard(let over?): group.cancelAll(); return over
                case .heard(nil): continue   // nothing more to wait for: let the question finish
                }
            }
            return nil
        }
    }

    /// The scope of a refusal in a reply (a whole answer, or the words heard before a key).
    static func refusal(in reply: AnswerOutcome, answering question: TurnQuestion, rules: Rules) -> RefusalScope? {
        reply.words.flatMap { rules.refusal(in: $0, answering: question) }
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
