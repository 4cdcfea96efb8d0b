import DialogueCore
import Foundation

/// How `list` and `search` show notes: one line each (a short unique id, the date, and the key
/// sentence — the one that best states the idea — or else the title, made safe for a
/// terminal), or one JSON object each for scripts.
public enum NoteListing {
    /// `4f2a9c  2026-11-29 18:02  Frozen meals for busy people`, newest first as given.
    public static func lines(_ notes: [NoteFile], timeZone: TimeZone = .current) -> [String] {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        formatter.timeZone = timeZone
        let width = shortestUniquePrefix(notes.map(\.id))
        return notes.map { note in
            let date = note.created.map(formatter.string(from:)) ?? String(repeating: " ", count: 16)
            let id = note.id.prefix(width).padding(toLength: width, withPad: " ", startingAt: 0)
            return "\(id)  \(date)  \(UserText.terminalLine(note.keySentence ?? note.title))"
        }
    }

    /// `{"created":"…","id":"…","key":"…","path":"…","title":"…"}` per note (created and key
    /// left out when unknown).
    public static func jsonLines(_ notes: [NoteFile]) -> [String] {
        struct Line: Encodable { let id: String; let title: String; let path: String; let created: String?; let key: String? }
        let formatter = ISO8601DateFormatter()
        return notes.map { note in
            let line = Line(id: note.id, title: note.title, path: note.path, created: note.created.map(formatter.string(from:)),
                            key: note.keySentence)
            return JSONLine.encode(line)
        }
    }

    /// The shortest prefix length (at least 6) that tells every id apart.
    public static func shortestUniquePrefix(_ ids: [String]) -> Int {
        var length = 6
        while length < (ids.map(\.count).max() ?? 6), Set(ids.map { $0.prefix(length) }).count < ids.count { length += 1 }
        return length
    }
}
