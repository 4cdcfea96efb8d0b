import Foundation

/// Everything one interface language needs: the reviewed lines the user hears and reads, the
/// generic note title, the CLI's strings and the phrase lists of the rules. Built from
/// `Locales/<code>.json` with English filling any key the file lacks.
public struct LanguagePack: Sendable {
    /// Which language: its code is the name of its file.
    public let language: Language
    /// The language's own name ("日本語").
    public let name: String
    /// espeak-ng voice name.
    public let voice: String
    /// A short text the voice must be able to say: `doctor` renders it to prove the voice works.
    public let voiceSample: String
    /// whisper.cpp language code.
    public let whisperLanguage: String
    /// Added to the completion threshold of the adaptive wait (`AdaptiveWait.shifted(by:)`):
    /// whisper is surer of its final mark in some languages than in others. Calibrated on the
    /// dev part of the turn-taking set as heard (`eval turns`): the lowest threshold that cuts
    /// no larger share of the language's keep-listening silences than all languages at the
    /// default 0.7 (13 %). 0 where there is too little dev speech to calibrate (ja, de).
    public let turnThresholdShift: Double
    public let opening: SpokenText
    /// One line per non-final case.
    public let questions: [QuestionChoice: SpokenText]
    /// The closing line for `ready` and for `stop`.
    public let closings: [QuestionChoice: SpokenText]
    /// Generic note title with a `{date}` placeholder.
    public let noteTitle: String
    /// How `{date}` is written: placeholders `{year}`, `{month}`, `{day}` (unpadded),
    /// `{mm}`, `{dd}` (two digits).
    public let noteDate: String
    public let ui: [String: String]
    public let phrases: Phrases
    /// How the language names days and times, compiled (`DateDetector`).
    public let dates: DateRules
    /// The words that make a sentence a next step, compiled.
    public let actionCues: ActionCues
    /// How the language marks a person's name, compiled.
    public let people: PeopleFinder
    /// The synthetic person of `dialogue-memo demo`. No answers when the file has none.
    public let demo: DemoScript
    /// The demo's fixed answers: the idea, follow-ups, the ending phrase last.
    public var demoAnswers: [SpokenText] { demo.answers }
    /// Keys this language's file lacked and took from English (empty for a complete file).
    public let keysFromEnglish: [String]

    public init(language: Language, name: String, voice: String, voiceSample: String, whisperLanguage: String,
                turnThresholdShift: Double = 0, opening: SpokenText, questions: [QuestionChoice: SpokenText],
                closings: [QuestionChoice: SpokenText], noteTitle: String, noteDate: String,
                ui: [String: String], phrases: Phrases, dates: DateRules = .none, actionCues: ActionCues = .none,
                people: PeopleFinder = .none, demo: DemoScript = DemoScript(answers: []), keysFromEnglish: [String] = []) {
        self.language = language
        self.name = name
        self.voice = voice
        self.voiceSample = voiceSample
        self.whisperLanguage = whisperLanguage
        self.turnThresholdShift = turnThresholdShift
        self.opening = opening
        self.questions = questions
        self.closings = closings
        self.noteTitle = noteTitle
        self.noteDate = noteDate
        self.ui = ui
        self.phrases = phrases
        self.dates = dates
        self.actionCues = actionCues
        self.people = people
        self.demo = demo
        self.keysFromEnglish = keysFromEnglish
    }

    /// The line for a chosen case: its question, or the closing line for `ready`/`stop`.
    public func line(for choice: QuestionChoice) -> SpokenText {
        (choice.isFinal ? closings[choice] : questions[choice]) ?? SpokenText(text: choice.rawValue)
    }

    /// The prompt the user hears for a turn: the opening, or the chosen case's line.
    public func prompt(for question: TurnQuestion) -> SpokenText {
        switch question {
        case .opening: opening
        case .choice(let choice): line(for: choice)
        }
    }

    /// A CLI string with its placeholders filled.
    public func ui(_ key: UIKey, _ values: [String: String] = [:]) -> String {
        Placeholders.fill(ui[key.rawValue] ?? key.rawValue, values)
    }

    /// The title used when the first sentence cannot be one: "Memo from 2025-11-29".
    public func genericTitle(created: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: created)
        let year = parts.year ?? 1970, month = parts.month ?? 1, day = parts.day ?? 1
        let date = Placeholders.fill(noteDate, [
            "year": String(year), "month": String(month), "day": String(day),
            "mm": twoDigits(month), "dd": twoDigits(day),
        ])
        return Placeholders.fill(noteTitle, ["date": date])
    }

    private func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}
