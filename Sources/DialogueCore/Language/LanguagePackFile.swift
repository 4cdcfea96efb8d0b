import Foundation

/// A locale file as written: every key optional, so a file can be incomplete and English
/// fills the gaps. `resolve` turns it into a `LanguagePack`.
struct LanguagePackFile: Decodable, Sendable {
    var language: Language?
    var name: String?
    var voice: String?
    var voiceSample: String?
    var whisperLanguage: String?
    /// Never taken from English: a calibration on this language's speech (none: 0).
    var turnThresholdShift: Double?
    var opening: SpokenText?
    var questions: [String: SpokenText]?
    var closing: [String: SpokenText]?
    var noteTitle: String?
    var noteDate: String?
    var ui: [String: String]?
    var phrases: PhrasesFile?
    var dates: DatePatterns?
    var actionCues: ActionCues.Patterns?
    var people: PeoplePatterns?
    /// Optional and never taken from English: a demo must speak the file's own language.
    var demo: DemoFile?

    /// `phrases` as written: the lists it has (`Phrases.Name`), and the names it has that are none.
    struct PhrasesFile: Decodable, Sendable {
        var lists: [Phrases.Name: [String]] = [:]
        var angleCues: [String: [String]]?
        /// A property of the language, not a phrase: never taken from English.
        var negationFollowsVerb: Bool?
        var unknownNames: [String] = []

        struct Key: CodingKey {
            let stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            for key in container.allKeys {
                switch key.stringValue {
                case "angleCues": angleCues = try container.decodeIfPresent([String: [String]].self, forKey: key)
                case "negationFollowsVerb": negationFollowsVerb = try container.decodeIfPresent(Bool.self, forKey: key)
                default:
                    guard let name = Phrases.Name(rawValue: key.stringValue) else { unknownNames.append(key.stringValue); continue }
                    lists[name] = try container.decodeIfPresent([String].self, forKey: key)
                }
            }
        }
    }

    struct DemoFile: Decodable, Sendable {
        var answers: [SpokenText]?
        /// Keyed by question name: the answer to that question (`DemoScript`).
        var byQuestion: [String: SpokenText]?
    }

    /// Problems that make the file wrong rather than merely incomplete: names that are not
    /// cases or lists (a typo would otherwise silently fall back to English).
    func unknownNames() -> [String] {
        let questionNames = Set(QuestionChoice.questions.map(\.rawValue))
        let closingNames = Set(QuestionChoice.finals.map(\.rawValue))
        let angleNames = Set(QuestionChoice.questions.map(\.rawValue))
        var unknown: [String] = []
        unknown += (questions ?? [:]).keys.filter { !questionNames.contains($0) }.map { "questions.\($0)" }
        unknown += (closing ?? [:]).keys.filter { !closingNames.contains($0) }.map { "closing.\($0)" }
        unknown += (phrases?.unknownNames ?? []).map { "phrases.\($0)" }
        unknown += (phrases?.angleCues ?? [:]).keys.filter { !angleNames.contains($0) }.map { "phrases.angleCues.\($0)" }
        unknown += (demo?.byQuestion ?? [:]).keys.filter { !questionNames.contains($0) }.map { "demo.byQuestion.\($0)" }
        return unknown.sorted()
    }

    /// Why a file and English together make no pack.
    enum Problem: Error {
        /// Keys neither has.
        case missingKeys([String])
        /// A pattern that is no regular expression, and whether it came from English.
        case invalidPattern(InvalidPattern, fromEnglish: Bool)
    }

