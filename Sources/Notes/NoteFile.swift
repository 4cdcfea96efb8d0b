import Foundation

/// A saved note as found on disk: its front matter id and created time, its title line, and
/// the whole text.
public struct NoteFile: Sendable, Hashable {
    public var id: String
    public var path: String
    public var created: Date?
    public var title: String
    public var text: String

    /// The Markdown body without the front matter.
    public var body: String {
        guard text.hasPrefix("---\n"), let end = text.range(of: "\n---\n", range: text.index(text.startIndex, offsetBy: 3)..<text.endIndex) else {
            return text
        }
        return String(text[end.upperBound...])
    }

    /// Reads the fields our front matter writes (`id: "…"`, `created: "…"`) and the first
    /// `# ` line. Notes edited by hand may lack them: the file name stands in for the id.
    public init(path: String, text: String) {
        self.path = path
        self.text = text
        var id: String?
        var created: Date?
        var title: String?
        var inFrontMatter = text.hasPrefix("---\n")
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if inFrontMatter {
                if index > 0 && line == "---" { inFrontMatter = false; continue }
                if line.hasPrefix("id: ") { id = Self.unquote(line.dropFirst(4)) }
                if line.hasPrefix("created: ") {
                    created = ISO8601DateFormatter().date(from: Self.unquote(line.dropFirst(9)))
                }
            } else if line.hasPrefix("# ") {
                title = Self.unescapeMarkdown(String(line.dropFirst(2)))
                break
            }
        }
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        self.id = id.flatMap { $0.isEmpty ? nil : $0 } ?? stem
        self.created = created
        self.title = title ?? stem
    }

    static func unquote<S: StringProtocol>(_ value: S) -> String {
        var text = String(value).trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 {
            text = String(text.dropFirst().dropLast())
                .replacingOccurrences(of: "\\\"", with: "\"")
                .replacingOccurrences(of: "\\\\", with: "\\")
        }
        return text
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
