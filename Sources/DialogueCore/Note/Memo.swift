import Foundation

/// One memo: which, when and in which language. Its journal starts with it (`started`) and its
/// note's front matter names it, whether the memo is a live exchange, a plain recording or one
/// recovered from its journal.
public struct Memo: Sendable, Hashable {
    public var id: String
    public var created: Date
    /// The zone `created` is shown in.
    public var timeZone: TimeZone
    /// The interface language.
    public var language: Language

    public init(id: String, created: Date, timeZone: TimeZone = .current, language: Language) {
        self.id = id
        self.created = created
        self.timeZone = timeZone
        self.language = language
    }

    /// The journal's first line.
    public var started: JournalEvent {
        .started(id: id, created: created, timeZone: timeZone.identifier, language: language)
    }

    /// What an exchange's note says that a plain recording's does not: how it ended (see
    /// `Rules.ending`) and its highlights; its kind tag follows from the conversation.
    public struct ExchangeFields: Sendable, Hashable {
        public var ending: String
        public var highlights: Highlights
        public var highlightsSource: HighlightsSource

        public init(ending: String, highlights: Highlights = .fallback, highlightsSource: HighlightsSource = .fallback) {
            self.ending = ending
            self.highlights = highlights
            self.highlightsSource = highlightsSource
        }
    }

    /// The memo's note: the front matter (this memo, the questions asked, where the layout came
    /// from, the people its sentences name and, for an exchange, `exchange` and the kind tag),
    /// then `sources` laid out.
    public func note(_ conversation: Conversation, sources: [Source], layout: Layout, layoutSource: LayoutSource,
                     exchange: ExchangeFields?, pack: LanguagePack, rules: Rules) -> RenderedNote {
        var metadata = NoteMetadata(id: id, created: created, timeZone: timeZone, language: language,
                                    questions: conversation.askedChoices, layoutSource: layoutSource, ending: exchange?.ending)
        metadata.people = pack.people.names(in: sources)
        if let exchange {
            metadata.tags = [rules.kind(of: conversation).tag(pack)]
            metadata.highlights = exchange.highlights
            metadata.highlightsSource = exchange.highlightsSource
        }
        return NoteRenderer(pack: pack, rules: rules).render(sources: sources, layout: layout, metadata: metadata)
    }
}

extension Rules {
    /// How an exchange ended, for its note's front matter. When it finished on a final choice:
    /// the rules' reason ("userEnded", "questionLimit", …); "modelChoseReady" or
    /// "modelChoseStop" for an ending the model read that the rules missed; "rulesChoseReady"
    /// or "rulesChoseStop" when the rules chose it with no reason of the person's (the note has
    /// enough, or no model). Otherwise `stopped`, why it stopped ("interrupted", "noAnswer",
    /// "failed", "refused").
    public func ending(of conversation: Conversation, decisions: [Decision], stopped: String?) -> String {
        if let stopped { return stopped }
        if let reason = allowedChoices(conversation).finishReason { return reason.rawValue }
        let chooser = decisions.last?.source == .model ? "model" : "rules"
        return chooser + (decisions.last?.choice == .stop ? "ChoseStop" : "ChoseReady")
    }
}
