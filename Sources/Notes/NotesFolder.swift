import Foundation

/// The notes folder as found on disk, which may be synced from elsewhere and hold anything: only
/// regular files directly inside it are read, each opened without following a link and checked
/// after opening, so a planted symlink can never bring a file from outside into a listing or a
/// search, and a binary or huge file is left out with a reason.
struct NotesFolder {
    /// The folder's resolved path: a folder that is itself a symlink (a synced one) still works.
    let path: String

    /// Larger than any note a person writes; a file this big is not read.
    static let largestNote = 4 << 20

    init(directory: String) {
        path = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
    }

    /// What identifies a version of a file: an edit changes the size or the modification time,
    /// and one that keeps both (`rsync -t` of a same-size edit) still changes the inode or ctime.
    struct Stamp: Hashable {
        var size: Int64
        var modified: Int64
        var inode: Int64
        var changed: Int64
    }

    enum Skip: Error, Equatable {
        case link, notRegular, binary, tooLarge, unreadable(String)

        func message(_ path: String) -> String {
            switch self {
            case .link: "\(path) is a symbolic link; it is left out (notes are read only from regular files in the folder)."
            case .notRegular: "\(path) is not a regular file; it is left out."
            case .binary: "\(path) is not text (it holds NUL bytes); it is left out."
            case .tooLarge: "\(path) is larger than \(NotesFolder.largestNote >> 20) MB, too large for a note; it is left out."
            case .unreadable(let reason): "\(path) cannot be read (\(reason)); it is left out."
            }
        }
    }

    /// The `.md` names directly in the folder (hidden ones aside) with their stamps, as lstat sees
    /// them; nil for a missing or unreadable folder.
    func entries() -> [String: Stamp]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var entries: [String: Stamp] = [:]
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
            guard name.hasSuffix(".md"), !name.hasPrefix(".") else { continue }
            var info = stat()
            guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            entries[name] = Self.stamp(info)
        }
        return entries
    }

    /// The file's text and the stamp of what was read, or why it is left out.
    func read(_ name: String) -> Result<(text: String, stamp: Stamp), Skip> {
        let descriptor = open(path + "/" + name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            return .failure(errno == ELOOP ? .link : .unreadable(String(cString: strerror(errno))))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular) }
        guard info.st_size <= Self.largestNote else { return .failure(.tooLarge) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
            if got == 0 { break }
            count += got
        }
        bytes.removeLast(bytes.count - count)
        guard !bytes.contains(0) else { return .failure(.binary) }
        return .success((String(decoding: bytes, as: UTF8.self), Self.stamp(info)))
    }

    static func stamp(_ info: stat) -> Stamp {
        Stamp(size: Int64(info.st_size),
              modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
              inode: Int64(bitPattern: UInt64(info.st_ino)),
              changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }
}
