import Foundation

/// A locale file as written: every key optional, so a file can be incomplete and English
/// fills the gaps. `resolve` turns it into a `LanguagePack`.
struct LanguagePackFile: Decodable, Sendable {
    var language: String?
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
    func resolve(code: String, english: LanguagePackFile) throws(Problem) -> LanguagePack {
        var fromEnglish: [String] = []
        var missing: [String] = []
        func pick<T>(_ key: String, _ own: T?, _ fallback: T?) -> T? {
            if let own { return own }
            fromEnglish.append(key)
            if fallback == nil { missing.append(key) }
            return fallback
        }

        var questionLines: [QuestionChoice: SpokenText] = [:]
        for choice in QuestionChoice.questions {
            questionLines[choice] = pick("questions.\(choice.rawValue)", questions?[choice.rawValue],
                                         english.questions?[choice.rawValue])
        }
        var closingLines: [QuestionChoice: SpokenText] = [:]
        for choice in QuestionChoice.finals {
            closingLines[choice] = pick("closing.\(choice.rawValue)", closing?[choice.rawValue],
                                        english.closing?[choice.rawValue])
        }
        var uiStrings: [String: String] = [:]
        for key in Set((english.ui ?? [:]).keys).union(UIKey.allCases.map(\.rawValue)).sorted() {
            uiStrings[key] = pick("ui.\(key)", ui?[key], english.ui?[key])
        }
        var angleCues: [String: [String]] = [:]
        for name in Set((english.phrases?.angleCues ?? [:]).keys).union((phrases?.angleCues ?? [:]).keys).sorted() {
            angleCues[name] = pick("phrases.angleCues.\(name)", phrases?.angleCues?[name],
                              english.phrases?.angleCues?[name]) ?? []
        }
        var lists: [Phrases.Name: [String]] = [:]
        for name in Phrases.Name.allCases {
            lists[name] = pick("phrases.\(name.rawValue)", phrases?.lists[name], english.phrases?.lists[name]) ?? []
        }
        let phraseLists = Phrases(lists: lists, angleCues: angleCues, negationFollowsVerb: phrases?.negationFollowsVerb ?? false)
        var dateRules = DateRules.none, cues = ActionCues.none
        do {
            if let patterns = pick("dates", dates, english.dates) { dateRules = try DateRules(patterns, language: code) }
        } catch { throw .invalidPattern(error, fromEnglish: dates == nil) }
        do {
            if let patterns = pick("actionCues", actionCues, english.actionCues) { cues = try ActionCues(patterns) }
        } catch { throw .invalidPattern(error, fromEnglish: actionCues == nil) }

        let pack = LanguagePack(
            code: code,
            name: pick("name", name, english.name) ?? code,
            voice: pick("voice", voice, english.voice) ?? code,
            voiceSample: pick("voiceSample", voiceSample, english.voiceSample) ?? "",
            whisperLanguage: pick("whisperLanguage", whisperLanguage, english.whisperLanguage) ?? code,
            turnThresholdShift: turnThresholdShift ?? 0,
            opening: pick("opening", opening, english.opening) ?? SpokenText(text: ""),
            questions: questionLines,
            closings: closingLines,
            noteTitle: pick("noteTitle", noteTitle, english.noteTitle) ?? "{date}",
            noteDate: pick("noteDate", noteDate, english.noteDate) ?? "{year}-{mm}-{dd}",
            ui: uiStrings,
            phrases: phraseLists,
            dates: dateRules,
            actionCues: cues,
            demo: DemoScript(answers: demo?.answers ?? [],
                             byQuestion: Dictionary(uniqueKeysWithValues: (demo?.byQuestion ?? [:]).compactMap { name, answer in
                                 QuestionChoice(rawValue: name).map { ($0, answer) }
                             })),
            keysFromEnglish: fromEnglish)
        guard missing.isEmpty else { throw .missingKeys(missing) }
        return pack
    }
}
