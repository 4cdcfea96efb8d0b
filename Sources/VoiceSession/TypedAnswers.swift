import Dialogue
import DialogueCore
import Foundation

/// Typing mode speaks nothing: the display shows each question (from the exchange's events).
struct NoSpeech: PromptSpeaking {
    func say(_ prompt: SpokenPrompt) async throws {}
}

/// Typing mode's answers: one line each; an empty line or the end of input ends the exchange
/// as a key does. A line the terminal cut is said to be cut.
struct TypedAnswers: AnswerSource {
    let pack: LanguagePack
    let display: any SessionDisplay
    let input: LineInput

    func answer(to question: TurnQuestion) async throws -> AnswerOutcome {
        display.hint(pack.ui(.typePrompt))
        guard let line = input.readLine(cancelled: { Task.isCancelled }) else { return .ended(partial: nil) }
        if input.mayBeCut(line) { display.notice(pack.ui(.answerCut, ["limit": "\(LineInput.terminalLineLimit)"])) }
        let text = line.trimmingCharacters(in: .whitespaces)
        // An empty line is the typed silence: a normal ending, as falling silent is.
        return text.isEmpty ? .noAnswer : .answer(text)
    }
}

/// Used when the journal cannot be opened: the exchange still runs, without crash safety.
struct NoJournal: JournalWriting {
    func append(_ event: JournalEvent) throws {}
    func remove() {}
}
