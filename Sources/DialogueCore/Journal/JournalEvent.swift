import Foundation

/// One thing that happened in an exchange, written as one JSON line the moment it happens,
/// so that a crash at any point loses nothing the user said.
public enum JournalEvent: Sendable, Hashable {
    /// First line: which memo, when, and in which language.
    case started(id: String, created: Date, timeZone: String, language: String)
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
struct JournalLine: Codable, Sendable {
    var event: String
    var id: String?
    var created: String?
    var timeZone: String?
    var language: String?
    var question: TurnQuestion?
    var text: String?
    var choice: QuestionChoice?
    var source: String?
    var suggestion: QuestionChoice?
    var layout: Layout?

    init(_ event: JournalEvent) {
        switch event {
        case .started(let id, let created, let timeZone, let language):
            self.event = "started"
            self.id = id
            self.created = JournalLine.timestamp(created)
            self.timeZone = timeZone
            self.language = language
        case .asked(let question):
            self.event = "asked"
            self.question = question
        case .answered(let text):
            self.event = "answered"
            self.text = text
        case .heard(let text):
            self.event = "heard"
            self.text = text
        case .continued(let text):
            self.event = "continued"
            self.text = text
        case .edited(let text):
            self.event = "edited"
            self.text = text
        case .decided(let decision):
            self.event = "decided"
            choice = decision.choice
            source = decision.source.rawValue
            suggestion = decision.suggestion
        case .laidOut(let layout, let source):
            self.event = "laidOut"
            self.layout = layout
            self.source = source.rawValue
        }
    }

    /// The event, or nil when a field it needs is missing or unknown.
    var journalEvent: JournalEvent? {
        switch event {
        case "started":
            guard let id, let created, let date = JournalLine.date(created), let language else { return nil }
            return .started(id: id, created: date, timeZone: timeZone ?? "UTC", language: language)
        case "asked":
            return question.map(JournalEvent.asked)
        case "answered":
            return text.map(JournalEvent.answered)
        case "heard":
            return text.map(JournalEvent.heard)
        case "continued":
            return text.map(JournalEvent.continued)
        case "edited":
            return text.map(JournalEvent.edited)
        case "decided":
            guard let choice, let source = source.flatMap(DecisionSource.init(rawValue:)) else { return nil }
            return .decided(Decision(choice: choice, source: source, suggestion: suggestion))
        case "laidOut":
            guard let layout, let source = source.flatMap(LayoutSource.init(rawValue:)) else { return nil }
            return .laidOut(layout, source)
        default:
            return nil
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
