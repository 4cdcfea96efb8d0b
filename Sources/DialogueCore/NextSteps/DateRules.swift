import Foundation

/// A language's `DatePatterns`, compiled once per language pack: the rules `DateDetector` runs.
/// Each day rule says what its match means; the detector resolves it against the note's day.
public struct DateRules: @unchecked Sendable {
    enum Meaning {
        case days(Int)
        /// A weekday (1 = Monday), fixed or the one the match names; of the following week or the next.
        case weekday(Int?, nextWeek: Bool)
        case nextMonth
        case written(DatePatterns.WrittenDate)
    }

    struct DayRule {
        let regex: NSRegularExpression
        let meaning: Meaning
    }

    struct TimeRule {
        let regex: NSRegularExpression
        let pattern: DatePatterns.TimePattern
    }

    /// In order: on a tie the earlier rule wins.
    let days: [DayRule]
    let times: [TimeRule]
    /// As ICU spells them in the language, lowercased: months January first, weekdays Monday first.
    let months: [String]
    let weekdays: [String]
    /// Whether the language separates words by spaces (`DatePatterns.spaced`).
    public let spaced: Bool

    /// No rules: a language without a pack names no dates.
    public static let none = DateRules(days: [], times: [], months: [], weekdays: [])

    /// ISO 8601 ("2026-12-04") reads the same in every language, so it is not in the files.
    static let iso = DatePatterns.WrittenDate(pattern: #"\b(\d{4})-(\d{1,2})-(\d{1,2})\b"#, day: 3, month: 2, year: 1)

    init(days: [DayRule], times: [TimeRule], months: [String], weekdays: [String], spaced: Bool = true) {
        (self.days, self.times, self.months, self.weekdays, self.spaced) = (days, times, months, weekdays, spaced)
    }

    /// `patterns` for `language`, whose month and weekday names come from ICU. Throws the first
    /// pattern that is no regular expression, with its key under `dates`.
    public init(_ patterns: DatePatterns, language: Language) throws(InvalidPattern) {
        let (months, weekdays) = Self.names(language)
        let edge = patterns.spaced ? #"\b"# : ""
        let weekday = Self.alternatives(weekdays)
        let month = Self.alternatives(months + months.map { String($0.prefix(3)) })
        func rule(_ key: String, _ pattern: String, _ meaning: Meaning) throws(InvalidPattern) -> DayRule {
            let filled = pattern.replacingOccurrences(of: "{weekday}", with: weekday).replacingOccurrences(of: "{month}", with: month)
            do {
                return DayRule(regex: try .languagePattern(edge + filled + edge, key: "dates." + key), meaning: meaning)
            } catch {
                throw InvalidPattern(key: "dates." + key, pattern: pattern)   // as the file writes it
            }
        }
        func rules(_ key: String, _ list: [String], _ meaning: Meaning) throws(InvalidPattern) -> [DayRule] {
            var rules: [DayRule] = []
            for (index, pattern) in list.enumerated() { rules.append(try rule("\(key).\(index)", pattern, meaning)) }
            return rules
        }
        var days = [DayRule(regex: try! .languagePattern(Self.iso.pattern, key: "iso"), meaning: .written(Self.iso))]
        for (index, relative) in patterns.relativeDays.enumerated() {
            days.append(try rule("relativeDays.\(index).pattern", relative.pattern, .days(relative.days)))
        }
        days += try rules("nextWeekday", patterns.nextWeekday, .weekday(nil, nextWeek: true))
        days += try rules("nextWeek", patterns.nextWeek, .weekday(1, nextWeek: true))
        days += try rules("nextMonth", patterns.nextMonth, .nextMonth)
        days += try rules("weekend", patterns.weekend, .weekday(6, nextWeek: false))
        days.append(try rule("weekday", "{weekday}", .weekday(nil, nextWeek: false)))
        for (index, written) in patterns.writtenDates.enumerated() {
            days.append(try rule("writtenDates.\(index).pattern", written.pattern, .written(written)))
        }
        var times: [TimeRule] = []
        for (index, time) in patterns.times.enumerated() {
            times.append(TimeRule(regex: try .languagePattern(time.pattern, key: "dates.times.\(index).pattern"), pattern: time))
        }
        self.init(days: days, times: times, months: months, weekdays: weekdays, spaced: patterns.spaced)
    }

    /// Month and weekday names of a language as Foundation (ICU) spells them, lowercased:
    /// months January first, weekdays Monday first.
    static func names(_ language: Language) -> (months: [String], weekdays: [String]) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: language.code)
        let months = formatter.monthSymbols.map { $0.lowercased() }
        let sundayFirst = formatter.weekdaySymbols.map { $0.lowercased() }
        return (months, Array(sundayFirst.dropFirst()) + sundayFirst.prefix(1))
    }

    static func alternatives(_ words: [String]) -> String {
        "(" + words.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|") + ")"
    }

    /// The weekday (1 = Monday) a match names: its first group that is a weekday name.
    func weekday(in g: Groups) -> Int? {
        g.values.dropFirst().lazy.compactMap { name in name.flatMap { weekdays.firstIndex(of: $0) } }.first.map { $0 + 1 }
    }

    /// A month by its name or the first letters of it (1 = January).
    func month(named name: String?) -> Int? {
        guard let name else { return nil }
        return (months.firstIndex(of: name) ?? months.firstIndex { $0.hasPrefix(name) }).map { $0 + 1 }
    }

    /// "15:30", "3 pm", "a las 10", "15h", "um 15 Uhr", "午後3時半": the first time rule whose
    /// first match gives a valid time.
    func time(in text: String) -> (hour: Int, minute: Int)? {
        for rule in times {
            guard let match = rule.regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                  let time = Self.time(rule.pattern, Groups(match, text)), (0...23).contains(time.hour), (0...59).contains(time.minute)
            else { continue }
            return time
        }
        return nil
    }

    static func time(_ pattern: DatePatterns.TimePattern, _ g: Groups) -> (hour: Int, minute: Int)? {
        guard var hour = g.number(pattern.hour) else { return nil }
        if pattern.twelveHour == true {
            guard (1...12).contains(hour) else { return nil }
            hour %= 12
        }
        if let pm = pattern.pm, g[pm.group] == pm.text, hour < 12 { hour += 12 }
        if let half = pattern.half, g[half.group] == half.text { return (hour, 30) }
        return (hour, pattern.minute.flatMap(g.number) ?? 0)
    }

    /// The text of each group of a match (0: the whole match), nil where a group took no part.
    struct Groups {
        let values: [String?]
        init(_ match: NSTextCheckingResult, _ text: String) {
            values = (0..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) }
            }
        }
        subscript(_ index: Int) -> String? { index < values.count ? values[index] : nil }
        func number(_ index: Int) -> Int? { self[index].flatMap { Int($0) } }
    }
}
