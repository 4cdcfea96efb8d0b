/// The per-language word lists the rules match against. Entries are written naturally
/// ("that's all", "C'est tout") and normalized before matching, so case, accents,
/// apostrophes, full-width forms and katakana/hiragana do not matter. A `*` at the start or
/// end of a keyword matches the rest of a word ("*besprechung" finds "Teambesprechung").
///
/// `Name` is the schema of a language file's `phrases`: each list is declared there once, and
/// its case is its key in the file.
public struct Phrases: Sendable, Hashable {
    /// A phrase list, by its key under `phrases` in a language file.
    public enum Name: String, CaseIterable, Sendable {
        /// "That's all": the note is complete. Matched as a whole clause (see `ClauseMatcher`).
        case endings
        /// "Let's stop here", "I have to go": the user breaks off. Whole clause.
        case interruptions
        /// "Don't record this": the user refuses. Whole clause.
        case refusals
        /// Words that make a refusal cover the whole exchange ("none of this", "nichts davon"),
        /// not only the answer that says it. Anywhere in the refusing answer.
        case refusalCoversAll
        /// Words that state the idea itself in the opening answer's first sentence ("I want to
        /// build", "mi idea es"): that sentence is the note's subject, never one of its next steps.
        case ideaStatements
        /// Words that may stand before an ending in its clause ("okay", "I think"), and that
        /// alone never make a title ("Okay, so.").
        case fillers
        /// Words that may follow an ending in its clause ("for now", "für heute").
        case endingTails
        /// Modal particles that may stand between the words of an ending, interruption or refusal
        /// ("das ist dann auch schon alles", "that's pretty much it"); empty where words are not
        /// spaced (Japanese: between characters they would only mislead).
        case particles
        /// Short negative answers ("no", "nothing") that end the exchange after "anything else?".
        case negatives
        /// "I don't know yet": the answer is content, and its angle is not asked again.
        case hesitations
        /// Words that show a product idea (gates `audience`).
        case productIdea
        /// "A", "un", "eine": an opening answer that starts with one names a thing ("A kettle that
        /// stops itself at eighty degrees", "Ein Tool, das Bewerbungen vorsortiert"), a product idea
        /// whatever its nouns. Empty in Japanese, which has none.
        case indefiniteArticles
        /// Words that show a meeting (gates `decision` and `meetingFocus`). Singular nouns only:
        /// "meetings", "réunions" are meetings in general ("j'ai souvent des réunions qui débordent").
        case meeting
        /// Words of a habit ("every week", "siempre", "jeden Morgen", "毎週"): a meeting in their
        /// sentence is one that recurs, the setting of a story, not one to prepare. In every labelled
        /// set, none of the 10 sentences with a meeting and one of these was about a meeting ahead.
        case habitual
        /// Words that show a reflection on something experienced (a talk, a book, a trip).
        case reflection
        /// Words of organising something ahead ("planning", "organiser", "予定"): a trip or a course
        /// in an answer that plans it is a plan, not a reflection on one ("I want to learn Spanish
        /// before the trip to Mexico" against "the trip to Lisbon last May").
        case planning

        // Refusals in the person's own words: a clause that negates keeping what was said.
        /// Verbs of recording or keeping, in the forms used to address the program ("record",
        /// "written down", "grabes", "speicher", "記録"); "…" separates split parts ("nimm … auf").
        case recordVerbs
        /// Where said words would be kept ("on the recording", "in the note", "por escrito").
        case recordPlaces
        /// Negation cues ("don't", "wasn't", "nada", "rien", "nichts", "ないで").
        case negations
        /// Words pointing at what was said ("this", "any of it", "lo que acabo de decir", "davon").
        case talkDeixis
        /// Keeping what was said private: "stays between us", "das muss niemand wissen", "que esto
        /// no salga de aquí", "ça reste entre nous", "内緒にして". A refusal at the edge of its clause;
        /// "…" separates split parts ("bleibt … unter uns").
        case secrecy
        /// Imperatives that remove what was said ("delete", "borra", "efface", "lösch", "消して"),
        /// at the start of a clause and with a `talkDeixis` word.
        case removalVerbs
        /// Subjects that make a record verb someone or something else's act, at the start of a
        /// clause: "it must", "she", "il ne doit", "no debe", "die haben". "It shouldn't save
        /// anything the client deletes" tells what the idea does; "it shouldn't be saved" (with a
        /// `passiveMarkers` word) still refuses. Empty where subjects go unsaid (Japanese).
        case otherAgents
        /// Words that make a record verb passive ("be", "être", "werden", "se"): what was said is
        /// then what gets recorded, so the subject before it records nothing.
        case passiveMarkers
        /// Where data is kept, as the idea or the business keeps it ("in the cloud", "on a server",
        /// "online", "außerhalb", "fuera de", "hors de", "クラウド"): "none of this should be stored
        /// in the cloud" is a requirement, not a refusal; this program keeps nothing anywhere else.
        case dataPlaces

