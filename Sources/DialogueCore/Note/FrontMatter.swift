import Foundation

/// The YAML block at the top of a note, written and read back. It holds values our code
/// produced, and of the user's words only the key sentence; strings are double-quoted YAML with
/// every special character escaped, so nothing in it can be misread.
public enum FrontMatter {
    static func render(_ metadata: NoteMetadata, extra: [String] = []) -> String {
        let questions = metadata.questions.map { quoted($0.rawValue) }.joined(separator: ", ")
        var lines = [
            "---",
            "id: \(quoted(metadata.id))",
            "created: \(quoted(timestamp(metadata.created, in: metadata.timeZone)))",
            "language: \(quoted(metadata.language))",
            "questions: [\(questions)]",
            "layout: \(quoted(metadata.layoutSource.rawValue))",
        ]
        if let ending = metadata.ending { lines.append("ended: \(quoted(ending))") }
        if !metadata.tags.isEmpty { lines.append("tags: [\(metadata.tags.map(quoted).joined(separator: ", "))]") }
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
        public var created: Date? { string("created").flatMap { ISO8601DateFormatter().date(from: $0) } }

        /// The time zone `created` names by its offset ("…+01:00", "…Z"); nil when not said.
        public var timeZone: TimeZone? { string("created").flatMap(FrontMatter.zone(of:)) }
    }

    /// The front matter of `note`: the `key: value` lines between a first line `---` and the
    /// next line `---`. A note without one reads as no values and all body.
    public static func read(_ note: String) -> Reading {
        guard note.hasPrefix("---\n") else { return Reading(values: [:], body: note[...]) }
        let end = note.range(of: "\n---\n", range: note.index(note.startIndex, offsetBy: 3)..<note.endIndex)
        let start = note.index(note.startIndex, offsetBy: 4)
        var values: [String: String] = [:]
        for line in note[start..<max(start, end?.lowerBound ?? note.endIndex)].split(separator: "\n") {
            guard let colon = line.range(of: ": ") else { continue }
            values[String(line[..<colon.lowerBound])] = String(line[colon.upperBound...])
        }
        return Reading(values: values, body: end.map { note[$0.upperBound...] })
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
