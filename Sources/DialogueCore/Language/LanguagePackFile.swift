import Foundation

/// A locale file as written: every key optional, so a file can be incomplete and English
/// fills the gaps. `resolve` turns it into a `LanguagePack`.
struct LanguagePackFile: Decodable, Sendable {
    var language: String?
    var name: String?
    var voice: String?
    var whisperLanguage: String?
    var opening: SpokenText?
    var questions: [String: SpokenText]?
    var closing: [String: SpokenText]?
    var noteTitle: String?
    var noteDate: String?
    var ui: [String: String]?
    var phrases: PhrasesFile?
    /// Optional and never taken from English: a demo must speak the file's own language.
    var demo: DemoFile?

    struct PhrasesFile: Decodable, Sendable {
        var endings, interruptions, refusals, refusalCoversAll, fillers, endingTails, particles, negatives: [String]?
        var hesitations, productIdea, indefiniteArticles, meeting, habitual, reflection, planning: [String]?
        var recordVerbs, recordPlaces, negations, talkDeixis, secrecy, removalVerbs, leavingNow, wornOut, postponing: [String]?
        var continuations, farewells, saidEnough, timeFrames, closers, glue, addressees, forgetVerbs, ownSpeech, reportingVerbs: [String]?
        var instructionCues, complementizers, pastTime, besideThePoint, conditionals, trailingConnectives, filledPauses: [String]?
        var otherAgents, passiveMarkers, reasonLinks: [String]?
        var stopFrames, stopVerbs, laterDays, saidVerbs, wantedThings, unableNow, mustFrames, leaveVerbs: [String]?
        var angleCues: [String: [String]]?
        /// A property of the language, not a phrase: never taken from English.
        var negationFollowsVerb: Bool?
    }

    struct DemoFile: Decodable, Sendable {
        var answers: [SpokenText]?
        /// Keyed by question name: the answer to that question (`DemoScript`).
        var byQuestion: [String: SpokenText]?
    }

    /// Problems that make the file wrong rather than merely incomplete: names that are not
    /// cases (a typo would otherwise silently fall back to English).
    func unknownNames() -> [String] {
        let questionNames = Set(QuestionChoice.questions.map(\.rawValue))
        let closingNames = Set(QuestionChoice.finals.map(\.rawValue))
        let angleNames = Set(QuestionChoice.questions.map(\.rawValue))
        var unknown: [String] = []
        unknown += (questions ?? [:]).keys.filter { !questionNames.contains($0) }.map { "questions.\($0)" }
        unknown += (closing ?? [:]).keys.filter { !closingNames.contains($0) }.map { "closing.\($0)" }
        unknown += (phrases?.angleCues ?? [:]).keys.filter { !angleNames.contains($0) }.map { "phrases.angleCues.\($0)" }
        unknown += (demo?.byQuestion ?? [:]).keys.filter { !questionNames.contains($0) }.map { "demo.byQuestion.\($0)" }
        return unknown.sorted()
    }

