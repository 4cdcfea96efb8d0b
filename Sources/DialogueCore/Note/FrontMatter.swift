import Foundation

/// The YAML block at the top of a note. It holds values our code produced, and of the user's
/// words only the key sentence; strings are double-quoted YAML with every special character
/// escaped, so nothing in it can be misread.
enum FrontMatter {
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
    static func quoted(_ value: String) -> String {
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
}
