import Foundation
import Synchronization

/// A saved note as found on disk: its front matter id and created time, its title line, and
/// the whole text.
public struct NoteFile: Sendable, Hashable {
    public var id: String
    public var path: String
    public var created: Date?
    public var title: String
    public var text: String
    /// The interface language it was made in (`language:`), nil when not said.
    public var language: String?
    /// The sentence that best states the idea (`key_sentence:`), nil when not said.
    public var keySentence: String?
    /// The time zone of `created` as written ("…+01:00", "…Z"), nil when not said.
    public var timeZone: TimeZone?

    /// The Markdown body without the front matter.
    public var body: String {
        guard text.hasPrefix("---\n") else { return text }
        // The closing "\n---\n", found a byte at a time (a Foundation search bridges the whole note).
        let bytes = text.utf8
        let closing = Array("\n---\n".utf8)
        var index = bytes.index(bytes.startIndex, offsetBy: 3)
        while let found = bytes[index...].firstIndex(of: 0x0A) {
            if bytes[found...].starts(with: closing) { return String(text[bytes.index(found, offsetBy: closing.count)...]) }
            index = bytes.index(after: found)
        }
        return text
    }

    /// A note as the index holds it: its fields without its text.
    init(path: String, id: String, created: Date?, title: String, language: String?, keySentence: String?, timeZone: TimeZone?) {
        self.path = path
        self.id = id
        self.created = created
        self.title = title
        self.text = ""
        self.language = language
        self.keySentence = keySentence
        self.timeZone = timeZone
    }

    /// Reads the fields our front matter writes (`id: "…"`, `created: "…"`, `language: "…"`,
    /// `key_sentence: "…"`) and the first `# ` line. Notes edited by hand may lack them: the
    /// file name stands in for the id.
    public init(path: String, text: String) {
        self.path = path
        self.text = text
        var id: String?
        var created: Date?
        var title: String?
        var language: String?
        var keySentence: String?
        var createdText: String?
        var inFrontMatter = text.hasPrefix("---\n")
        for (index, line) in TextLines(text).enumerated() {
            if inFrontMatter {
                if index > 0 && line == "---" { inFrontMatter = false; continue }
                if line.hasPrefix("id: ") { id = Self.unquote(line.dropFirst(4)) }
                if line.hasPrefix("created: ") {
                    createdText = Self.unquote(line.dropFirst(9))
                    created = createdText.flatMap(Self.timestamp)
                }
                if line.hasPrefix("language: ") { language = Self.unquote(line.dropFirst(10)) }
                if line.hasPrefix("key_sentence: ") { keySentence = Self.unquote(line.dropFirst(14)) }
            } else if line.hasPrefix("# ") {
                title = Self.unescapeMarkdown(String(line.dropFirst(2)))
                break
            }
        }
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        self.id = id.flatMap { $0.isEmpty ? nil : $0 } ?? stem
        self.created = created
        self.title = title ?? stem
        self.language = language.flatMap { $0.isEmpty ? nil : $0 }
        self.keySentence = keySentence.flatMap { $0.isEmpty ? nil : $0 }
        self.timeZone = createdText.flatMap(Self.zone(of:))
    }

    /// `created` as our front matter writes it ("2026-11-29T10:00:00+01:00", "…Z"), read by hand:
    /// a date formatter takes longer to make and to use than the rest of the note, which counts
    /// when a folder of thousands is indexed. Anything else (a day past the 28th included) is
    /// left to `ISO8601DateFormatter`.
    static func timestamp(_ text: String) -> Date? {
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
            return timestamps.withLock { $0.date(from: text) }
        }
        // Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let days = era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719_468
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second - zone))
    }

    private static let timestamps = Mutex(ISO8601DateFormatter())

    static func zone(of timestamp: String) -> TimeZone? {
        if timestamp.hasSuffix("Z") { return TimeZone(secondsFromGMT: 0) }
        let offset = timestamp.suffix(6)
        guard offset.count == 6, let sign = offset.first, sign == "+" || sign == "-",
              let hours = Int(offset.dropFirst().prefix(2)), let minutes = Int(offset.suffix(2)) else { return nil }
        return TimeZone(secondsFromGMT: (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
    }

    /// A YAML double-quoted scalar as `FrontMatter.quoted` writes it (`\\`, `\"`, `\n`, `\t`,
    /// `\xNN`), read back; an unquoted value as it is.
    static func unquote<S: StringProtocol>(_ value: S) -> String {
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

    /// Removes the backslashes the renderer puts before Markdown punctuation, for display.
    static func unescapeMarkdown(_ text: String) -> String {
        var output = ""
        var escaped = false
        for character in text {
            if escaped { output.append(character); escaped = false }
            else if character == "\\" { escaped = true }
            else { output.append(character) }
        }
        return output
    }
}
