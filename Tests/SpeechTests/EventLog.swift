import Foundation
import Speech

/// Collects the events of a listen (they arrive on the audio thread).
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [(event: ListenEvent, at: ContinuousClock.Instant)] = []

    var record: @Sendable (ListenEvent) -> Void {
        { [self] event in lock.withLock { events.append((event, .now)) } }
    }

    var states: [ListenState] {
        lock.withLock { events.compactMap { if case .state(let state) = $0.event { state } else { nil } } }
    }

    var levels: [Double] {
        lock.withLock { events.compactMap { if case .level(let level) = $0.event { level } else { nil } } }
    }

    /// The overlap events in order: "pause" with its clip, "resumed" without.
    var overlapEvents: [(name: String, clip: [Float]?)] {
        lock.withLock {
            events.compactMap {
                switch $0.event {
                case .pause(let clip): ("pause", clip)
                case .resumed: ("resumed", nil)
                default: nil
                }
            }
        }
    }

    /// When `state` was first reported.
    func time(of state: ListenState) -> ContinuousClock.Instant? {
        lock.withLock { events.first { $0.event == .state(state) }?.at }
    }

    /// How many level events (one a chunk of audio) came after `state` was first reported.
    func levelsAfter(_ state: ListenState) -> Int {
        lock.withLock {
            guard let index = events.firstIndex(where: { $0.event == .state(state) }) else { return 0 }
            return events[index...].filter { if case .level = $0.event { true } else { false } }.count
        }
    }

    /// Waits until `count` chunks of audio have been processed after `state` (or `timeout`).
    func wait(forChunks count: Int, after state: ListenState, timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while levelsAfter(state) < count {
            guard ContinuousClock.now < deadline else { throw TestAudioError("no \(count) chunks after \(state) within \(timeout)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits until `state` has been reported (or `timeout` passes).
    func wait(for state: ListenState, timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while time(of: state) == nil {
            guard ContinuousClock.now < deadline else { throw TestAudioError("no \(state) event within \(timeout)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
