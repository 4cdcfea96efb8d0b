import DialogueCore
import Foundation

/// How `list` and `search` show notes: one line each (a short unique id, the date, and the key
/// sentence — the one that best states the idea — or else the title, made safe for a
/// terminal), or one JSON object each for scripts.
public enum NoteListing {
    /// `4f2a9c  2026-11-29 18:02  Frozen meals for busy people`, newest first as given.
    public static func lines(_ notes: [NoteFile], timeZone: TimeZone = .current) -> [String] {
        let width = shortestUniquePrefix(notes.map(\.id))
        return notes.map { note in
            let date = note.created.map { CivilTime($0, in: timeZone).minute } ?? String(repeating: " ", count: 16)
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
        let longest = max(6, ids.map(\.count).max() ?? 6)
        guard ids.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) else {
            var length = 6
            while length < longest, Set(ids.map { $0.prefix(length) }).count < ids.count { length += 1 }
            return length
        }
        // ASCII ids (ours are hex), for thousands of notes: neighbours in sorted order share the
        // longest prefixes, so one more than the longest shared one tells every id apart. Ids that
        // are the same never differ: the longest id, then.
        let sorted = ids.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        var length = 6
        for (first, second) in zip(sorted, sorted.dropFirst()) {
            guard first != second else { return longest }
            length = max(length, zip(first, second).prefix { $0 == $1 }.count + 1)
        }
        return min(length, longest)
    }
}
