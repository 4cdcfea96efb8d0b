import DialogueCore
import Foundation
import Synchronization

/// The exchange's journal on disk: one JSON line per event, appended with a single write and
/// fsynced, so a crash or kill -9 loses nothing already said. Lives in
/// `$XDG_STATE_HOME/dialogue-memo/journals/` (else `~/.local/state/...`), mode 0600.
public final class FileJournal: JournalWriting, Sendable {
    public let path: String
    /// The open file; -1 once removed.
    private let descriptor: Mutex<Int32>

    public static var defaultDirectory: String { Paths.journals }

    public struct OpenError: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "cannot write the journal \(path): \(reason)" }
    }

    /// Creates a new journal for the memo `id` in `directory`.
    public init(directory: String = FileJournal.defaultDirectory, id: String) throws {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        path = directory + "/\(id).jsonl"
        let opened = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard opened >= 0 else { throw OpenError(path: path, reason: String(cString: strerror(errno))) }
        descriptor = Mutex(opened)
    }

    /// Opens a new journal for `memo` in `directory` and writes its first line (`started`).
    public static func start(_ memo: Memo, in directory: String) throws -> FileJournal {
        let journal = try FileJournal(directory: directory, id: memo.id)
        try journal.append(memo.started)
        return journal
    }

    /// Opens a journal left by an earlier exchange (for `recover`), to append to or remove.
    public static func existing(_ path: String) throws -> FileJournal {
        try FileJournal(path: path)
    }

    private init(path: String) throws {
        self.path = path
        let opened = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard opened >= 0 else { throw OpenError(path: path, reason: String(cString: strerror(errno))) }
        descriptor = Mutex(opened)
    }

    deinit { descriptor.withLock { if $0 >= 0 { close($0) } } }

    public func append(_ event: JournalEvent) throws {
        let bytes = Array(Journal.line(event).utf8)
        try descriptor.withLock { descriptor in
            guard descriptor >= 0 else { throw OpenError(path: path, reason: "closed") }
            do { try DurableFile.write(bytes, to: descriptor) } catch let error as DurableFile.WriteError {
                throw OpenError(path: path, reason: error.reason)
            }
        }
    }

    /// Removes the journal: the exchange was saved or discarded on purpose.
    public func remove() {
        descriptor.withLock { descriptor in
            if descriptor >= 0 { close(descriptor); descriptor = -1 }
            unlink(path)
        }
    }

    /// Journals left by exchanges that never finished (a crash, a kill, a failed save), oldest
    /// first.
    public static func unfinished(in directory: String = FileJournal.defaultDirectory) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.map { directory + "/" + $0 }.sorted {
            let a = (try? FileManager.default.attributesOfItem(atPath: $0)[.modificationDate] as? Date) ?? .distantPast
            let b = (try? FileManager.default.attributesOfItem(atPath: $1)[.modificationDate] as? Date) ?? .distantPast
            return a < b
        }
    }
}
