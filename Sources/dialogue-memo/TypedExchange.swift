import Dialogue
import DialogueCore
import Foundation

/// Typing mode speaks nothing: the screen shows each question (from the exchange's events).
struct NoSpeech: PromptSpeaking {
    func say(_ prompt: SpokenPrompt) async throws {}
}

/// Typing mode's answers: one line each; an empty line or the end of input finishes.
struct TypedAnswers: AnswerSource {
    let pack: LanguagePack
    let screen: Screen
    let input: LineInput

    func answer(to question: TurnQuestion) async throws -> AnswerOutcome {
        screen.hint(pack.ui(.typePrompt))
        guard let line = input.readLine(cancelled: { Task.isCancelled }) else { return .ended(partial: nil) }
        let text = line.trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? .ended(partial: nil) : .answer(text)
    }
}
