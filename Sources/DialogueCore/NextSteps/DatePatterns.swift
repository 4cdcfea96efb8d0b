/// `dates` in a language file: how the language names a day or a time, as regular expressions
/// (case ignored, matched against the sentence lowercased). In the day patterns `{weekday}`
/// stands for any weekday name and `{month}` for any month name or its first three letters, as
/// ICU spells them for the language; each is one group. `DateRules` compiles them and
/// `DateDetector` resolves what they find.
public struct DatePatterns: Decodable, Sendable, Hashable {
    /// Whether words are separated by spaces: then a day pattern matches whole words only.
    /// False in Japanese, where a word boundary would fall between any two characters.
    public var spaced: Bool
    /// A day counted from the note's day ("tomorrow": 1), longest words first.
    public var relativeDays: [RelativeDay]
    /// A weekday of the following week: "next {weekday}", "{weekday} prochain".
    public var nextWeekday: [String]
    /// The following week: its Monday.
    public var nextWeek: [String]
    /// The following month: its first day.
    public var nextMonth: [String]
    /// The coming weekend: its Saturday.
    public var weekend: [String]
    /// Dates written with numbers or a month name ("12/15", "15 de diciembre", "12月15日").
    public var writtenDates: [WrittenDate]
    /// Clock times, tried in order: the first that gives a valid time wins. Taken whole, with
    /// no word boundaries added.
    public var times: [TimePattern]

    public struct RelativeDay: Decodable, Sendable, Hashable {
        public var pattern: String
        public var days: Int
    }

    /// A written date and the groups that hold its parts. The month is a number or a name
    /// (`{month}`); without a year, the next such date on or after the note's day.
    public struct WrittenDate: Decodable, Sendable, Hashable {
        public var pattern: String
        public var day: Int
        public var month: Int
        public var year: Int?
    }

    /// A clock time and the groups that hold its parts; the minutes are 0 without a group.
    public struct TimePattern: Decodable, Sendable, Hashable {
        public var pattern: String
        public var hour: Int
        public var minute: Int?
        /// A 12-hour clock ("3 pm"): the hour must be 1 to 12, and 12 is the first hour.
        public var twelveHour: Bool?
        /// The group that says afternoon ("p" of "pm", "午後"): 12 is added to an hour before noon.
        public var pm: Marker?
        /// The group that says half past ("半"): the minutes are 30.
        public var half: Marker?
    }

    /// A group of the pattern and the text in it that means something.
    public struct Marker: Decodable, Sendable, Hashable {
        public var group: Int
        public var text: String
    }
}
