import Foundation

/// One thing that happened in an exchange, written as one JSON line the moment it happens,
/// so that a crash at any point loses nothing the user said.
public enum JournalEvent: Sendable, Hashable {
    /// First line: which memo, when, and in which language.
    case started(id: String, created: Date, timeZone: String, language: Language)
    /// A prompt was spoken (the opening or a case).
    case asked(TurnQuestion)
    /// The user's answer to the last prompt, as transcribed or typed.
    case answered(String)
    /// The answer so far, as transcribed at a pause (provisional: the person may go on). A
    /// later `heard` or the `answered` replaces it; after a kill it is the answer.
    case heard(String)
    /// The last answer as the person went on with it after it seemed over: all of it, what
    /// was said before and after; replaces that answer.
    case continued(String)
    /// The final transcript of answer number `turn` (0 is the opening's), made after the answer
    /// was over from its audio with slower, better settings; it replaces that answer when the
    /// answer is still `live` (an answer the person went on with was heard again, all of it).
    case final(turn: Int, live: String, text: String)
    /// The note as the person edited it, kept because saving it failed (`recover` offers
    /// this text, not a fresh rendering).
    case edited(String)
    /// The choice for the next turn, with its source.
    case decided(Decision)
    /// The layout used for the note, with its source.
    case laidOut(Layout, LayoutSource)
}

/// The JSON shape of a line: `{"event":"…", …}` with the event's fields, keys sorted.
///
///     {"created":"2025-11-29T17:25:43.120Z","event":"started","id":"…","language":"en","timeZone":"Europe/Berlin"}
///     {"event":"asked","question":"opening"}
///     {"event":"answered","text":"A new product idea."}
///     {"choice":"problem","event":"decided","source":"model","suggestion":"problem"}
///     {"event":"laidOut","layout":{"firstSourceIsTitle":true,"groups":[[1],[2,3]]},"source":"model"}
///
/// A line whose kind is unknown, or that lacks a field its kind needs, does not decode.
extension JournalEvent: Codable {
    /// The line kinds, as `event` names them.
    enum Kind: String, Codable {
        case started, asked, answered, heard, continued, final, edited, decided, laidOut
    }

    enum Field: String, CodingKey {
        case event, id, created, timeZone, language, question, text, choice, source, suggestion, layout, turn, live
    }

    var kind: Kind {
        switch self {
        case .started: .started
        case .asked: .asked
        case .answered: .answered
        case .heard: .heard
        case .continued: .continued
        case .final: .final
        case .edited: .edited
        case .decided: .decided
        case .laidOut: .laidOut
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var line = encoder.container(keyedBy: Field.self)
        try line.encode(kind, forKey: .event)
        switch self {
        case .started(let id, let created, let timeZone, let language):
            try line.encode(id, forKey: .id)
            try line.encode(Self.timestamp(created), forKey: .created)
            try line.encode(timeZone, forKey: .timeZone)
            try line.encode(language, forKey: .language)
        case .asked(let question):
            try line.encode(question, forKey: .question)
        case .answered(let text), .heard(let text), .continued(let text), .edited(let text):
            try line.encode(text, forKey: .text)
        case .final(let turn, let live, let text):
            try line.encode(turn, forKey: .turn)
            try line.encode(live, forKey: .live)
            try line.encode(text, forKey: .text)
        case .decided(let decision):
            try line.encode(decision.choice, forKey: .choice)
            try line.encode(decision.source, forKey: .source)
            try line.encodeIfPresent(decision.suggestion, forKey: .suggestion)
        case .laidOut(let layout, let source):
            try line.encode(layout, forKey: .layout)
            try line.encode(source, forKey: .source)
        }
    }

    public init(from decoder: any Decoder) throws {
        let line = try decoder.container(keyedBy: Field.self)
        switch try line.decode(Kind.self, forKey: .event) {
        case .started:
            let created = try line.decode(String.self, forKey: .created)
            guard let date = Self.date(created) else {
                throw DecodingError.dataCorruptedError(forKey: .created, in: line, debugDescription: "not a timestamp: \(created)")
            }
            self = .started(id: try line.decode(String.self, forKey: .id), created: date,
                            timeZone: try line.decodeIfPresent(String.self, forKey: .timeZone) ?? "UTC",
                            language: try line.decode(Language.self, forKey: .language))
        case .asked: self = .asked(try line.decode(TurnQuestion.self, forKey: .question))
        case .answered: self = .answered(try line.decode(String.self, forKey: .text))
        case .heard: self = .heard(try line.decode(String.self, forKey: .text))
        case .continued: self = .continued(try line.decode(String.self, forKey: .text))
        case .final:
            self = .final(turn: try line.decode(Int.self, forKey: .turn), live: try line.decode(String.self, forKey: .live),
                          text: try line.decode(String.self, forKey: .text))
        case .edited: self = .edited(try line.decode(String.self, forKey: .text))
        case .decided:
            self = .decided(Decision(choice: try line.decode(QuestionChoice.self, forKey: .choice),
                                     source: try line.decode(DecisionSource.self, forKey: .source),
                                     suggestion: try line.decodeIfPresent(QuestionChoice.self, forKey: .suggestion)))
        case .laidOut:
            self = .laidOut(try line.decode(Layout.self, forKey: .layout), try line.decode(LayoutSource.self, forKey: .source))
        }
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
