import Foundation
import Testing
@testable import DialogueCore

/// TEMPORARY: the cues, dates and times from the language files against the hard-coded tables
/// they replaced (`LegacyNextSteps.swift`), over every string of the labelled sets and generated
/// date and time phrases, in every language. Deleted with the old tables.
@Suite struct NextStepsEquivalenceTests {
    static let languages = ["en", "es", "fr", "de", "ja", "it", "xx"]

    static func fixtureStrings() throws -> [String] {
        var strings = Set<String>()
        func walk(_ value: Any) {
            if let dictionary = value as? [String: Any] { dictionary.values.forEach(walk) }
            else if let list = value as? [Any] { list.forEach(walk) }
            else if let string = value as? String { strings.insert(string) }
        }
        let folder = try Fixtures.fixture("action-scenarios.json").deletingLastPathComponent()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".json") {
            walk(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(name))))
        }
        return strings.sorted()
    }

    /// Random phrases from each language's date words, ICU names, numbers and clock forms.
    static func generated(_ language: String, count: Int) -> [String] {
        let (months, weekdays) = DateRules.names(language)
        let words: [String: [String]] = [
            "en": ["day after tomorrow", "tomorrow", "tonight", "today", "next", "week", "month", "this", "the", "weekend",
                   "by", "of", "on", "at", "pm", "am", "p.m.", "a.m.", "st", "nd", "th", "yesterday", "ago", "last week"],
            "es": ["pasado mañana", "mañana", "la mañana", "hoy", "esta noche", "próximo", "que viene", "la semana que viene",
                   "la próxima semana", "el mes que viene", "el próximo mes", "el fin de semana", "de", "a las", "el", "ayer"],
            "fr": ["après-demain", "demain", "aujourd'hui", "aujourd’hui", "ce soir", "prochain", "la semaine prochaine",
                   "le mois prochain", "ce week-end", "week-end", "h", "à", "le", "hier", "d'ici"],
            "de": ["übermorgen", "morgen", "am morgen", "guten morgen", "heute morgen", "morgens", "heute", "nächste",
                   "nächsten", "nächster", "woche", "nächste woche", "nächsten monat", "am wochenende", "dieses wochenende",
                   "uhr", "um", "bis", "zum", "gestern"],
            "ja": ["明後日", "明日", "今日", "今夜", "来週", "来週の", "来月", "週末", "年", "月", "日", "時", "分", "半", "午前", "午後",
                   "の", "に", "昨日", "予定"],
        ]
        let numbers = ["1", "3", "9", "10", "12", "13", "15", "24", "30", "31", "59", "60", "2026", "26", "０", "１２"]
        let joints = [" ", " ", " ", "/", ".", ":", "-", ", ", ". ", "h", ""]
        let bag = (words[language] ?? []) + months + months.map { String($0.prefix(3)) } + weekdays
            + weekdays.map { $0.capitalized } + numbers
        var random = SeededRandom(seed: UInt64(language.unicodeScalars.map(\.value).reduce(7, +)))
        return (0..<count).map { _ in
            var text = ""
            for index in 0..<Int.random(in: 1...6, using: &random) {
                if index > 0 { text += joints.randomElement(using: &random)! }
                text += bag.randomElement(using: &random)!
            }
            return Bool.random(using: &random) ? text.capitalized + "." : text
        }
    }

    static let days: [(Date, TimeZone)] = [
        (Date(timeIntervalSince1970: 1_764_633_600), TimeZone(identifier: "UTC")!),               // Tue 2025-12-02
        (Date(timeIntervalSince1970: 1_772_236_800), TimeZone(identifier: "Asia/Tokyo")!),        // 2026-02-28
        (Date(timeIntervalSince1970: 1_735_603_200), TimeZone(identifier: "America/Los_Angeles")!),
        (Date(timeIntervalSince1970: 1_749_945_600), TimeZone(identifier: "Europe/Berlin")!),
    ]

    func compare(_ sentences: [String], in languages: [String], days: ArraySlice<(Date, TimeZone)>) {
        for language in languages {
            var differences: [String] = []
            for sentence in sentences {
                let old = LegacyActionCues.score(sentence, language: language), new = ActionCues.score(sentence, language: language)
                if old != new { differences.append("cue \(old) → \(new): \(sentence)") }
                for (created, zone) in days {
                    let old = LegacyDateDetector(language: language, created: created, timeZone: zone).date(in: sentence)
                    let new = DateDetector(language: language, created: created, timeZone: zone).date(in: sentence)
                    if old != new { differences.append("date \(old ?? "-") → \(new ?? "-"): \(sentence)") }
                }
            }
            #expect(differences.isEmpty, "\(language): \(differences.count) differ, first: \(differences.prefix(10))")
        }
    }

    @Test func everyFixtureSentenceGivesTheSameCuesAndDates() throws {
        let sentences = try Self.fixtureStrings()
        #expect(sentences.count > 5000)
        compare(sentences, in: Self.languages, days: Self.days.prefix(2))
    }

    @Test func generatedDatesAndTimesGiveTheSameDays() {
        for language in Self.languages.prefix(5) {
            compare(Self.generated(language, count: 4000), in: [language], days: Self.days[...])
        }
    }
}
