/// `people` in a language file: how the language marks a person's name, as data, so that the
/// finder (`PeopleFinder`) has no language of its own. Patterns are regular expressions matched
/// case-sensitively (a capital is evidence here); a pattern writes `(?i:…)` where case does not
/// matter. A cue holds for a span when its part before `{name}` ends right before the span and
/// its part after starts right after it; `{role}` stands for any of `roles` and `{possessive}`
/// for any of `possessives` (case ignored in both).
public struct PeoplePatterns: Decodable, Sendable, Hashable {
    /// What a capital letter inside a sentence says in this language's script.
    public enum Capitals: String, Decodable, Sendable, Hashable {
        /// A capitalised word that does not start the sentence names someone or something
        /// (English, Spanish, French): a person, unless a cue says place, shop or company.
        case names
        /// Every noun is capitalised (German): only two or more capitalised words in a row
        /// (first and last name) are evidence; one word needs a cue.
        case nouns
        /// The script has no capitals (Japanese): only honorifics and cues say "person".
        case none
    }

    public var capitals: Capitals
    /// One name-shaped span: a run of capitalised words, a run of kanji and katakana.
    public var name: String
    /// The parts of such a span that may each name the person again alone ("Sarah" of "Sarah
    /// Lin", "ユキ" of "鈴木ユキ").
    public var part: String
    /// Written before a name and kept with it ("Frau", "Mr.", "Sra.", "Tante" in "Tante Hilde").
    /// Those ending in a full stop do not end a sentence. A title that is also a role is no title
    /// after a possessive ("meine Tante Hilde": the name is "Hilde").
    public var titles: [String]
    /// Written after a name and kept with it ("さん", "先生").
    public var honorifics: [String]
    /// Words for a relation ("sister", "Nachbarin", "息子"): never a name themselves, and a name
    /// next to one is a person's (`{role}` in cues).
    public var roles: [String]
    /// "my", "meine", "mi", "mon": a role after one is a relation, not a title.
    public var possessives: [String]
    /// Capitalised words that are never a name alone: pronouns, articles, fillers, sentence
    /// openers, holidays. Weekdays and months come from ICU and need no entry.
    public var notNames: [String]
    /// A span with one of these words names a place, a shop or a company ("Street", "Café").
    public var placeWords: [String]
    /// A word ending so names a place, shop or role, not a person ("…straße", "…通り", "…屋", "…員").
    public var notNameEndings: [String]
    /// Endings of a possessive that are not part of the name ("Ninas" → "Nina", when "Nina" is a
    /// name in the memo).
    public var possessiveEndings: [String]
    /// The whole text between two names of one list ("Priya and", "木村先生と"): a name-shaped
    /// span joined so to a person's name is one too.
    public var joiner: String
    /// A name-shaped span that one of these finds is a person's (after its `{name}`: a verb a person
    /// does; before it: a verb done to a person, a relation).
    public var personCues: [String]
    /// A name-shaped span that one of these finds is no person's, whatever else says so, a title
    /// excepted (an article before it, "to" after a verb of going, "the company" after it).
    public var thingCues: [String]
    /// A name-shaped span that one of these finds is no person's unless the memo names that
    /// person elsewhere, or joins the span to a person's name: a preposition or article before a
    /// place or before someone ("de Valencia"; "la casa de Andrés" when Andrés speaks in another
    /// sentence; "den Rainer" when Rainer knows something).
    public var weakThingCues: [String]
}
