import Foundation

/// `--events FILE|-`: one JSON object per line for every step of the exchange (question,
/// listening, level, partial, answer, decision, note, saved, error), with a time in seconds
/// since start, so scripts and benchmarks can follow a dialogue from outside.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private let handle: FileHandle?
    private let start = Date()

    init(destination: String?) throws {
        guard let destination else { handle = nil; return }
        if destination == "-" { handle = .standardOutput; return }
        guard FileManager.default.createFile(atPath: destination, contents: nil) ||
              FileManager.default.isWritableFile(atPath: destination),
              let file = FileHandle(forWritingAtPath: destination) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: destination])
        }
        handle = file
    }

    var isActive: Bool { handle != nil }

    func emit(_ type: String, _ fields: [String: Any] = [:]) {
        guard let handle else { return }
        var object = fields
        object["event"] = type
        object["t"] = (Date().timeIntervalSince(start) * 1000).rounded() / 1000
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        lock.withLock {
            handle.write(data)
            handle.write(Data("\n".utf8))
        }
    }
}
