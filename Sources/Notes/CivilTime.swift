import Foundation

/// A moment as a wall clock in a time zone shows it, to the minute: "2026-11-29" and
/// "2026-11-29 18:02". Computed, not formatted: a date formatter costs more per line than the
/// rest of a `list` line, and `list` prints thousands.
struct CivilTime {
    let day: String
    let minute: String

    init(_ date: Date, in zone: TimeZone) {
        let seconds = Int((date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))).rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Howard Hinnant's civil_from_days: the proleptic Gregorian date of a day count since 1970.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let dayOfMonth = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        let yearText = year >= 0 && year < 10_000 ? String(repeating: "0", count: 4 - String(year).count) + String(year) : String(year)
        day = "\(yearText)-\(two(month))-\(two(dayOfMonth))"
        minute = "\(day) \(two(secondOfDay / 3_600)):\(two(secondOfDay % 3_600 / 60))"
    }
}
