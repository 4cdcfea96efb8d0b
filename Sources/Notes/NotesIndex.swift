import DialogueCore
import Foundation
import Synchronization

/// An SQLite index of one notes folder, kept in the cache so that `list`, `search`, `tasks` and `people`
/// stay fast at tens of thousands of notes. The Markdown files remain the only truth: every use
/// first compares each file's stamp (size, mtime, inode, ctime) with the one it was indexed at
/// and reads again what changed, so an edit by any other program is seen at the next command.
///
/// Search needs a substring match that ignores case, accents and width in every script. SQLite's
/// trigram tokenizer finds substrings but folds neither accents (before 3.45) nor width, so the
/// text is stored already folded (`NotesStore.folded`) and searched as is; a needle under three
/// characters, which no trigram can hold, is looked for by scanning that folded text.
final class NotesIndex {
    /// Bumped when the tables change: an index of another version is rebuilt.
    static let version: Int32 = 2

    private let database: SQLiteDatabase
    private let folder: NotesFolder

    /// Opens (or creates) the index at `path`; ":memory:" for one that lives only as long as this.
    init(folder: NotesFolder, path: String) throws {
        self.folder = folder
        database = try Self.open(path)
    }

    /// Removes the index at `path` with its write-ahead log.
    static func discard(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }

    private static func open(_ path: String) throws -> SQLiteDatabase {
        // It holds the notes' words: as private as the notes. (":memory:" is no file: creating
        // it would leave an empty file of that name in the working directory.)
        if path != ":memory:" {
            let descriptor = Foundation.open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
            if descriptor >= 0 { close(descriptor) }
        }
        let database = try SQLiteDatabase(path: path)
        // A deleted note's words are overwritten, not left in free pages.
        try database.execute("PRAGMA secure_delete = ON")
        let found = try database.integer("PRAGMA user_version")
        if found != Int64(version) {
            guard found == 0 else { throw SQLiteError(code: SQLiteError.otherVersion, message: "index version \(found)") }
            try database.execute("""
                PRAGMA journal_mode = WAL;
                CREATE TABLE notes(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL, size INTEGER, modified INTEGER,
                    inode INTEGER, changed INTEGER, skip TEXT, note_id TEXT, title TEXT, created REAL, zone INTEGER,
                    language TEXT, key_sentence TEXT);
                CREATE TABLE tasks(note INTEGER NOT NULL, position INTEGER NOT NULL, text TEXT NOT NULL, done INTEGER NOT NULL,
                    due TEXT, PRIMARY KEY(note, position));
                CREATE TABLE people(note INTEGER NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL, PRIMARY KEY(note, position));
                CREATE VIRTUAL TABLE folded USING fts5(title, body, tokenize = 'trigram case_sensitive 1');
                PRAGMA user_version = \(version);
                """)
        }
        return database
    }

    /// Where the index of the folder at `resolvedPath` lives: one file per folder, named after it.
    static func path(for resolvedPath: String, in directory: String) -> String {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in resolvedPath.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        let name = URL(fileURLWithPath: resolvedPath).lastPathComponent.filter { $0.isLetter || $0.isNumber || $0 == "-" }
        return directory + "/" + name.prefix(40) + "-" + String(hash, radix: 16) + ".sqlite"
    }

