import Foundation

/// The conversation as the prompt shows it to the model, byte for byte reproducible:
///
///     [{"question":"opening","answer":"…"},{"question":"problem","answer":"…"}]
///
/// A JSON array of turns in order; each turn is an object with exactly two fields, always in
/// this order: `question` (`"opening"` or a `QuestionChoice` case name) and `answer` (the
/// transcript). No whitespace between tokens; strings escaped as JSONEncoder does, slashes
/// unescaped. This is the shape of the turns in `shared/eval/choice-scenarios.json`, so a
/// scenario's turns can be fed to the prompt unchanged.
public enum ConversationJSON {
    public static func encode(_ conversation: Conversation) -> String {
        let turns = conversation.turns.map { turn in
            "{\"question\":\(JSONText.quoted(turn.question.name)),\"answer\":\(JSONText.quoted(turn.answer))}"
        }
        return "[" + turns.joined(separator: ",") + "]"
    }

    public static func decode(_ text: String) throws -> Conversation {
        Conversation(turns: try JSONDecoder().decode([Turn].self, from: Data(text.utf8)))
    }
}

/// JSON string literals for the hand-ordered encodings (conversation, sources, prompts).
public enum JSONText {
    public static func quoted(_ string: String) -> String { JSONLine.encode(string) }
}
