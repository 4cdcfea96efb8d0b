import DialogueCore
import Foundation

/// One Markdown task item of a note (`- [ ] …` open, `- [x] …` done), as any editor left it.
public struct NoteTask: Sendable, Hashable {
    public var note: NoteFile
    /// As the person reads it (Markdown escapes removed).
    public var text: String
    public var done: Bool
    /// The date or time the item names ("2026-12-04", "2026-12-04T15:00"), resolved against
    /// the note's creation (the detector the front matter's `dates` come from); nil: none.
    public var due: String?
}

/// `dialogue-memo tasks`: the next steps across notes. The checkboxes are the truth, so an
/// item ticked in Obsidian or any editor is done, and one the person added by hand counts too.
public enum TaskListing {
    /// The task items of a note's body, in order; a fenced code block's lines are not tasks.
    public static func tasks(in note: NoteFile) -> [NoteTask] {
        var tasks: [NoteTask] = []
        var inCode = false
        // Made at the first item: most notes have none, and a detector is not free.
        lazy var detector = note.created.map {
            DateDetector(language: note.language ?? .english, created: $0, timeZone: note.timeZone ?? .current)
        }
        for line in TextLines(note.body) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") { inCode.toggle(); continue }
            guard !inCode, let (done, rest) = item(trimmed) else { continue }
            let text = NoteFile.unescapeMarkdown(String(rest)).trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            tasks.append(NoteTask(note: note, text: text, done: done, due: detector?.date(in: text)))
        }
        return tasks
    }

    /// "- [ ] text", "* [x] text", "+ [X] text" → (done, text).
    static func item(_ line: Substring) -> (Bool, Substring)? {
        guard let bullet = line.first, "-*+".contains(bullet) else { return nil }
        let rest = line.dropFirst()
        guard rest.hasPrefix(" ["), rest.count >= 4 else { return nil }
        let mark = rest[rest.index(rest.startIndex, offsetBy: 2)]
        let close = rest.index(rest.startIndex, offsetBy: 3)
        guard rest[close] == "]", mark == " " || mark == "x" || mark == "X" else { return nil }
        let text = rest[rest.index(after: close)...]
        guard text.isEmpty || text.first == " " else { return nil }
        return (mark != " ", text)
    }

    /// `4f2a9c  2026-12-02  [ ] Send them the spec sheet today.  (due 2026-12-02)`
    public static func lines(_ tasks: [NoteTask], timeZone: TimeZone = .current) -> [String] {
        let width = NoteListing.shortestUniquePrefix(Array(Set(tasks.map(\.note.id))))
        return tasks.map { task in
            let id = task.note.id.prefix(width).padding(toLength: width, withPad: " ", startingAt: 0)
            let date = task.note.created.map { CivilTime($0, in: timeZone).day } ?? String(repeating: " ", count: 10)
            let due = task.due.map { "  (due \($0))" } ?? ""
            return "\(id)  \(date)  [\(task.done ? "x" : " ")] \(UserText.terminalLine(task.text))\(due)"
        }
    }

    /// `{"created":"…","done":false,"due":"…","note":"…","path":"…","text":"…"}` per item
    /// (created and due left out when unknown).
    public static func jsonLines(_ tasks: [NoteTask]) -> [String] {
        struct Line: Encodable { let note: String; let path: String; let created: String?; let text: String; let done: Bool; let due: String? }
        let formatter = ISO8601DateFormatter()
        return tasks.map { task in
            let line = Line(note: task.note.id, path: task.note.path, created: task.note.created.map(formatter.string(from:)),
                            text: task.text, done: task.done, due: task.due)
            return JSONLine.encode(line)
        }
    }
}