    /// Brings the index up to date with the folder and returns the messages for files left out.
    /// `progress(done, total)` is called while more than a few files are read.
    func refresh(progress: (Int, Int) -> Void = { _, _ in }) throws -> [String] {
        let entries = folder.entries() ?? [:]
        var indexed: [String: (id: Int64, stamp: NotesFolder.Stamp)] = [:]
        let rows = try database.prepare("SELECT id, name, size, modified, inode, changed FROM notes")
        while try rows.step() {
            let stamp = NotesFolder.Stamp(size: rows.integer(2), modified: rows.integer(3), inode: rows.integer(4), changed: rows.integer(5))
            indexed[rows.text(1) ?? ""] = (rows.integer(0), stamp)
        }
        let stale = indexed.filter { entries[$0.key] != $0.value.stamp }.map(\.value.id)
        let fresh = entries.filter { indexed[$0.key]?.stamp != $0.value }.map(\.key).sorted()
        if !stale.isEmpty || !fresh.isEmpty {
            // FTS5 writes its pending rows out at every statement, so the full-text rows go in
            // and out a batch per statement, through a temporary table.
            try database.execute("""
                CREATE TEMP TABLE IF NOT EXISTS pending(id INTEGER PRIMARY KEY, title TEXT, body TEXT);
                DELETE FROM temp.pending;
                """)
            try database.transaction {
                let pending = try database.prepare("INSERT INTO temp.pending(id) VALUES (?)")
                for id in stale { try pending.run([.integer(id)]) }
                try database.execute("""
                    DELETE FROM notes WHERE id IN (SELECT id FROM temp.pending);
                    DELETE FROM tasks WHERE note IN (SELECT id FROM temp.pending);
                    DELETE FROM people WHERE note IN (SELECT id FROM temp.pending);
                    DELETE FROM folded WHERE rowid IN (SELECT id FROM temp.pending);
                    DELETE FROM temp.pending;
                    """)
                let writer = try Writer(database)
                // Reading, folding and finding tasks is most of the work: both cores do it, a
                // batch at a time, and the rows go in on this thread.
                for start in stride(from: 0, to: fresh.count, by: 256) {
                    if fresh.count > 100 { progress(start, fresh.count) }
                    let batch = Array(fresh[start..<min(start + 256, fresh.count)])
                    for file in Self.indexed(batch, from: folder) { try writer.add(file, listedAs: entries[file.name]!) }
                    try database.execute("""
                        INSERT INTO folded(rowid, title, body) SELECT id, title, body FROM temp.pending;
                        DELETE FROM temp.pending;
                        """)
                }
                if fresh.count > 100 { progress(fresh.count, fresh.count) }
            }
        }
        var skipped: [String] = []
        let skips = try database.prepare("SELECT name, skip FROM notes WHERE skip IS NOT NULL ORDER BY name")
        while try skips.step() { skipped.append(Self.skip(skips.text(1) ?? "").message(folder.path + "/" + (skips.text(0) ?? ""))) }
        return skipped
    }

    /// Rewrites the full-text index without the rows of deleted notes (FTS5 otherwise keeps
    /// them in its segments until a merge) and empties the write-ahead log, so that a note the
    /// person deleted leaves no words behind in the cache.
    func purge() throws {
        try database.execute("INSERT INTO folded(folded) VALUES ('optimize'); PRAGMA wal_checkpoint(TRUNCATE);")
    }

    /// Every indexed note (its front matter and title, not its body), by its row.
    func notes() throws -> [Int64: NoteFile] {
        var notes: [Int64: NoteFile] = [:]
        let rows = try database.prepare("""
            SELECT id, name, note_id, title, created, zone, language, key_sentence FROM notes WHERE skip IS NULL
            """)
        while try rows.step() {
            let zone = rows.real(5).map { TimeZone(secondsFromGMT: Int($0)) } ?? nil
            notes[rows.integer(0)] = NoteFile(path: folder.path + "/" + (rows.text(1) ?? ""), id: rows.text(2) ?? "",
                                              created: rows.real(4).map(Date.init(timeIntervalSinceReferenceDate:)),
                                              title: rows.text(3) ?? "", language: rows.text(6).map(Language.init), keySentence: rows.text(7),
                                              timeZone: zone)
        }
        return notes
    }

    /// The ids of the notes whose folded title or body contains the folded `needle`.
    func matches(_ needle: String) throws -> Set<Int64> {
        let scan = "instr(title, ?2) > 0 OR instr(body, ?2) > 0"
        let query = needle.unicodeScalars.count >= 3
            ? try database.prepare("SELECT rowid FROM folded WHERE folded MATCH ?1 AND (\(scan))")
            : try database.prepare("SELECT rowid FROM folded WHERE ?1 IS NOT NULL AND (\(scan))")
        query.bind([.text("\"" + needle.replacingOccurrences(of: "\"", with: "\"\"") + "\""), .text(needle)])
        var ids: Set<Int64> = []
        while try query.step() { ids.insert(query.integer(0)) }
        return ids
    }

    /// The task items of every note, by note id, in their order in the note.
    func tasks() throws -> [(note: Int64, text: String, done: Bool, due: String?)] {
        var tasks: [(Int64, String, Bool, String?)] = []
        let rows = try database.prepare("SELECT note, text, done, due FROM tasks ORDER BY note, position")
        while try rows.step() { tasks.append((rows.integer(0), rows.text(1) ?? "", rows.integer(2) != 0, rows.text(3))) }
        return tasks
    }

