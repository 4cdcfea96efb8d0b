import Foundation
import DialogueCore

/// What the model reads for each case: the English question itself (or a short
/// sentence for the two endings) rather than a camelCase name, because a tiny model knows
/// what "Who is it for?" means and has never seen `audience` used as an intent. The labels
/// are scored, and the best one names the case; the user never hears it (the interface
/// language's reviewed string is rendered instead).
public enum ChoiceLabels {
    public static func label(_ choice: QuestionChoice) -> String {
        switch choice {
        case .audience: "Who is it for?"
        case .ideaDetails: "How would it work?"
        case .useCase: "When would someone use it?"
        case .problem: "What problem does it solve?"
        case .reason: "Why does this matter to you?"
        case .example: "Can you give an example?"
        case .obstacle: "What might get in the way?"
        case .preparation: "What do you need to prepare?"
        case .takeaway: "What do you want to remember from this?"
        case .validation: "How could you test it first?"
        case .keyPoint: "What is the most important point?"
        case .impression: "What stayed with you?"
        case .decision: "What needs to be decided?"
        case .meetingFocus: "What should the meeting focus on?"
        case .purpose: "What do you want to achieve?"
        case .nextStep: "What is the next step?"
        case .startingPoint: "Where would you start?"
        case .moreDetails: "Is there anything else you want to add?"
        case .ready: "No more questions, the note is complete."
        case .stop: "Stop now, the user wants to end."
        }
    }

    /// How a turn's question appears in the prompt's conversation JSON.
    public static func label(_ question: TurnQuestion) -> String {
        switch question {
        case .opening: "What idea would you like to capture?"
        case .choice(let choice): label(choice)
        }
    }
}
