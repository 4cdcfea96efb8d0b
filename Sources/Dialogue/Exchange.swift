import DialogueCore
import Foundation

/// The spoken exchange as a plain loop over the ports: say a prompt, get the answer, journal
/// it, let the rules (advised by the model) pick the next question, until a final choice, an
/// ending, an interruption or a failure. Whatever happens, the words so far come back.
public struct Exchange: Sendable {
    public let language: String
    public let speaker: any PromptSpeaking
    public let answers: any AnswerSource
    public let questions: any QuestionDeciding
    public let layouts: any LayoutDeciding
    public let journal: any JournalWriting
    public let onEvent: @Sendable (ExchangeEvent) -> Void

    public init(language: String, speaker: any PromptSpeaking, answers: any AnswerSource,
                questions: any QuestionDeciding, layouts: any LayoutDeciding,
                journal: any JournalWriting, onEvent: @escaping @Sendable (ExchangeEvent) -> Void = { _ in }) {
        self.language = language
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
    }

    public func run() async -> Outcome {
        var conversation = Conversation()
        var decisions: [Decision] = []
        var question = TurnQuestion.opening
        var endReason = EndReason.finished
        var failure: String?
        var journalFailure: String?

        func record(_ event: JournalEvent) {
            do { try journal.append(event) } catch {
                // The exchange goes on (the words are still in memory for the editor), but the
                // person is told once that crash safety is off.
                if journalFailure == nil {
                    journalFailure = "\(error)"
                    onEvent(.failed("the journal could not be written (\(error)); your words are kept in memory only"))
                }
            }
        }

        loop: while true {
            if Task.isCancelled { endReason = .interrupted; break }
            do {
                onEvent(.asking(question, number: conversation.turns.count))
                try await speaker.say(.question(question))
                record(.asked(question))
                switch try await answers.answer(to: question) {
                case .answer(let text):
                    let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
                    if text.isEmpty { onEvent(.noAnswer); endReason = .noAnswer; break loop }
                    conversation = conversation.appending(question, answer: text)
                    record(.answered(text))
                    onEvent(.answered(text))
                case .noAnswer:
                    onEvent(.noAnswer)
                    endReason = .noAnswer
                    break loop
                case .ended(let partial):
                    if let partial = partial?.trimmingCharacters(in: .whitespacesAndNewlines), !partial.isEmpty {
                        conversation = conversation.appending(question, answer: partial)
                        record(.answered(partial))
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
            let decision = await questions.nextQuestion(after: conversation)
            decisions.append(decision)
            record(.decided(decision))
            onEvent(.decided(decision))
            if decision.finishes {
                try? await speaker.say(.closing(decision.choice))
                break
            }
            question = .choice(decision.choice)
        }
        onEvent(.finished(endReason))

        let sources = SentenceSplitter.sources(from: conversation.answers, language: language)
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
                       failure: failure, sources: sources, layout: layout, layoutSource: layoutSource)
    }
}
