/// At most `width` holders at once: the cases of a suite that spend most of their time waiting
/// on real-time audio (each on its own private server) overlap, without running so many ggml
/// engines at once that 2 cores collapse.
actor Lanes {
    private let width: Int
    private var busy = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(width: Int) { self.width = width }

    /// Runs `body` once a lane is free.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        if busy < width { busy += 1; return }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the lane straight to the next waiter, if any.
    private func release() {
        if waiting.isEmpty { busy -= 1 } else { waiting.removeFirst().resume() }
    }
}

extension Lanes {
    /// The one limit shared by the spoken-dialogue suites, which run side by side. Two, not
    /// three: with another process keeping one core busy, three dialogues' engines starved the
    /// synthetic person's playback and an answer came after the listen had given up.
    static let spokenDialogues = Lanes(width: 2)
}
