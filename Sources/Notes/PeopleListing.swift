import DialogueCore
import Foundation

/// One person across the notes: the name as the newest note that names them writes it, how
/// many notes name them, and when the newest of those was made.
public struct NotedPerson: Sendable, Hashable {
    public var name: String
    public var memos: Int
    public var last: Date?
}

/// `dialogue-memo people`: every person the notes name (their `people:` lines, which the person
/// may have edited), one line each or one JSON object each.
public enum PeopleListing {
    /// The people of `notes` (row → note) from `rows` (note row, name): names equal after
    /// folding case and accents are one person; most memos first, then the most recent, then
    /// by name.
    static func people(_ rows: [(note: Int64, name: String)], notes: [Int64: NoteFile]) -> [NotedPerson] {
        let rank = Dictionary(uniqueKeysWithValues: NotesStore.newestFirst(notes).enumerated().map { ($1, $0) })
        var people: [String: (person: NotedPerson, notes: Set<Int64>, rank: Int)] = [:]
        for (note, name) in rows {
            guard let noteRank = rank[note] else { continue }
            let key = PeopleFinder.fold(name)
            var entry = people[key] ?? (NotedPerson(name: name, memos: 0, last: nil), [], noteRank)
            entry.notes.insert(note)
            if noteRank <= entry.rank { (entry.person.name, entry.person.last, entry.rank) = (name, notes[note]?.created, noteRank) }
            entry.person.memos = entry.notes.count
            people[key] = entry
        }
        return people.values.map(\.person).sorted {
            ($0.memos, $0.last ?? .distantPast, $1.name) > ($1.memos, $1.last ?? .distantPast, $0.name)
        }
    }

    /// `   3  2026-11-29  Frau Müller`: the number of memos, the newest one's day, the name.
    public static func lines(_ people: [NotedPerson], timeZone: TimeZone = .current) -> [String] {
        let width = String(people.map(\.memos).max() ?? 0).count
        return people.map { person in
            let count = String(person.memos)
            let day = person.last.map { CivilTime($0, in: timeZone).day } ?? String(repeating: " ", count: 10)
            return String(repeating: " ", count: width - count.count) + count + "  \(day)  " + UserText.terminalLine(person.name)
        }
    }

    /// `{"last":"…","memos":3,"name":"Frau Müller"}` per person (last left out when unknown).
    public static func jsonLines(_ people: [NotedPerson]) -> [String] {
        struct Line: Encodable { let name: String; let memos: Int; let last: String? }
        let formatter = ISO8601DateFormatter()
        return people.map { JSONLine.encode(Line(name: $0.name, memos: $0.memos, last: $0.last.map(formatter.string(from:)))) }
    }
}