        // Pretending nothing was said ("tu so, als hätte ich nie etwas gesagt", "haz como si no te
        // hubiera dicho nada", "今の話はなかったことにして"): a refusal of everything, built from
        // four short classes with only their closed words around (`PhraseBook.pretending`).
        /// "Pretend", "act like", "tu so als", "haz como si", "fais comme si", "ことにして".
        case pretendFrames
        /// "Never", "didn't", "nie", "nichts", "no", "rien", "なかった".
        case pretendNegations
        /// "Said", "happened", "gesagt", "dicho", "dit", "言わ".
        case pretendVerbs
        /// The closed words around them: pronouns and auxiliaries ("I", "hätte", "hubiera", "avais").
        case pretendWords

        /// Saying what there is to have ("we have", "wir … haben", "tenemos", "qu'on a", "予算"): in
        /// a clause of its own, the sentence's ending words are content ("Das ist alles, was wir an
        /// Geld haben"); "…" separates split parts.
        case haves

        // Indirect endings: having to leave now, and putting the rest off.
        /// "I need to head out now", "my train's here", "je suis à la bourre", "もう出ないと";
        /// "…" separates split parts ("muss … los"), as in `recordVerbs`.
        case leavingNow
        /// Being worn out now, as a reason to stop: "I'm absolutely wiped", "estoy muerta de sueño",
        /// "je suis lessivé", "ich bin total kaputt", "頭が回らない". Only at the end of its clause:
        /// "tired of the dark colours", "müde von den Diskussionen" are about something else.
        case wornOut
        /// "I'll come back to this", "on reprend ça ce soir", "lo seguimos otro día", "また今度".
        case postponing
        /// Words that join a reason to the rest of its clause without a comma ("ので", "から"): in
        /// "お客さんが来たので失礼します" what follows the reason takes leave. Empty where a comma sets
        /// the reason off: "so we can continue tomorrow" is as often a plan.
        case reasonLinks

