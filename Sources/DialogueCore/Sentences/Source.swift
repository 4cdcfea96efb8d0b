import Foundation

/// One numbered sentence of the user's answers: the unit the model groups and the note copies.
public struct Source: Sendable, Hashable, Codable {
    /// 1…N across all answers, in order.
    public let id: Int
    /// The sentence as the user said it (sanitized, trimmed).
    public let text: String
    /// Which answer (0-based turn index) it came from.
    public let answerIndex: Int

    public init(id: Int, text: String, answerIndex: Int) {
        self.id = id
        self.text = text
        self.answerIndex = answerIndex
    }
}

/// The sources as the layout prompt shows them, reproducibly:
/// `[{"id":1,"text":"A new product idea."},{"id":2,"text":"…"}]` — fields in this order,
/// no whitespace between tokens, slashes unescaped.
public enum SourcesJSON {
    public static func encode(_ sources: [Source]) -> String {
        "[" + sources.map { "{\"id\":\($0.id),\"text\":\(JSONText.quoted($0.text))}" }.joined(separator: ",") + "]"
    }
}
