import Foundation

/// The YAML block at the top of a note, written and read back. It holds values our code
/// produced, and of the user's words only the key sentence and the people named (spans of
/// their sentences); strings are double-quoted YAML with every special character escaped, so
/// nothing in it can be misread.
public enum FrontMatter {
    static func render(_ metadata: NoteMetadata, extra: [String] = []) -> String {
        let questions = metadata.questions.map { quoted($0.rawValue) }.joined(separator: ", ")
        var lines = [
            "---",
            "id: \(quoted(metadata.id))",
            "created: \(quoted(timestamp(metadata.created, in: metadata.timeZone)))",
            "language: \(quoted(metadata.language.code))",
            "questions: [\(questions)]",
            "layout: \(quoted(metadata.layoutSource.rawValue))",
        ]
        if let ending = metadata.ending { lines.append("ended: \(quoted(ending))") }
        if !metadata.tags.isEmpty { lines.append("tags: [\(metadata.tags.map(quoted).joined(separator: ", "))]") }
        if !metadata.people.isEmpty { lines.append("people: [\(metadata.people.map(quoted).joined(separator: ", "))]") }
        return (lines + extra + ["---"]).joined(separator: "\n")
    }

    /// ISO 8601 with the zone's offset: "2025-11-29T18:25:43+01:00".
    static func timestamp(_ date: Date, in timeZone: TimeZone) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = timeZone
        return formatter.string(from: date)
    }

    /// A YAML double-quoted scalar.
    public static func quoted(_ value: String) -> String {
        var output = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": output += "\\\\"
            case "\"": output += "\\\""
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    output += String(format: "\\x%02X", scalar.value)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }

    /// A YAML double-quoted scalar as `quoted` writes it (`\\`, `\"`, `\n`, `\t`, `\xNN`), read
    /// back; an unquoted value as it is. Surrounding spaces are not part of the value.
    public static func unquoted<S: StringProtocol>(_ value: S) -> String {
        let text = String(value).trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 else { return text }
        var output = ""
        var scalars = Array(text.dropFirst().dropLast().unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "\\", let next = scalars.popFirst() else { output.unicodeScalars.append(scalar); continue }
            switch next {
            case "n": output += "\n"
            case "t": output += "\t"
            case "x":
                let hex = String(String.UnicodeScalarView(scalars.prefix(2)))
                if hex.count == 2, let code = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(code) {
                    output.unicodeScalars.append(decoded)
                    scalars = scalars.dropFirst(2)
                } else {
                    output += "\\x"
                }
            default: output.unicodeScalars.append(next)
            }
        }
        return output
    }

    /// The block at the top of a note, read back.
    public struct Reading: Sendable, Hashable {
        /// Each `key: value` line's value as written (a later line with the same key wins).
        public var values: [String: String]
        /// What follows the block; nil when it is not closed (the whole note is then the block).
        public var body: Substring?

        /// A scalar field, unquoted; nil when absent.
        public func string(_ key: String) -> String? { values[key].map(FrontMatter.unquoted) }

        /// A flow sequence of scalars (`["a", "b"]`), each unquoted; nil when absent or not a list.
        public func list(_ key: String) -> [String]? {
            guard let text = values[key]?.trimmingCharacters(in: .whitespaces), text.hasPrefix("["), text.hasSuffix("]") else {
                return nil
            }
            return FrontMatter.items(text.dropFirst().dropLast()).map(FrontMatter.unquoted)
        }

        /// `created`; nil when absent or unreadable.
        public var created: Date? { string("created").flatMap(FrontMatter.date) }

        /// The time zone `created` names by its offset ("…+01:00", "…Z"); nil when not said.
        public var timeZone: TimeZone? { string("created").flatMap(FrontMatter.zone(of:)) }
    }

    /// The front matter of `note`: the `key: value` lines between a first line `---` and the
    /// next line `---`. A note without one reads as no values and all body.
    public static func read(_ note: String) -> Reading {
        guard note.hasPrefix("---\n") else { return Reading(values: [:], body: note[...]) }
        let end = closing(of: note)
        let start = note.index(note.startIndex, offsetBy: 4)
        var values: [String: String] = [:]
        for line in note[start..<max(start, end?.lowerBound ?? note.endIndex)].split(separator: "\n") {
            guard let colon = line.range(of: ": ") else { continue }
            values[String(line[..<colon.lowerBound])] = String(line[colon.upperBound...])
        }
        return Reading(values: values, body: end.map { note[$0.upperBound...] })
    }

    /// Where the block that starts `note` closes: its "\n---\n", found a byte at a time (a
    /// Foundation search bridges the whole note, which counts over a folder of thousands).
    static func closing(of note: String) -> Range<String.Index>? {
        let bytes = note.utf8
        let mark = Array("\n---\n".utf8)
        var index = bytes.index(bytes.startIndex, offsetBy: 3)
        while let found = bytes[index...].firstIndex(of: 0x0A) {
            if bytes[found...].starts(with: mark) { return found..<bytes.index(found, offsetBy: mark.count) }
            index = bytes.index(after: found)
        }
        return nil
    }

    /// An ISO 8601 timestamp as `timestamp` writes it ("2026-11-29T10:00:00+01:00", "…Z"), read
    /// by hand: a date formatter takes longer to make and to use than the rest of a note.
    /// Anything else (a day past the 28th included) is left to `ISO8601DateFormatter`.
    public static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard bytes[index] >= 0x30 && bytes[index] <= 0x39 else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        let dashes = bytes.count >= 20 && bytes[4] == 0x2D && bytes[7] == 0x2D && bytes[10] == 0x54 && bytes[13] == 0x3A && bytes[16] == 0x3A
        let zone: Int? = switch bytes.count {
        case 20 where bytes[19] == 0x5A: 0
        case 25 where (bytes[19] == 0x2B || bytes[19] == 0x2D) && bytes[22] == 0x3A:
            number(20..<22).flatMap { hours in number(23..<25).map { (hours * 60 + $0) * 60 * (bytes[19] == 0x2D ? -1 : 1) } }
        default: nil
        }
        guard dashes, let zone, let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...28).contains(day), hour < 24, minute < 60, second < 60 else {
            return ISO8601DateFormatter().date(from: text)
        }
        // Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let days = era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719_468
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second - zone))
    }

    /// The time zone of an ISO 8601 timestamp's offset ("…+01:00", "…Z").
    static func zone(of timestamp: String) -> TimeZone? {
        if timestamp.hasSuffix("Z") { return TimeZone(secondsFromGMT: 0) }
        let offset = timestamp.suffix(6)
        guard offset.count == 6, let sign = offset.first, sign == "+" || sign == "-",
              let hours = Int(offset.dropFirst().prefix(2)), let minutes = Int(offset.suffix(2)) else { return nil }
        return TimeZone(secondsFromGMT: (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
    }

    /// The items of a flow sequence's inside, split at the commas outside double quotes.
    static func items(_ inside: Substring) -> [Substring] {
        guard !inside.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
        var items: [Substring] = []
        var start = inside.startIndex, quoted = false, escaped = false
        for index in inside.indices {
            let character = inside[index]
            if escaped { escaped = false } else if character == "\\" { escaped = quoted } else if character == "\"" {
                quoted.toggle()
            } else if character == ",", !quoted {
                items.append(inside[start..<index])
                start = inside.index(after: index)
            }
        }
        return items + [inside[start...]]
    }
}