        // Taking leave of the talk in a clause of its own (see `LeaveTaking`): the clause is made
        // only of closed-class words around its core, so content ("we'll continue with the garden
        // in May") never is one.
        /// Going on with this talk another time: "we'll continue", "talk soon", "reden … weiter",
        /// "lo seguimos", "on en reparle", "続き". The core of "we'll continue some other time".
        case continuations
        /// When: "later", "tomorrow", "another time", "for today", "mañana", "今日は", "次回".
        case timeFrames
        /// Short closing words that take a time frame ("das gewesen sein", "ya vale", "これで"):
        /// "für heute soll's das gewesen sein", "por hoy ya vale", "今日のところはこれで".
        case closers
        /// Closing the talk now, on its own: "bye for now", "tschüss", "à bientôt", "では、また",
        /// "let's wrap this up", "lass uns das beenden". A core of `LeaveTaking`.
        case farewells
        /// Saying one has said it all, in one's own words: "I've said what I wanted to say", "ich
        /// habe … gesagt … was ich sagen wollte", "j'ai fait le tour", "言いたいこと … 言え". A core
        /// of `LeaveTaking`, so content around it ("I said everything about the price") is not one.
        case saidEnough
        // Constructions (see `Construction`): a few word classes that combine, so one list of
        // each covers every phrasing built from them.
        /// A suggestion or permission frame before (or, in Japanese, after) a stop verb: "we can",
        /// "können wir", "ya podemos", "on peut", "てください".
        case stopFrames
        /// Stopping the talk: "stop", "end the session", "aufhören", "terminar", "s'arrêter", "終わりにし".
        case stopVerbs
        /// A later day, beyond this talk: "another day", "ein andermal", "otro día", "à demain",
        /// "日を改めて". With a `continuations` verb it puts the talk off ("come back to this another day").
        case laterDays
        /// Saying or covering, with `wantedThings`: "covers", "gesagt", "he contado", "dit", "言え".
        case saidVerbs
        /// What one wanted to say: "what i wanted to get down", "was ich loswerden wollte", "lo que
        /// quería contar", "ce que j'avais sur le cœur", "話したかったこと".
        case wantedThings
        /// Not being able to go on now, beside being worn out: "not in it", "nichts … mehr", "para
        /// más", "plus de jus", "無理". Alone it is content ("I can't think of a name").
        case unableNow
        /// Having to, before (or in Japanese after) a verb of leaving: "i'll have to", "muss ich",
        /// "me tengo que", "il faut que j", "ないと".
        case mustFrames
        /// Leaving or turning to something else now: "dash", "take this", "rangehen", "colgar",
        /// "y aller", "行か".
        case leaveVerbs
        /// Pronouns, auxiliaries and particles that may stand between the parts ("let's", "wir",
        /// "lo", "on", "に", "して").
        case glue
        /// "Forget", "vergiss", "olvida", "oublie", "忘れて": with `ownSpeech` in its sentence, a
        /// request to drop what was said ("forget I said any of that"); alone, content ("forget it,
        /// too expensive").
        case forgetVerbs
        /// The person's own words as an object: "i said", "ich … gesagt", "lo que te he contado",
        /// "ce que j'ai dit", "さっきの話".
        case ownSpeech
        /// Verbs that report speech ("she said", "er hat geschrien", "dijo", "a crié", "と言"):
        /// before a colon, or starting the next clause, they make the words quoted content.
        case reportingVerbs
        /// Names for the program used as a vocative ("Assistant, …", "アシスタントさん、…"): a clause
        /// that only addresses it starts an instruction-like line.
        case addressees

        /// Words that start an instruction-like line ("ignore the above", "[system]", "consigne"):
        /// from there on the answer is user data, never an ending or a gate.
        case instructionCues
        /// Words that make a clause reported content when it starts with one ("que lo dejamos",
        /// "dass Schluss ist"): such a clause never ends the exchange.
        case complementizers
        /// Time words and past forms that put a meeting behind the person ("last spring", "hier",
        /// "he tenido", "でした"): in the same clause, the meeting opens no meeting angles.
        case pastTime
        /// "But that's not the point": a sentence that sets its topic aside, meetings included.
        case besideThePoint
        /// Words that open a condition ("if", "si", "wenn", "もし"): a clause that starts with one
        /// never refuses ("Si tu l'enregistres pas, tu perds tout"); it says what would happen.
        case conditionals

        // The end of a turn by meaning (`TurnCompletion`): an answer that stops on one of these at
        // a pause is not finished, so the listener keeps waiting instead of cutting the person off.
        /// Words that leave their sentence open when it stops on them: conjunctions, articles,
        /// particles ("and", "because", "weil", "parce que", "porque", "けど", "て", "が"). Only
        /// words that almost never end a finished sentence: "so" and "that" do ("I think so").
        case trailingConnectives
        /// Sounds a person makes while finding the next word ("um", "äh", "euh", "este", "えーと"):
        /// an answer that stops on one is still being thought.
        case filledPauses
    }

    /// Every list by name: from the language's file, or English's where the file lacks it.
    public var lists: [Name: [String]]
    /// Per angle (a `QuestionChoice` name), words suggesting an answer already covers it.
    public var angleCues: [String: [String]]
    /// Whether a negation stands after the verb it negates (Japanese "保存しないで"), so that one
    /// before a record verb negates another verb ("一個も消さないで全部保存する": saves all,
    /// deleting nothing). Elsewhere it may stand on either side ("don't record", "nimm das nicht auf").
    public var negationFollowsVerb: Bool

    public init(lists: [Name: [String]], angleCues: [String: [String]] = [:], negationFollowsVerb: Bool = false) {
        self.lists = lists
        self.angleCues = angleCues
        self.negationFollowsVerb = negationFollowsVerb
    }

    /// One list; empty when neither the file nor English has it.
    public subscript(_ name: Name) -> [String] { lists[name] ?? [] }
}
