import Foundation
import Synchronization
import Testing
@testable import VoiceSession

@Suite("EngineArbiter: background work yields to foreground work and starts over")
struct EngineArbiterTests {
    /// Background work that runs until it is cancelled or `release` is set; counts its starts.
    final class Work: Sendable {
        let starts = Atomic<Int>(0)
        let running = Atomic<Bool>(false)
        let release = Atomic<Bool>(false)
        func run() async throws -> String {
            starts.add(1, ordering: .relaxed)
            running.store(true, ordering: .relaxed)
            defer { running.store(false, ordering: .relaxed) }
            while !release.load(ordering: .relaxed) {
                try Task.checkCancellation()
                try await Task.sleep(for: .milliseconds(2))
            }
            return "done"
        }
    }

    func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<2_000 where !condition() { try await Task.sleep(for: .milliseconds(5)) }
        try #require(condition())
    }

    @Test func foregroundStopsTheBackgroundRunWhichStartsOverAfterIt() async throws {
        let arbiter = EngineArbiter(), work = Work()
        let background = Task { try await arbiter.background { try await work.run() } }
        try await waitUntil { work.running.load(ordering: .relaxed) }
        let seen = await arbiter.foreground { () -> Bool in
            // The background run has stopped before foreground work begins.
            work.running.load(ordering: .relaxed)
        }
        #expect(seen == false)
        try await waitUntil { work.starts.load(ordering: .relaxed) == 2 && work.running.load(ordering: .relaxed) }
        work.release.store(true, ordering: .relaxed)
        #expect(try await background.value == "done")
    }

    /// Work that only saves time later (a draft while the person speaks) never stops a final
    /// pass under way: it is skipped. With no background run, it runs as foreground work.
    @Test func workThatOnlySavesTimeGivesWayToTheBackgroundRun() async throws {
        let arbiter = EngineArbiter(), work = Work()
        #expect(await arbiter.unlessBackground { "ran" } == "ran")
        let background = Task { try await arbiter.background { try await work.run() } }
        try await waitUntil { work.running.load(ordering: .relaxed) }
        #expect(await arbiter.unlessBackground { "ran" } == nil)
        #expect(work.running.load(ordering: .relaxed) && work.starts.load(ordering: .relaxed) == 1, "the background run was stopped")
        work.release.store(true, ordering: .relaxed)
        #expect(try await background.value == "done")
    }

    @Test func backgroundWaitsWhileForegroundWorkIsUnderWay() async throws {
        let arbiter = EngineArbiter(), work = Work()
        work.release.store(true, ordering: .relaxed)
        let inForeground = Atomic<Bool>(false), leave = Atomic<Bool>(false)
        let foreground = Task {
            await arbiter.foreground {
                inForeground.store(true, ordering: .relaxed)
                while !leave.load(ordering: .relaxed) { try? await Task.sleep(for: .milliseconds(2)) }
            }
        }
        try await waitUntil { inForeground.load(ordering: .relaxed) }
        let background = Task { try await arbiter.background { try await work.run() } }
        try await Task.sleep(for: .milliseconds(50))
        #expect(work.starts.load(ordering: .relaxed) == 0)
        leave.store(true, ordering: .relaxed)
        await foreground.value
        #expect(try await background.value == "done")
        #expect(work.starts.load(ordering: .relaxed) == 1)
    }

    @Test func cancellingTheCallerEndsTheBackgroundWork() async throws {
        let arbiter = EngineArbiter(), work = Work()
        let background = Task { try await arbiter.background { try await work.run() } }
        try await waitUntil { work.running.load(ordering: .relaxed) }
        background.cancel()
        await #expect(throws: CancellationError.self) { try await background.value }
        #expect(work.starts.load(ordering: .relaxed) == 1)
    }

    /// Two background runs never overlap: the second starts when the first is done.
    @Test func backgroundRunsGoOneAtATime() async throws {
        let arbiter = EngineArbiter(), first = Work(), second = Work()
        let one = Task { try await arbiter.background { try await first.run() } }
        try await waitUntil { first.running.load(ordering: .relaxed) }
        let two = Task { try await arbiter.background { try await second.run() } }
        try await Task.sleep(for: .milliseconds(400))
        #expect(second.starts.load(ordering: .relaxed) == 0 && first.starts.load(ordering: .relaxed) == 1)
        first.release.store(true, ordering: .relaxed)
        second.release.store(true, ordering: .relaxed)
        #expect(try await one.value == "done")
        #expect(try await two.value == "done")
        #expect(second.starts.load(ordering: .relaxed) == 1)
    }

    /// Spare work (an answer read again) is stopped for other background work, waits while any
    /// is asked for, and starts over after it.
    @Test func spareWorkYieldsToOtherBackgroundWork() async throws {
        let arbiter = EngineArbiter(), spare = Work(), first = Work()
        let again = Task { try await arbiter.background(spare: true) { try await spare.run() } }
        try await waitUntil { spare.running.load(ordering: .relaxed) }
        let reading = Task { try await arbiter.background { try await first.run() } }
        try await waitUntil { first.running.load(ordering: .relaxed) }
        let spareRunning = spare.running.load(ordering: .relaxed)
        #expect(!spareRunning, "the spare run was stopped")
        try await Task.sleep(for: .milliseconds(400))
        #expect(spare.starts.load(ordering: .relaxed) == 1, "and waits while the other runs")
        first.release.store(true, ordering: .relaxed)
        #expect(try await reading.value == "done")
        try await waitUntil { spare.starts.load(ordering: .relaxed) == 2 }
        spare.release.store(true, ordering: .relaxed)
        #expect(try await again.value == "done")
    }

    /// Cancelled while it waits for another run, background work ends at once.
    @Test(.timeLimit(.minutes(1))) func cancellingAWaitingRunEndsItAtOnce() async throws {
        let arbiter = EngineArbiter(), running = Work(), waiting = Work()
        let one = Task { try await arbiter.background { try await running.run() } }
        try await waitUntil { running.running.load(ordering: .relaxed) }
        let spare = Task { try await arbiter.background(spare: true) { try await waiting.run() } }
        try await Task.sleep(for: .milliseconds(300))
        spare.cancel()
        await #expect(throws: CancellationError.self) { try await spare.value }
        #expect(waiting.starts.load(ordering: .relaxed) == 0)
        running.release.store(true, ordering: .relaxed)
        #expect(try await one.value == "done")
    }

    @Test func anErrorOfTheWorkIsThrown() async throws {
        struct Broken: Error {}
        await #expect(throws: Broken.self) { try await EngineArbiter().background { () async throws -> Int in throw Broken() } }
    }
}
