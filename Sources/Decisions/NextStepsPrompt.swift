import DialogueCore
import Foundation

/// The prompt for the note's highlights: the numbered sentences once, then one question per
/// sentence (is it a next step?) scored as " yes" against " no", and a cue after which the key
/// sentence's ID is scored. Both are asked after the same prompt, so it is evaluated once.
public enum NextStepsPrompt {
    public static let instructions = PromptPreamble.text + "\n"
        + "Task: read the user's numbered sentences, a short note. A next step is a sentence that says what "
        + "the speaker or someone else will do, must do or plans to do: a task, a plan, an intention, an "
        + "obligation. A sentence that describes the idea, gives a reason, an opinion or a wish, or tells what "
        + "already happened is not a next step. The key sentence is the one that best states the idea."

    public static func make(sources: [Source]) -> DecisionPrompt {
        DecisionPrompt(instructions: instructions, data: "Sentences (JSON): " + SourcesJSON.encode(sources), cue: "")
    }

    /// Asked right after the prompt, once per sentence, each on its own; the model's log-odds
    /// of " future" over " past" after it is the sentence's next-step score. The wording is the
    /// one that told next steps apart best on the dev split; a plain "Is it a next step?" did not.
    public static func question(_ source: Source) -> String {
        "\nSentence \(source.id): \(JSONText.quoted(source.text)) This sentence is about the"
    }

    public static let yes = " future"
    public static let no = " past"

    /// After it the key sentence's ID is scored (`keyLabel`).
    public static let keyCue = "\nThe key sentence is number"

    public static func keyLabel(_ id: Int) -> String { " \(id)." }

    /// At most this many sentences compete for the key (one scoring sequence each); a longer
    /// note's key is among its first ones, where an idea is usually stated.
    public static let keyCandidates = 16
}

/// Which sentences become next steps: the model's log-odds of "yes", plus `cueWeight` where
/// the language's cue words say so (`ActionCues`), above `threshold`.
public enum NextStepRule {
    public static func select(odds: [Double], cues: [Double], threshold: Double, cueWeight: Double) -> [Int] {
        zip(odds, cues).enumerated().compactMap { index, pair in
            pair.0 + cueWeight * pair.1 > threshold ? index + 1 : nil
        }
    }
}
