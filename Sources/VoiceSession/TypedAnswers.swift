import Dialogue
import DialogueCore
import Foundation
import Synchronization

/// Typing mode speaks nothing: the display shows each question (from the exchange's events).
struct NoSpeech: PromptSpeaking {
    func say(_ prompt: SpokenPrompt) async throws {}
}

/// Typing mode's answers: one line each; an empty line is the typed silence, the end of input
/// ends the exchange as a key does. A line the terminal cut is said to be cut. A line typed (or
/// piped) within the take-back window after an ending that no rule forced goes on with the last
/// answer.
final class TypedAnswers: ResumableAnswers {
    let pack: LanguagePack
    let display: any SessionDisplay
    let input: LineInput
    /// The last answer, which a line after an ending goes on with.
    private let last = Mutex<String?>(nil)

    init(pack: LanguagePack, display: any SessionDisplay, input: LineInput) {
        (self.pack, self.display, self.input) = (pack, display, input)
    }

    func answer(to question: TurnQuestion) async throws -> AnswerOutcome {
        display.hint(pack.ui(.typePrompt))
        guard let line = input.readLine(cancelled: { Task.isCancelled }) else { return .ended(partial: nil) }
        if input.mayBeCut(line) { display.notice(pack.ui(.answerCut, ["limit": "\(LineInput.terminalLineLimit)"])) }
        let text = line.trimmingCharacters(in: .whitespaces)
        last.withLock { $0 = text }
        // An empty line is the typed silence: a normal ending, as falling silent is.
        return text.isEmpty ? .noAnswer : .answer(text)
    }

    /// Nothing typed can be told to be over a question: it is read after it.
    func speechOverQuestion() async -> TalkOver? { nil }

    func goesOn(within window: Duration) async -> Bool {
        input.hasLine(within: window.seconds, cancelled: { Task.isCancelled })
    }

    /// The last answer and the next line, as one answer.
    func continueAnswer(to question: TurnQuestion,
                        early: @escaping @Sendable (AnswerSoFar) -> Task<Void, Never>) async throws -> AnswerOutcome {
        let before = last.withLock { $0 } ?? ""
        switch try await answer(to: question) {
        case .answer(let text):
            let whole = before.isEmpty ? text : before + " " + text
            last.withLock { $0 = whole }
            return .answer(whole)
        case .ended: return .ended(partial: before.isEmpty ? nil : before)
        case .noAnswer, .unclear: return before.isEmpty ? .noAnswer : .answer(before)
        }
    }
}

/// Used when the journal cannot be opened: the exchange still runs, without crash safety.
struct NoJournal: JournalWriting {
    func append(_ event: JournalEvent) throws {}
    func remove() {}
}
