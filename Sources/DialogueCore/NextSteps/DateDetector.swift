import Foundation

/// Finds the first date or time a sentence names and resolves it against the day the note was
/// made: "tomorrow", weekday names, "next week", numeric and written dates, clock times, with
/// the patterns of the note's language (`DatePatterns`). Foundation's `NSDataDetector` does not
/// exist on Linux, hence our own patterns. The rules, so the same words always give the same day:
/// * a weekday alone is its next occurrence after the note's day (the same weekday: a week on);
///   with "next" ("next Friday", "el próximo viernes", "vendredi prochain", "nächsten Freitag",
///   "来週の金曜日") it is that weekday of the following week (weeks start on Monday);
/// * "next week" is its Monday, "next month" its first day, "the weekend" the coming Saturday;
/// * a date without a year is the next one on or after the note's day;
/// * a time alone is on the note's day ("2026-12-02T15:00"); with a date, on that date.
public struct DateDetector: Sendable {
    let rules: DateRules
    let created: Date
    let calendar: Calendar

    /// For a note in `language`, with that language's patterns as the standard search finds its
    /// file (`LanguagePackLoader.standardPack`); a language without one names no dates.
    public init(language: Language, created: Date, timeZone: TimeZone) {
        self.init(rules: LanguagePackLoader.standardPack(language)?.dates ?? .none, created: created, timeZone: timeZone)
    }

    public init(rules: DateRules, created: Date, timeZone: TimeZone) {
        self.rules = rules
        self.created = created
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.firstWeekday = 2
        self.calendar = calendar
    }

    /// "2026-12-04" or "2026-12-04T15:00"; nil when the sentence names no date or time.
    public func date(in sentence: String) -> String? {
        let text = sentence.lowercased().replacingOccurrences(of: "’", with: "'")
        let day = firstDay(in: text)
        let time = rules.time(in: text)
        guard day != nil || time != nil else { return nil }
        let resolved = day ?? calendar.startOfDay(for: created)
        let c = calendar.dateComponents([.year, .month, .day], from: resolved)
        let date = String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
        guard let time else { return date }
        return date + String(format: "T%02d:%02d", time.hour, time.minute)
    }

    // MARK: Days

    /// The day of the earliest match; on a tie, the earlier rule's.
    private func firstDay(in text: String) -> Date? {
        var best: (offset: Int, date: Date)?
        for rule in rules.days {
            for match in rule.regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let date = day(rule.meaning, DateRules.Groups(match, text)) else { continue }
                if best == nil || match.range.location < best!.offset { best = (match.range.location, date) }
                break
            }
        }
        return best?.date
    }

    private func day(_ meaning: DateRules.Meaning, _ g: DateRules.Groups) -> Date? {
        switch meaning {
        case .days(let days):
            return adding(days: days)
        case .weekday(let fixed, let nextWeek):
            return (fixed ?? rules.weekday(in: g)).map { next(weekday: $0, nextWeek: nextWeek) }
        case .nextMonth:
            return nextMonth()
        case .written(let written):
            guard let day = g.number(written.day), let month = g.number(written.month) ?? rules.month(named: g[written.month])
            else { return nil }
            return date(month: month, day: day, year: written.year.flatMap(g.number))
        }
    }

    var today: Date { calendar.startOfDay(for: created) }

    func adding(days: Int) -> Date { calendar.date(byAdding: .day, value: days, to: today)! }

    /// `weekday` 1 = Monday … 7 = Sunday.
    func next(weekday: Int, nextWeek: Bool) -> Date {
        let current = (calendar.component(.weekday, from: today) + 5) % 7 + 1
        if nextWeek { return adding(days: 7 - current + weekday) }
        let ahead = (weekday - current + 7) % 7
        return adding(days: ahead == 0 ? 7 : ahead)
    }

    func nextMonth() -> Date {
        let c = calendar.dateComponents([.year, .month], from: today)
        let first = calendar.date(from: DateComponents(year: c.year, month: c.month, day: 1))!
        return calendar.date(byAdding: .month, value: 1, to: first)!
    }

    /// The next `month`/`day` on or after the note's day, or in `year` when given.
    func date(month: Int, day: Int, year: Int? = nil) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        func make(_ year: Int) -> Date? {
            // Not rolled over: "31/11" is no date.
            calendar.date(from: DateComponents(year: year, month: month, day: day))
                .flatMap { calendar.component(.day, from: $0) == day ? $0 : nil }
        }
        if let year { return make(year < 100 ? 2000 + year : year) }
        let thisYear = calendar.component(.year, from: today)
        guard let date = make(thisYear) else { return nil }
        return date < today ? make(thisYear + 1) : date
    }
}
