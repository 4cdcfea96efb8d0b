import DialogueCore
import Foundation

public enum NotesError: Error, CustomStringConvertible, Equatable {
    case notWritable(directory: String, reason: String)
    case writeFailed(path: String, reason: String)
    case notFound(String)
    case ambiguous(String, candidates: [String])
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .notWritable(let directory, let reason):
            return "cannot write notes into \(directory): \(reason). Choose another folder with --notes-dir, or fix its permissions."
        case .writeFailed(let path, let reason):
            return "could not write \(path): \(reason)."
        case .notFound(let id):
            return "no note with id \"\(id)\". See them with: dialogue-memo list"
        case .ambiguous(let id, let candidates):
            return "\"\(id)\" matches several notes (\(candidates.joined(separator: ", "))); type more of the id."
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason)."
        }
    }
}

/// The notes folder: Markdown files with YAML front matter. Saving is atomic (a private temp
/// file, fsync, then a hard link that fails rather than replace an existing note), so a crash
/// or a full disk never leaves half a note, and no note is ever overwritten.
public struct NotesStore: Sendable {
    public let directory: String
    /// Where the folder's index is kept (`NotesIndex`).
    let indexDirectory: String

    public init(directory: String, indexDirectory: String = Paths.notesIndexes) {
        self.directory = directory
        self.indexDirectory = indexDirectory
    }

    /// `$XDG_DATA_HOME/dialogue-memo/notes`, else `~/.local/share/dialogue-memo/notes`.
    public static var defaultDirectory: String { Paths.notes }

