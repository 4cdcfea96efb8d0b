import DialogueCore
import Foundation
import Speech
import Synchronization
import Testing
@testable import VoiceSession

@Suite struct EngineGateTests {
    @Test func waitReturnsOnlyAfterEveryHeldTask() async {
        let gate = EngineGate()
        let order = Log()
        let (first, releaseFirst) = AsyncStream<Void>.makeStream()
        let (second, releaseSecond) = AsyncStream<Void>.makeStream()
        gate.hold(Task { for await _ in first { break }; order.withLock { $0.append("first done") } })
        gate.hold(Task { for await _ in second { break }; order.withLock { $0.append("second done") } })
        let waiter = Task { await gate.wait(); order.withLock { $0.append("waited") } }
        releaseSecond.yield()
        releaseFirst.yield()
        await waiter.value
        let seen = order.withLock { $0 }
        #expect(seen.last == "waited")
        #expect(Set(seen.dropLast()) == ["first done", "second done"])
    }

    @Test func anEmptyGateDoesNotWait() async {
        await EngineGate().wait()
    }
}

@Suite struct ListenFeedbackTests {
    @Test func levelUpdatesAreThrottledTo80Milliseconds() {
        var meter = LevelMeter()
        let start = ContinuousClock.now
        #expect(meter.throttled(-30, at: start) == 0.5)
        #expect(meter.throttled(-30, at: start + .milliseconds(79)) == nil)
        #expect(meter.throttled(0, at: start + .milliseconds(80)) == 1)
        #expect(meter.throttled(-90, at: start + .milliseconds(200)) == 0)
    }

    @Test func listenEventsBecomeStatusLinesAndEventLines() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let display = RecordingDisplay()
        let pack = try LanguagePackLoader().load("en")
        let feedback = ListenFeedback(pack: pack, display: display, events: try EventLog(destination: scratch.events))
        let start = ContinuousClock.now
        feedback.started()
        feedback.show(.state(.hearingSpeech), at: start)
        feedback.show(.level(-30.04), at: start)
        feedback.show(.level(-12), at: start + .milliseconds(10))   // throttled away
        feedback.show(.pause(clip: [Float](repeating: 0, count: 8_000)), at: start)
        feedback.show(.resumed, at: start)
        feedback.show(.state(.ended(.endOfSpeech)), at: start)
        feedback.show(.level(-30), at: start + .milliseconds(100))
        #expect(display.lines == ["status: Listening… 0.0", "status: Hearing you… 0.49933332", "status: Thinking… 0.5"])
        let events = try scratch.eventLines()
        #expect(events.map { $0["event"] as? String } == ["listening", "hearing", "level", "pause", "resumed", "endpoint", "level"])
        #expect(events[2]["dbfs"] as? Double == -30)
        #expect(events[3]["seconds"] as? Double == 0.5)
        #expect(events[5]["ending"] as? String == "endOfSpeech")
    }
}

@Suite struct InterruptsTests {
    @Test func theFirstCauseStaysUnlessTheSystemAsksToStop() {
        let interrupts = Interrupts(catchesSignals: false)
        let seen = Log()
        interrupts.onInterrupt { cause in seen.withLock { $0.append("\(cause)") } }
        #expect(interrupts.cause == nil)
        interrupts.fire(.key)
        interrupts.fire(.interrupt)
        #expect(interrupts.cause == .key)
        interrupts.fire(.terminate)
        #expect(interrupts.cause == .terminate)
        #expect(seen.withLock { $0 } == ["key", "interrupt", "terminate"])
    }
}

@Suite("A recording's silence countdown")
struct RecordingCountdownTests {
    @Test func showsOnlyOnceAPauseHasLastedASecondAndCountsDown() {
        let start = ContinuousClock.now
        #expect(ListenFeedback.secondsLeft(of: 8, pausedAt: start, now: start + .milliseconds(500)) == nil)
        #expect(ListenFeedback.secondsLeft(of: 8, pausedAt: start, now: start + .milliseconds(900)) == 7)
        #expect(ListenFeedback.secondsLeft(of: 8, pausedAt: start, now: start + .seconds(5)) == 3)
        #expect(ListenFeedback.secondsLeft(of: 8, pausedAt: start, now: start + .seconds(9)) == 0)
    }
}
