import DialogueCore
import Foundation
import Synchronization

/// Hands the note to the person's editor and asks what to do with it. Nothing is saved without
/// this explicit step in interactive use (`--yes` skips it for scripts).
public struct Editor: Sendable {
    public let environment: [String: String]
    /// The editor the settings chose (`SessionConfiguration.editor`), before the environment.
    public let configured: String?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment, configured: String? = nil) {
        self.environment = environment
        self.configured = configured
    }

    /// The configured editor, else `$VISUAL`, then `$EDITOR`, then nano, then vi.
    public var command: [String] {
        for value in [configured, environment["VISUAL"], environment["EDITOR"]] {
            if let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty {
                return value.split(separator: " ").map(String.init)
            }
        }
        for fallback in ["nano", "vi"] where Self.onPath(fallback, environment: environment) { return [fallback] }
        return ["vi"]
    }

    public struct EditorFailed: Error, CustomStringConvertible {
        public let command: String
        public let reason: String
        public var description: String { "the editor \(command) \(reason); set $EDITOR (or editor in the config file) to one that works" }
    }

    public struct DraftNotWritten: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "the note could not be written to \(path) for the editor" }
    }

    /// Opens `text` in the editor and returns the edited text. The draft is private like a
    /// saved note (mode 0600, in a folder of mode 0700) and is removed afterwards.
    public func edit(_ text: String, name: String = "memo.md") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dialogue-memo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw DraftNotWritten(path: file.path)
        }
        let command = self.command
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command + [file.path]
        process.environment = environment
        do { try process.run() } catch {
            throw EditorFailed(command: command.joined(separator: " "), reason: "could not start (\(error.localizedDescription))")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw EditorFailed(command: command.joined(separator: " "), reason: "exited with status \(process.terminationStatus)")
        }
        return try String(contentsOf: file, encoding: .utf8)
    }

    public static func onPath(_ name: String, environment: [String: String]) -> Bool {
        (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
        }
    }
}

/// Lines from standard input (the review prompts and typing mode share it, and its buffer).
/// Reading polls, so that Ctrl-C can end a typed answer that is being waited for.
public final class LineInput: Sendable {
    private struct State { var buffer: [UInt8] = []; var atEnd = false }
    private let state = Mutex(State())
    private let descriptor: Int32

    /// Reads `descriptor` (standard input by default; a pipe in tests).
    public init(descriptor: Int32 = STDIN_FILENO) { self.descriptor = descriptor }

    /// The longest line a terminal passes on in its usual (canonical) mode: Linux keeps 4096
    /// bytes with the newline and drops what is typed or pasted beyond them.
    public static let terminalLineLimit = 4095

    /// Whether the lines come from a terminal.
    public var isTerminal: Bool { isatty(descriptor) == 1 }

    /// Whether `line`, as read, may have been cut by the terminal: it came from one and fills
    /// its line buffer.
    public func mayBeCut(_ line: String) -> Bool {
        isTerminal && line.utf8.count >= Self.terminalLineLimit
    }

    /// The lines no one read, from a pipe or a file (never a terminal, where nothing waits):
    /// what is buffered and what follows up to the end of input, counting those that hold
    /// text. It stops waiting once nothing has come for `patience` seconds.
    public func unusedLines(patience: Int32 = 1_000) -> Int {
        guard !isTerminal else { return 0 }
        return state.withLock { state in
            var newlines = 0, blank = true, lines = 0
            func count(_ bytes: some Sequence<UInt8>) {
                for byte in bytes {
                    if byte == UInt8(ascii: "\n") {
                        if !blank { lines += 1 }
                        blank = true; newlines += 1
                    } else if !(byte == 32 || byte == 9 || byte == 13) { blank = false }
                }
            }
            count(state.buffer)
            state.buffer.removeAll()
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while !state.atEnd {
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, patience) > 0 else { break }
                let n = read(descriptor, &chunk, chunk.count)
                if n > 0 { count(chunk[..<n]) } else if n == 0 || errno != EINTR { state.atEnd = true }
            }
            return lines + (blank ? 0 : 1)
        }
    }

    /// Whether a line with text in it is there to read within `seconds` (typed, piped, or read
    /// already), without reading it. A blank line first, the end of input or `cancelled()`: no.
    public func hasLine(within seconds: Double, cancelled: () -> Bool = { false }) -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        return state.withLock { state in
            while true {
                let line = state.buffer.prefix { $0 != UInt8(ascii: "\n") }
                if line.count < state.buffer.count || state.atEnd {
                    return line.contains { !($0 == 32 || $0 == 9 || $0 == 13) }
                }
                let left = deadline - ContinuousClock.now
                if cancelled() || left <= .zero { return false }
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, Int32(min(100, left.seconds * 1000).rounded(.up))) > 0 else { continue }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = read(descriptor, &chunk, chunk.count)
                if n > 0 { state.buffer += chunk[..<n] } else if n == 0 || errno != EINTR { state.atEnd = true }
            }
        }
    }

    /// The next line without its newline; nil at the end of input or once `cancelled()`.
    public func readLine(cancelled: () -> Bool = { false }) -> String? {
        state.withLock { state in
            while true {
                if let newline = state.buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: state.buffer[..<newline], as: UTF8.self)
                    state.buffer.removeSubrange(...newline)
                    return line.hasSuffix("\r") ? String(line.dropLast()) : line
                }
                if state.atEnd {
                    guard !state.buffer.isEmpty else { return nil }
                    defer { state.buffer.removeAll() }
                    return String(decoding: state.buffer, as: UTF8.self)
                }
                if cancelled() { return nil }
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 100) > 0 else { continue }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = read(descriptor, &chunk, chunk.count)
                if n > 0 { state.buffer += chunk[..<n] } else if n == 0 || errno != EINTR { state.atEnd = true }
            }
        }
    }
}