    /// Every key with its value taken from this file or, failing that, from `english`.
    func resolve(language: Language, english: LanguagePackFile) throws(Problem) -> LanguagePack {
        var keys = Picked()
        let questionLines = keys.lines(QuestionChoice.questions, "questions", questions, english.questions)
        let closingLines = keys.lines(QuestionChoice.finals, "closing", closing, english.closing)
        var uiStrings: [String: String] = [:]
        for key in Set((english.ui ?? [:]).keys).union(UIKey.allCases.map(\.rawValue)).sorted() {
            uiStrings[key] = keys.pick("ui.\(key)", ui?[key], english.ui?[key])
        }
        let phraseLists = resolvePhrases(english: english, &keys)
        let (dateRules, cues, people) = try resolvePatterns(language: language, english: english, phrases: phraseLists, &keys)
        let pack = LanguagePack(
            language: language,
            name: keys.pick("name", name, english.name) ?? language.code,
            voice: keys.pick("voice", voice, english.voice) ?? language.code,
            voiceSample: keys.pick("voiceSample", voiceSample, english.voiceSample) ?? "",
            whisperLanguage: keys.pick("whisperLanguage", whisperLanguage, english.whisperLanguage) ?? language.code,
            turnThresholdShift: turnThresholdShift ?? 0,
            opening: keys.pick("opening", opening, english.opening) ?? SpokenText(text: ""),
            questions: questionLines,
            closings: closingLines,
            noteTitle: keys.pick("noteTitle", noteTitle, english.noteTitle) ?? "{date}",
            noteDate: keys.pick("noteDate", noteDate, english.noteDate) ?? "{year}-{mm}-{dd}",
            ui: uiStrings,
            phrases: phraseLists,
            dates: dateRules,
            actionCues: cues,
            people: people,
            demo: DemoScript(answers: demo?.answers ?? [],
                             byQuestion: Dictionary(uniqueKeysWithValues: (demo?.byQuestion ?? [:]).compactMap { name, answer in
                                 QuestionChoice(rawValue: name).map { ($0, answer) }
                             })),
            keysFromEnglish: keys.fromEnglish)
        guard keys.missing.isEmpty else { throw .missingKeys(keys.missing) }
        return pack
    }

    /// The keys resolved so far that came from English, and those English lacks too.
    struct Picked {
        var fromEnglish: [String] = []
        var missing: [String] = []

        /// The file's own value, else English's (noted).
        mutating func pick<T>(_ key: String, _ own: T?, _ fallback: T?) -> T? {
            if let own { return own }
            fromEnglish.append(key)
            if fallback == nil { missing.append(key) }
            return fallback
        }

        /// The spoken lines of `choices` in the section `section`.
        mutating func lines(_ choices: [QuestionChoice], _ section: String, _ own: [String: SpokenText]?,
                            _ fallback: [String: SpokenText]?) -> [QuestionChoice: SpokenText] {
            var lines: [QuestionChoice: SpokenText] = [:]
            for choice in choices {
                lines[choice] = pick("\(section).\(choice.rawValue)", own?[choice.rawValue], fallback?[choice.rawValue])
            }
            return lines
        }
    }

    /// The phrase lists and angle cues; a list neither file has is empty.
    func resolvePhrases(english: LanguagePackFile, _ keys: inout Picked) -> Phrases {
        var angleCues: [String: [String]] = [:]
        for name in Set((english.phrases?.angleCues ?? [:]).keys).union((phrases?.angleCues ?? [:]).keys).sorted() {
            angleCues[name] = keys.pick("phrases.angleCues.\(name)", phrases?.angleCues?[name],
                                        english.phrases?.angleCues?[name]) ?? []
        }
        var lists: [Phrases.Name: [String]] = [:]
        for name in Phrases.Name.allCases {
            lists[name] = keys.pick("phrases.\(name.rawValue)", phrases?.lists[name], english.phrases?.lists[name]) ?? []
        }
        return Phrases(lists: lists, angleCues: angleCues, negationFollowsVerb: phrases?.negationFollowsVerb ?? false)
    }

    /// The date, action-cue and people patterns, compiled; an invalid one says which file it
    /// came from. The words of the phrase lists are common words, no names.
    func resolvePatterns(language: Language, english: LanguagePackFile, phrases: Phrases,
                         _ keys: inout Picked) throws(Problem) -> (DateRules, ActionCues, PeopleFinder) {
        var dateRules = DateRules.none, cues = ActionCues.none, finder = PeopleFinder.none
        do {
            if let patterns = keys.pick("dates", dates, english.dates) { dateRules = try DateRules(patterns, language: language) }
        } catch { throw .invalidPattern(error, fromEnglish: dates == nil) }
        do {
            if let patterns = keys.pick("actionCues", actionCues, english.actionCues) { cues = try ActionCues(patterns) }
        } catch { throw .invalidPattern(error, fromEnglish: actionCues == nil) }
        do {
            if let patterns = keys.pick("people", people, english.people) {
                let (months, weekdays) = DateRules.names(language)
                let common = Phrases.Name.allCases.flatMap { phrases[$0] }.flatMap { $0.split(whereSeparator: { !$0.isLetter }).map(String.init) }
                finder = try PeopleFinder(patterns, calendarWords: months + weekdays, commonWords: common)
            }
        } catch { throw .invalidPattern(error, fromEnglish: people == nil) }
        return (dateRules, cues, finder)
    }
}
