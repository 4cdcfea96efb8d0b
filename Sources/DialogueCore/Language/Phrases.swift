/// The per-language word lists the rules match against. Entries are written naturally
/// ("that's all", "C'est tout") and normalized before matching, so case, accents,
/// apostrophes, full-width forms and katakana/hiragana do not matter. A `*` at the start or
/// end of a keyword matches the rest of a word ("*besprechung" finds "Teambesprechung").
public struct Phrases: Sendable, Hashable, Codable {
    /// "That's all": the note is complete. Matched as a whole clause (see `ClauseMatcher`).
    public var endings: [String]
    /// "Let's stop here", "I have to go": the user breaks off. Whole clause.
    public var interruptions: [String]
    /// "Don't record this": the user refuses. Whole clause.
    public var refusals: [String]
    /// Words that make a refusal cover the whole exchange ("none of this", "nichts davon"),
    /// not only the answer that says it. Anywhere in the refusing answer.
    public var refusalCoversAll: [String]
    /// Words that may stand before an ending in its clause ("okay", "I think"), and that
    /// alone never make a title ("Okay, so.").
    public var fillers: [String]
    /// Words that may follow an ending in its clause ("for now", "für heute").
    public var endingTails: [String]
    /// Short negative answers ("no", "nothing") that end the exchange after "anything else?".
    public var negatives: [String]
    /// "I don't know yet": the answer is content, and its angle is not asked again.
    public var hesitations: [String]
    /// Words that show a product idea (gates `audience`).
    public var productIdea: [String]
    /// Words that show a meeting (gates `decision` and `meetingFocus`).
    public var meeting: [String]
    /// Words that show a reflection on something experienced (a talk, a book, a trip).
    public var reflection: [String]
    /// Per angle (a `QuestionChoice` name), words suggesting an answer already covers it.
    public var angleCues: [String: [String]]
}