    /// Saves `markdown` as `<date>-<title slug>.md` (a numeric suffix when the name is taken)
    /// with mode 0600, and returns the path.
    @discardableResult
    public func save(_ markdown: String, created: Date, title: String, timeZone: TimeZone = .current) throws -> String {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw NotesError.notWritable(directory: directory, reason: Self.reason(error))
        }
        let temp = directory + "/.saving-\(UUID().uuidString).tmp"
        try Self.writeDurably(Data(markdown.utf8), to: temp)
        defer { unlink(temp) }
        let stem = Self.fileStem(created: created, title: title, timeZone: timeZone)
        for attempt in 1...10_000 {
            let path = directory + "/" + stem + (attempt == 1 ? "" : "-\(attempt)") + ".md"
            if link(temp, path) == 0 {
                Self.syncDirectory(directory)
                return path
            }
            if errno != EEXIST { throw NotesError.writeFailed(path: path, reason: String(cString: strerror(errno))) }
        }
        throw NotesError.writeFailed(path: directory + "/" + stem + ".md", reason: "too many notes with this name")
    }

    /// The notes found in the folder, newest first, and a message for each file left out (a link,
    /// a binary or huge file, one that cannot be read), so one bad file does not hide the others.
    /// The notes hold their front matter and title, not their text: `note(id:)` reads that.
    public struct Catalog: Sendable {
        public var notes: [NoteFile]
        public var skipped: [String]
    }

    /// The notes through the folder's index, brought up to date first; `progress(done, total)`
    /// while many files are read (a new or rebuilt index).
    public func catalog(progress: (Int, Int) -> Void = { _, _ in }) throws -> Catalog {
        let (_, notes, skipped) = try indexed(progress: progress)
        return Catalog(notes: Self.newestFirst(notes).map { notes[$0]! }, skipped: skipped)
    }

    /// Every note, newest first (see `catalog`).
    public func list() throws -> [NoteFile] { try catalog().notes }

    /// The one note whose id starts with `prefix`, read whole.
    public func note(id prefix: String) throws -> NoteFile {
        let notes = try list()
        let match: NoteFile
        if let exact = notes.first(where: { $0.id == prefix }) {
            match = exact
        } else {
            let matches = notes.filter { $0.id.hasPrefix(prefix) }
            guard !prefix.isEmpty, let first = matches.first else { throw NotesError.notFound(prefix) }
            guard matches.count == 1 else { throw NotesError.ambiguous(prefix, candidates: matches.map(\.id)) }
            match = first
        }
        switch folder.read(URL(fileURLWithPath: match.path).lastPathComponent) {
        case .success(let file): return NoteFile(path: match.path, text: file.text)
        case .failure(let skip): throw NotesError.unreadable(path: match.path, reason: skip.message(match.path))
        }
    }

    /// Notes whose title or body contains `query`, ignoring case, accents and character width
    /// (so "cafe" finds "Café", and full-width "ＡＩ" finds "AI"); works for any script.
    public func search(_ query: String, progress: (Int, Int) -> Void = { _, _ in }) throws -> Catalog {
        let needle = Self.folded(query)
        let (index, notes, skipped) = try indexed(progress: progress)
        guard !needle.isEmpty else { return Catalog(notes: [], skipped: skipped) }
        let found = try index.matches(needle)
        return Catalog(notes: Self.newestFirst(notes.filter { found.contains($0.key) }).map { notes[$0]! }, skipped: skipped)
    }

    /// The task items of every note, newest note first (with `all`, done ones too), and the
    /// files left out (see `catalog`).
    public func tasks(all: Bool, progress: (Int, Int) -> Void = { _, _ in }) throws -> (tasks: [NoteTask], skipped: [String]) {
        let (index, notes, skipped) = try indexed(progress: progress)
        var byNote: [Int64: [NoteTask]] = [:]
        for item in try index.tasks() where all || !item.done {
            guard let note = notes[item.note] else { continue }
            byNote[item.note, default: []].append(NoteTask(note: note, text: item.text, done: item.done, due: item.due))
        }
        return (Self.newestFirst(notes).flatMap { byNote[$0] ?? [] }, skipped)
    }

    /// Every person the notes name, with how many notes name them and the newest one's date
    /// (see `PeopleListing`), and the files left out.
    public func people(progress: (Int, Int) -> Void = { _, _ in }) throws -> (people: [NotedPerson], skipped: [String]) {
        let (index, notes, skipped) = try indexed(progress: progress)
        return (PeopleListing.people(try index.people(), notes: notes), skipped)
    }

    /// The notes that name `person` in their `people:` line, newest first: the words of `person`
    /// as whole words of a name there, case and accents ignored ("Müller" finds "Frau Müller",
    /// "田中" finds "田中さん", "Tom" does not find "Tomatoes").
    public func mentioning(_ person: String, progress: (Int, Int) -> Void = { _, _ in }) throws -> Catalog {
        let (index, notes, skipped) = try indexed(progress: progress)
        var named: [String: Bool] = [:], found: Set<Int64> = []
        for (note, name) in try index.people() {
            let matches = named[name] ?? PeopleFinder.name(name, contains: person)
            named[name] = matches
            if matches { found.insert(note) }
        }
        return Catalog(notes: Self.newestFirst(notes.filter { found.contains($0.key) }).map { notes[$0]! }, skipped: skipped)
    }

    private var folder: NotesFolder { NotesFolder(directory: directory) }

    private func indexed(progress: (Int, Int) -> Void = { _, _ in }) throws
        -> (NotesIndex, [Int64: NoteFile], skipped: [String]) {
        let folder = folder
        try? FileManager.default.createDirectory(atPath: indexDirectory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let path = NotesIndex.path(for: folder.path, in: indexDirectory)
        func attempt(_ path: String) throws -> (NotesIndex, [Int64: NoteFile], skipped: [String]) {
            let index = try NotesIndex(folder: folder, path: path)
            let skipped = try index.refresh(progress: progress)
            return (index, try index.notes(), skipped)
        }
        do {
            return try attempt(path)
        } catch let error as SQLiteError where error.isDamage {
            // A damaged index is only a cache: built again from the notes.
            NotesIndex.discard(path)
            if let rebuilt = try? attempt(path) { return rebuilt }
        } catch {}
        // Another command is building the index, or the cache cannot be written: this command
        // reads the folder itself, into an index that lives as long as it does.
        do { return try attempt(":memory:") } catch {
            throw NotesError.unreadable(path: directory, reason: "its notes could not be indexed (\(error))")
        }
    }

    /// The keys of `notes`, newest note first (then by path, last first): sorted by their keys,
    /// not moved about whole, since a note is a large value to copy.
    static func newestFirst(_ notes: [Int64: NoteFile]) -> [Int64] {
        notes.map { (created: $1.created ?? .distantPast, path: $1.path, key: $0) }
            .sorted { ($0.created, $0.path) > ($1.created, $1.path) }.map(\.key)
    }

    /// Deletes a note and its recording, if it has one.
    public func delete(_ note: NoteFile) throws {
        do { try FileManager.default.removeItem(atPath: note.path) }
        catch { throw NotesError.writeFailed(path: note.path, reason: Self.reason(error)) }
        if let audio = audioPath(of: note) { unlink(audio) }
        Self.syncDirectory(directory)
        try? indexed().0.purge()
    }

    /// Where a note's recording lives: beside it, same name, `.wav`.
    public static func audioPath(forNoteAt path: String) -> String {
        (path.hasSuffix(".md") ? String(path.dropLast(3)) : path) + ".wav"
    }

    /// The note's recording (`record --keep-audio`), nil when it has none.
    public func audioPath(of note: NoteFile) -> String? {
        let path = Self.audioPath(forNoteAt: note.path)
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// Stores a recording beside the note saved at `notePath` — mode 0600, written durably,
    /// never replacing a file. Only `--keep-audio` puts the user's voice on disk.
    @discardableResult
    public func saveAudio(_ wav: Data, besideNoteAt notePath: String) throws -> String {
        let path = Self.audioPath(forNoteAt: notePath)
        let temp = directory + "/.saving-\(UUID().uuidString).tmp"
        try Self.writeDurably(wav, to: temp)
        defer { unlink(temp) }
        guard link(temp, path) == 0 else { throw NotesError.writeFailed(path: path, reason: String(cString: strerror(errno))) }
        Self.syncDirectory(directory)
        return path
    }

    /// Replaces a note's text after an edit, atomically (temp file, fsync, rename).
    public func replace(_ note: NoteFile, with markdown: String) throws {
        let temp = directory + "/.saving-\(UUID().uuidString).tmp"
        try Self.writeDurably(Data(markdown.utf8), to: temp)
        guard rename(temp, note.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temp)
            throw NotesError.writeFailed(path: note.path, reason: reason)
        }
        Self.syncDirectory(directory)
    }

    // MARK: - Helpers

    static func folded(_ text: String) -> String {
        // ASCII only needs its capitals lowered, done here a byte at a time: Foundation's folding
        // is most of the cost of indexing a large folder.
        let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        let base = isASCII ? text : text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        // The Markdown escapes the renderer adds must not hide a match ("C\\+\\+").
        return String(decoding: base.utf8.compactMap { byte in
            byte == 0x5C ? nil : isASCII && byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
        }, as: UTF8.self)
    }

    /// "2026-11-29-frozen-meals-for-busy-people": the date, then up to 6 words of the title in
    /// lowercase ASCII letters and digits (any script's letters are kept as they are).
    static func fileStem(created: Date, title: String, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: created)
        let date = String(format: "%04d-%02d-%02d", c.year ?? 1970, c.month ?? 1, c.day ?? 1)
        let plain = title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        let words = plain.split { !($0.isLetter || $0.isNumber) }.prefix(6)
        var slug = words.joined(separator: "-")
        while slug.utf8.count > 60, let cut = slug.lastIndex(of: "-") ?? slug.indices.last { slug = String(slug[..<cut]) }
        if slug.utf8.count > 60 { slug = String(slug.prefix(20)) }
        return slug.isEmpty ? date : date + "-" + slug
    }

    static func writeDurably(_ data: Data, to path: String) throws {
        do { try DurableFile.create(path, containing: Array(data)) } catch {
            throw error.notCreated ? NotesError.notWritable(directory: (path as NSString).deletingLastPathComponent, reason: error.reason)
                                   : NotesError.writeFailed(path: path, reason: error.reason)
        }
    }

    static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY)
        if fd >= 0 { fsync(fd); close(fd) }
    }

    static func reason(_ error: Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}
