import Foundation

/// Writes that survive a crash or a kill the moment they return: every byte written (short
/// writes and interrupted calls retried), then fsync. The journal appends this way and notes
/// are saved this way; a failure says why, in the system's words.
public enum DurableFile {
    public struct WriteError: Error, CustomStringConvertible {
        public let reason: String
        /// The file could not even be created (the folder is not writable, or the name taken).
        public var notCreated = false
        public var description: String { reason }
    }

    /// Writes all of `bytes` at the descriptor's position, then flushes them to the disk.
    public static func write(_ bytes: [UInt8], to descriptor: Int32) throws(WriteError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBufferPointer { Foundation.write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw WriteError(reason: String(cString: strerror(errno)))
            }
            offset += n
        }
        guard fsync(descriptor) == 0 else { throw WriteError(reason: String(cString: strerror(errno))) }
    }

    /// Creates `path` (mode 0600; it must not exist yet) holding exactly `bytes`, durably. On
    /// failure nothing is left at `path`.
    public static func create(_ path: String, containing bytes: [UInt8]) throws(WriteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw WriteError(reason: String(cString: strerror(errno)), notCreated: true) }
        defer { close(descriptor) }
        do { try write(bytes, to: descriptor) } catch {
            unlink(path)
            throw error
        }
    }
}
