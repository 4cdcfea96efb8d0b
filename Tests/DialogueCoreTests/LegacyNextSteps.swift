import Foundation
// TEMPORARY: the hard-coded tables before they moved into Locales/*.json, kept only to prove
// the data-driven rules give identical results (NextStepsEquivalenceTests). Deleted next.


/// A deterministic guess at whether a sentence is a next step, from the words people use for
/// one in each language: intention and obligation ("I'll", "need to", "voy a", "tengo que",
/// "je vais", "il faut", "werde", "muss", "予定", "〜しなければ"), a command at the start
/// ("Call the hotel…"), or a time still to come ("tomorrow", "el lunes", "bis Freitag",
/// "来週"); a time already past ("yesterday", "ayer", "gestern", "昨日") vetoes it. These are
/// patterns, not words shown to anyone, so they live here rather than in the locale files.
enum LegacyActionCues {
    /// 1 when the sentence reads as a next step, else 0 (a score, so it can weigh against the
    /// model's log-odds).
    public static func score(_ sentence: String, language: String) -> Double {
        guard let cues = table[language] else { return 0 }
        let text = sentence.replacingOccurrences(of: "’", with: "'")
        if let past = cues.past, matches(past, text) { return 0 }
        return cues.intent.contains { matches($0, text) } ? 1 : 0
    }

    private struct Cues: @unchecked Sendable {
        let intent: [NSRegularExpression]
        let past: NSRegularExpression?
    }