    /// The people of every note (its `people:` line), by note id, in their order in the note.
    func people() throws -> [(note: Int64, name: String)] {
        var people: [(Int64, String)] = []
        let rows = try database.prepare("SELECT note, name FROM people ORDER BY note, position")
        while try rows.step() { people.append((rows.integer(0), rows.text(1) ?? "")) }
        return people
    }

    static func skip(_ stored: String) -> NotesFolder.Skip {
        switch stored {
        case "link": .link
        case "notRegular": .notRegular
        case "binary": .binary
        case "tooLarge": .tooLarge
        default: .unreadable(String(stored.drop { $0 != ":" }.dropFirst()))
        }
    }

    static func stored(_ skip: NotesFolder.Skip) -> String {
        switch skip {
        case .link: "link"
        case .notRegular: "notRegular"
        case .binary: "binary"
        case .tooLarge: "tooLarge"
        case .unreadable(let reason): "unreadable:" + reason
        }
    }

    /// One file as the index holds it: the note's fields, its folded text and its tasks, or why
    /// it is left out.
    struct IndexedFile: Sendable {
        var name: String
        var note: Result<NoteFile, NotesFolder.Skip>
        var foldedTitle = "", foldedBody = ""
        var tasks: [NoteTask] = []
    }

    static func indexed(_ names: [String], from folder: NotesFolder) -> [IndexedFile] {
        let results = Mutex([IndexedFile?](repeating: nil, count: names.count))
        DispatchQueue.concurrentPerform(iterations: names.count) { index in
            let name = names[index]
            var file = IndexedFile(name: name, note: folder.read(name).map { NoteFile(path: name, text: $0.text) })
            if case .success(let note) = file.note {
                file.foldedTitle = NotesStore.folded(note.title)
                file.foldedBody = NotesStore.folded(note.body)
                file.tasks = TaskListing.tasks(in: note)
            }
            results.withLock { $0[index] = file }
        }
        return results.withLock { $0.compactMap { $0 } }
    }

    /// Adds one file's rows.
    private struct Writer {
        let note, folded, task, person: SQLiteStatement

        init(_ database: SQLiteDatabase) throws {
            note = try database.prepare("""
                INSERT INTO notes(name, size, modified, inode, changed, skip, note_id, title, created, zone, language, key_sentence)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
                """)
            folded = try database.prepare("INSERT INTO temp.pending(id, title, body) VALUES (?, ?, ?)")
            task = try database.prepare("INSERT INTO tasks(note, position, text, done, due) VALUES (?, ?, ?, ?, ?)")
            person = try database.prepare("INSERT INTO people(note, position, name) VALUES (?, ?, ?)")
        }

        func add(_ file: IndexedFile, listedAs listed: NotesFolder.Stamp) throws {
            // The stamp listed, not the one read: a file changed between the two is read again next time.
            let stamp: [SQLiteValue] = [.text(file.name), .integer(listed.size), .integer(listed.modified), .integer(listed.inode),
                                        .integer(listed.changed)]
            let parsed: NoteFile
            switch file.note {
            case .failure(let skip):
                try note.run(stamp + [.text(NotesIndex.stored(skip))] + Array(repeating: .null, count: 6))
                return
            case .success(let found): parsed = found
            }
            note.bind(stamp + [.null, .text(parsed.id), .text(parsed.title),
                               parsed.created.map { .real($0.timeIntervalSinceReferenceDate) } ?? .null,
                               parsed.timeZone.map { .real(Double($0.secondsFromGMT())) } ?? .null,
                               .optional(parsed.language?.code), .optional(parsed.keySentence)])
            guard try note.step() else { return }
            let id = note.integer(0)
            while try note.step() {}
            try folded.run([.integer(id), .text(file.foldedTitle), .text(file.foldedBody)])
            for (position, item) in file.tasks.enumerated() {
                try task.run([.integer(id), .integer(Int64(position)), .text(item.text), .integer(item.done ? 1 : 0), .optional(item.due)])
            }
            for (position, name) in parsed.people.enumerated() {
                try person.run([.integer(id), .integer(Int64(position)), .text(name)])
            }
        }
    }
}