    /// Every key with its value taken from this file or, failing that, from `english`.
    /// Returns nil with the missing key names when even English lacks a key.
    func resolve(code: String, english: LanguagePackFile) -> Result<LanguagePack, MissingKeys> {
        var fromEnglish: [String] = []
        var missing: [String] = []
        func pick<T>(_ key: String, _ own: T?, _ fallback: T?) -> T? {
            if let own { return own }
            fromEnglish.append(key)
            if fallback == nil { missing.append(key) }
            return fallback
        }
        func pickList(_ key: String, _ path: KeyPath<PhrasesFile, [String]?>) -> [String] {
            pick("phrases.\(key)", phrases?[keyPath: path], english.phrases?[keyPath: path]) ?? []
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
        var cues: [String: [String]] = [:]
        for name in Set((english.phrases?.angleCues ?? [:]).keys).union((phrases?.angleCues ?? [:]).keys).sorted() {
            cues[name] = pick("phrases.angleCues.\(name)", phrases?.angleCues?[name],
                              english.phrases?.angleCues?[name]) ?? []
        }
        let phraseLists = Phrases(
            endings: pickList("endings", \.endings),
            interruptions: pickList("interruptions", \.interruptions),
            refusals: pickList("refusals", \.refusals),
            refusalCoversAll: pickList("refusalCoversAll", \.refusalCoversAll),
            fillers: pickList("fillers", \.fillers),
            endingTails: pickList("endingTails", \.endingTails),
            particles: pickList("particles", \.particles),
            negatives: pickList("negatives", \.negatives),
            hesitations: pickList("hesitations", \.hesitations),
            productIdea: pickList("productIdea", \.productIdea),
            indefiniteArticles: pickList("indefiniteArticles", \.indefiniteArticles),
            meeting: pickList("meeting", \.meeting),
            habitual: pickList("habitual", \.habitual),
            reflection: pickList("reflection", \.reflection),
            planning: pickList("planning", \.planning),
            angleCues: cues,
            recordVerbs: pickList("recordVerbs", \.recordVerbs),
            recordPlaces: pickList("recordPlaces", \.recordPlaces),
            negations: pickList("negations", \.negations),
            talkDeixis: pickList("talkDeixis", \.talkDeixis),
            secrecy: pickList("secrecy", \.secrecy),
            removalVerbs: pickList("removalVerbs", \.removalVerbs),
            otherAgents: pickList("otherAgents", \.otherAgents),
            passiveMarkers: pickList("passiveMarkers", \.passiveMarkers),
            leavingNow: pickList("leavingNow", \.leavingNow),
            wornOut: pickList("wornOut", \.wornOut),
            postponing: pickList("postponing", \.postponing),
            reasonLinks: pickList("reasonLinks", \.reasonLinks),
            continuations: pickList("continuations", \.continuations),
            timeFrames: pickList("timeFrames", \.timeFrames),
            closers: pickList("closers", \.closers),
            farewells: pickList("farewells", \.farewells),
            saidEnough: pickList("saidEnough", \.saidEnough),
            stopFrames: pickList("stopFrames", \.stopFrames),
            stopVerbs: pickList("stopVerbs", \.stopVerbs),
            laterDays: pickList("laterDays", \.laterDays),
            saidVerbs: pickList("saidVerbs", \.saidVerbs),
            wantedThings: pickList("wantedThings", \.wantedThings),
            unableNow: pickList("unableNow", \.unableNow),
            mustFrames: pickList("mustFrames", \.mustFrames),
            leaveVerbs: pickList("leaveVerbs", \.leaveVerbs),
            glue: pickList("glue", \.glue),
            forgetVerbs: pickList("forgetVerbs", \.forgetVerbs),
            ownSpeech: pickList("ownSpeech", \.ownSpeech),
            reportingVerbs: pickList("reportingVerbs", \.reportingVerbs),
            addressees: pickList("addressees", \.addressees),
            instructionCues: pickList("instructionCues", \.instructionCues),
            complementizers: pickList("complementizers", \.complementizers),
            pastTime: pickList("pastTime", \.pastTime),
            besideThePoint: pickList("besideThePoint", \.besideThePoint),
            conditionals: pickList("conditionals", \.conditionals),
            trailingConnectives: pickList("trailingConnectives", \.trailingConnectives),
            filledPauses: pickList("filledPauses", \.filledPauses),
            negationFollowsVerb: phrases?.negationFollowsVerb ?? false)

        let pack = LanguagePack(
            code: code,
            name: pick("name", name, english.name) ?? code,
            voice: pick("voice", voice, english.voice) ?? code,
            whisperLanguage: pick("whisperLanguage", whisperLanguage, english.whisperLanguage) ?? code,
            opening: pick("opening", opening, english.opening) ?? SpokenText(text: ""),
            questions: questionLines,
            closings: closingLines,
            noteTitle: pick("noteTitle", noteTitle, english.noteTitle) ?? "{date}",
            noteDate: pick("noteDate", noteDate, english.noteDate) ?? "{year}-{mm}-{dd}",
            ui: uiStrings,
            phrases: phraseLists,
            demo: DemoScript(answers: demo?.answers ?? [],
                             byQuestion: Dictionary(uniqueKeysWithValues: (demo?.byQuestion ?? [:]).compactMap { name, answer in
                                 QuestionChoice(rawValue: name).map { ($0, answer) }
                             })),
            keysFromEnglish: fromEnglish)
        return missing.isEmpty ? .success(pack) : .failure(MissingKeys(names: missing))
    }

    struct MissingKeys: Error { let names: [String] }
}