    private static func matches(_ pattern: NSRegularExpression, _ text: String) -> Bool {
        pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    private static func compile(_ patterns: [String], past: String?) -> Cues {
        func regex(_ pattern: String) -> NSRegularExpression {
            // The patterns are constants of this file; a typo is a programming error.
            try! NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
        }
        return Cues(intent: patterns.map(regex), past: past.map(regex))
    }

    private static let table: [String: Cues] = [
        "en": compile([
            #"\b(i'll|i will|we'll|we will|i'm going to|we're going to|(is|are) going to|need to|needs to|have to|has to|must|should|let's|will|want to|plan to)\b"#,
            // A command at the start, or after a leading time or condition ("Before Friday, send…").
            #"^([^,]{1,40}, )?(please )?(call|send|email|ask|book|check|write|buy|fix|schedule|remind|follow up|make sure|don't forget|remember to|bring|tell|prepare|update|share)\b"#,
            #"\b(tomorrow|tonight|next (week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|by (monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|the end of))\b"#,
        ], past: #"\b(yesterday|last (week|time|month|year)|ago)\b"#),
        "es": compile([
            #"\b(voy a|vamos a|va a|van a|tengo que|tenemos que|tiene que|tienen que|hay que|debo|debemos|quiero|queremos|me encargo|se encarga)\b"#,
            // A need is a step only when it is something to do, not something to have.
            #"\b(necesito|necesitamos|necesita|necesitan) \w+(ar|er|ir)\b"#,
            #"^(por favor, )?(escribe|llama|manda|envía|pregunta|reserva|compra|revisa|prepara|avisa|recuerda|no olvides)\b"#,
            #"\b(mañana|pasado mañana|esta semana|la semana que viene|la próxima semana|el (lunes|martes|miércoles|jueves|viernes|sábado|domingo)|hasta el|antes del)\b"#,
            #"\b\w+(aré|eré|iré|ará|erá|irá|aremos|eremos|iremos|arán|erán|irán)\b"#,
        ], past: #"\b(ayer|la semana pasada|el año pasado)\b"#),
        "fr": compile([
            #"\b(je vais|on va|nous allons|il faut|il faudra|je dois|nous devons|on doit|je compte|je veux|nous voulons|s'occupe|m'occupe|se charge|me charge)\b"#,
            #"\b(va|vont) \w+(er|ir|re)\b"#,
            #"\b(demain|après-demain|cette semaine|la semaine prochaine|ce week-end|(lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche) prochain|d'ici|avant (lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|la fin))\b"#,
            #"\b\w+(erai|irai|ferai|era|ira|erons|irons|eront|iront)\b"#,
        ], past: #"\b(hier|la veille|l'an dernier|la semaine dernière)\b"#),
        "de": compile([
            #"\b(werde|werden|wird|muss|müssen|soll|sollen|sollte|sollten|will|wollen|möchte|kümmert sich|kümmere mich)\b"#,
            #"\b(morgen|übermorgen|heute abend|nächste woche|nächsten (montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)|am (montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)|bis (montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|morgen|zum)|beim nächsten mal|am wochenende|dieses wochenende)\b"#,
        ], past: #"\b(gestern|letzte woche|früher)\b"#),
        "ja": compile([
            #"(予定|つもり|なければ|なきゃ|ないといけない|必要がある|必要です|てみよう|しよう|ましょう|べき|ことにした|ことにする)"#,
            #"(明日|明後日|来週|来月|今日中|今週中|週末に|までに|[月火水木金土日]曜日に)"#,
        ], past: #"(昨日|先週|去年|昔)"#),
    ]
}


/// Finds the first date or time a sentence names and resolves it against the day the note was
/// made: "tomorrow", weekday names, "next week", numeric and written dates, clock times, in the
/// five interface languages. Foundation's `NSDataDetector` does not exist on Linux, hence our
/// own patterns. The rules, so the same words always give the same day:
/// * a weekday alone is its next occurrence after the note's day (the same weekday: a week on);
///   with "next" ("next Friday", "el próximo viernes", "vendredi prochain", "nächsten Freitag",
///   "来週の金曜日") it is that weekday of the following week (weeks start on Monday);
/// * "next week" is its Monday, "next month" its first day, "the weekend" the coming Saturday;
/// * a date without a year is the next one on or after the note's day;
/// * a time alone is on the note's day ("2026-12-02T15:00"); with a date, on that date.
struct LegacyDateDetector: Sendable {
    public let language: String
    let created: Date
    let calendar: Calendar

    public init(language: String, created: Date, timeZone: TimeZone) {
        self.language = language
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
        let time = Self.time(in: text, language: language)
        guard day != nil || time != nil else { return nil }
        let resolved = day ?? calendar.startOfDay(for: created)
        let c = calendar.dateComponents([.year, .month, .day], from: resolved)
        let date = String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
        guard let time else { return date }
        return date + String(format: "T%02d:%02d", time.hour, time.minute)
    }

    // MARK: Days

    private func firstDay(in text: String) -> Date? {
        var best: (offset: Int, date: Date)?
        for rule in Self.rules(language) {
            for match in rule.regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let date = rule.resolve(Groups(match, text), self) else { continue }
                if best == nil || match.range.location < best!.offset { best = (match.range.location, date) }
                break
            }
        }
        return best?.date
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

    struct Rule: @unchecked Sendable {
        let regex: NSRegularExpression
        let resolve: @Sendable (Groups, LegacyDateDetector) -> Date?
        init(_ pattern: String, _ resolve: @escaping @Sendable (Groups, LegacyDateDetector) -> Date?) {
            // The patterns are constants of this file; a typo is a programming error.
            regex = try! NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
            self.resolve = resolve
        }
    }

    /// Month and weekday names of a language as Foundation (ICU) spells them, lowercased:
    /// months January first, weekdays Monday first.
    static func names(_ language: String) -> (months: [String], weekdays: [String]) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: language)
        let months = formatter.monthSymbols.map { $0.lowercased() }
        let sundayFirst = formatter.weekdaySymbols.map { $0.lowercased() }
        return (months, Array(sundayFirst.dropFirst()) + sundayFirst.prefix(1))
    }

    static func alternatives(_ words: [String]) -> String {
        "(" + words.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|") + ")"
    }

    /// Words for one language: relative days (longest first), "next" before or after a weekday,
    /// next week / month / weekend, and how a written date orders day and month.
    struct Words {
        var relative: [(String, Int)]
        var nextBefore: String?
        var nextAfter: String?
        var nextWeek: String
        var nextMonth: String
        var weekend: String
        var dayFirst: Bool
    }

    static let words: [String: Words] = [
        "en": Words(relative: [("day after tomorrow", 2), ("tomorrow", 1), ("tonight", 0), ("today", 0)],
                    nextBefore: "next ", nextWeek: "next week", nextMonth: "next month",
                    weekend: "(this |the )?weekend", dayFirst: false),
        "es": Words(relative: [("pasado mañana", 2), ("(?<!la )mañana", 1), ("hoy", 0), ("esta noche", 0)],
                    nextBefore: "próximo ", nextAfter: " que viene",
                    nextWeek: "(la semana que viene|la próxima semana)",
                    nextMonth: "(el mes que viene|el próximo mes)", weekend: "el fin de semana", dayFirst: true),
        "fr": Words(relative: [("après-demain", 2), ("demain", 1), ("aujourd'hui", 0), ("ce soir", 0)],
                    nextAfter: " prochain", nextWeek: "la semaine prochaine", nextMonth: "le mois prochain",
                    weekend: "(ce )?week-end", dayFirst: true),
        "de": Words(relative: [("übermorgen", 2), ("(?<!am |guten |heute )morgen(?!s)", 1), ("heute", 0)],
                    nextBefore: "nächste[nr]? ", nextWeek: "nächste woche", nextMonth: "nächsten monat",
                    weekend: "(am |dieses )?wochenende", dayFirst: true),
        "ja": Words(relative: [("明後日", 2), ("明日", 1), ("今日", 0), ("今夜", 0)],
                    nextBefore: "来週の", nextWeek: "来週", nextMonth: "来月", weekend: "週末", dayFirst: false),
    ]

    private static let compiled: [String: [Rule]] = {
        var table: [String: [Rule]] = [:]
        for (language, words) in words { table[language] = makeRules(language, words) }
        return table
    }()

    static func rules(_ language: String) -> [Rule] { compiled[language] ?? [] }

    private static func makeRules(_ language: String, _ words: Words) -> [Rule] {
        let (months, weekdays) = names(language)
        let cjk = language == "ja"
        let edge = cjk ? "" : #"\b"#
        let weekday = alternatives(weekdays)
        @Sendable func weekdayIndex(_ name: String?) -> Int? { name.flatMap { weekdays.firstIndex(of: $0) }.map { $0 + 1 } }
        @Sendable func monthIndex(_ name: String?) -> Int? { name.flatMap { months.firstIndex(of: $0) }.map { $0 + 1 } }
        var rules: [Rule] = [
            Rule(#"\b(\d{4})-(\d{1,2})-(\d{1,2})\b"#) { g, d in
                g.number(2).flatMap { m in g.number(3).flatMap { d.date(month: m, day: $0, year: g.number(1)) } }
            },
        ]
        for (word, days) in words.relative {
            rules.append(Rule(edge + word + edge) { _, d in d.adding(days: days) })
        }
        if let before = words.nextBefore {
            rules.append(Rule(edge + before + weekday + edge) { g, d in weekdayIndex(g[1]).map { d.next(weekday: $0, nextWeek: true) } })
        }
        if let after = words.nextAfter {
            rules.append(Rule(edge + weekday + after + edge) { g, d in weekdayIndex(g[1]).map { d.next(weekday: $0, nextWeek: true) } })
        }
        rules.append(Rule(edge + words.nextWeek + (cjk ? "(?!の" + weekday + ")" : edge)) { _, d in d.next(weekday: 1, nextWeek: true) })
        rules.append(Rule(edge + words.nextMonth + edge) { _, d in d.nextMonth() })
        rules.append(Rule(edge + words.weekend + edge) { _, d in d.next(weekday: 6, nextWeek: false) })
        rules.append(Rule(edge + weekday + edge) { g, d in weekdayIndex(g[1]).map { d.next(weekday: $0, nextWeek: false) } })
        if cjk {
            rules.append(Rule(#"(?:(\d{4})年)?(\d{1,2})月(\d{1,2})日"#) { g, d in
                g.number(2).flatMap { m in g.number(3).flatMap { d.date(month: m, day: $0, year: g.number(1)) } }
            })
            return rules
        }
        let month = alternatives(months + months.map { String($0.prefix(3)) })
        @Sendable func named(_ name: String?) -> Int? { monthIndex(name) ?? months.firstIndex { $0.hasPrefix(name ?? "-") }.map { $0 + 1 } }
        if words.dayFirst {
            // "15/12", "15.12.", "15/12/2026"; "15 de diciembre", "15 décembre", "15. Dezember".
            rules.append(Rule(#"\b(\d{1,2})[./](\d{1,2})(?:[./](\d{2,4}))?\b"#) { g, d in
                g.number(1).flatMap { day in g.number(2).flatMap { d.date(month: $0, day: day, year: g.number(3)) } }
            })
            rules.append(Rule(#"\b(\d{1,2})\.?\s+(?:de\s+)?"# + month + #"\b"#) { g, d in
                g.number(1).flatMap { day in named(g[2]).flatMap { d.date(month: $0, day: day) } }
            })
        } else {
            // "12/15", "12/15/2026"; "December 15", "15 December".
            rules.append(Rule(#"\b(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?\b"#) { g, d in
                g.number(1).flatMap { m in g.number(2).flatMap { d.date(month: m, day: $0, year: g.number(3)) } }
            })
            rules.append(Rule(#"\b"# + month + #"\s+(\d{1,2})(?:st|nd|rd|th)?\b"#) { g, d in
                named(g[1]).flatMap { m in g.number(2).flatMap { d.date(month: m, day: $0) } }
            })
            rules.append(Rule(#"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?"# + month + #"\b"#) { g, d in
                g.number(1).flatMap { day in named(g[2]).flatMap { d.date(month: $0, day: day) } }
            })
        }
        return rules
    }

    // MARK: Times

    /// "15:30", "3 pm", "a las 10", "15h", "um 15 Uhr", "午後3時半".
    static func time(in text: String, language: String) -> (hour: Int, minute: Int)? {
        for rule in timeRules[language] ?? [] {
            guard let match = rule.regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                  let time = rule.resolve(Groups(match, text)), (0...23).contains(time.hour), (0...59).contains(time.minute)
            else { continue }
            return time
        }
        return nil
    }

    struct TimeRule: @unchecked Sendable {
        let regex: NSRegularExpression
        let resolve: @Sendable (Groups) -> (hour: Int, minute: Int)?
        init(_ pattern: String, _ resolve: @escaping @Sendable (Groups) -> (hour: Int, minute: Int)?) {
            regex = try! NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
            self.resolve = resolve
        }
    }

    private static let clock = TimeRule(#"\b(\d{1,2}):(\d{2})\b"#) { g in g.number(1).map { ($0, g.number(2) ?? 0) } }

    private static let timeRules: [String: [TimeRule]] = [
        "en": [TimeRule(#"\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\.?(?![a-z])"#) { g in
            g.number(1).flatMap { hour in
                guard (1...12).contains(hour) else { return nil }
                return (hour % 12 + (g[3] == "p" ? 12 : 0), g.number(2) ?? 0)
            }
        }, clock],
        "es": [clock, TimeRule(#"\ba las (\d{1,2})(?:[:.](\d{2}))?\b"#) { g in g.number(1).map { ($0, g.number(2) ?? 0) } }],
        "fr": [TimeRule(#"\b(\d{1,2})\s?h\s?(\d{2})?\b"#) { g in g.number(1).map { ($0, g.number(2) ?? 0) } }, clock],
        "de": [clock, TimeRule(#"\b(\d{1,2})(?:[.:](\d{2}))?\s?uhr\b"#) { g in g.number(1).map { ($0, g.number(2) ?? 0) } }],
        "ja": [TimeRule(#"(午前|午後)?(\d{1,2})時(半|(\d{1,2})分)?"#) { g in
            g.number(2).map { hour in
                (hour + (g[1] == "午後" && hour < 12 ? 12 : 0), g[3] == "半" ? 30 : (g.number(4) ?? 0))
            }
        }, clock],
    ]
}
