import Foundation

/// What the note's front matter records.
public struct NoteMetadata: Sendable, Hashable {
    public var id: String
    public var created: Date
    /// The time zone `created` is shown in (and the generic title's date).
    public var timeZone: TimeZone
    /// The interface language.
    public var language: Language
    /// The follow-up questions asked, in order.
    public var questions: [QuestionChoice]
    /// Where the layout came from; the renderer sets `.fallback` if the layout was invalid.
    public var layoutSource: LayoutSource
    /// How the exchange ended ("userEnded", "questionLimit", "interrupted", …); nil: not said.
    public var ending: String?
    /// The note's tags (its kind, in the interface language), for Obsidian and friends.
    public var tags: [String] = []
    /// The people the sentences mention, each as first said (`PeopleFinder.names`).
    public var people: [String] = []
    /// The next steps and key sentence; nil: not decided (a plain recording, a recovered memo),
    /// and the note has neither. The renderer sets `highlightsSource` to `.fallback` if they
    /// do not fit the sentences.
    public var highlights: Highlights?
    public var highlightsSource: HighlightsSource = .fallback

    public init(id: String, created: Date, timeZone: TimeZone = .current, language: Language,
                questions: [QuestionChoice], layoutSource: LayoutSource, ending: String? = nil) {
        self.id = id
        self.created = created
        self.timeZone = timeZone
        self.language = language
        self.questions = questions
        self.layoutSource = layoutSource
        self.ending = ending
    }
}
