import Foundation
import Synchronization
import Testing
import Transcription

/// The overlap's bookkeeping: text transcribed at a pause is used only for the answer it was
/// started on, and stale work is cancelled. No test sleeps: the fake reports what happens to
/// each call, and the tests await those reports in order. The time limit only ends a run that
/// would otherwise hang on a report that never comes.
@Suite("Speculative transcription", .timeLimit(.minutes(1)))
struct SpeculationTests {
    /// A stand-in for whisper. Every call reports that it started; then it answers at once
    /// ("clip of N"), fails, or waits until its task is cancelled, which it reports as well.
    final class FakeWhisper: Sendable {
        enum Event: Equatable, Sendable { case started(Int), cancelled(Int) }
        enum Behaviour: Sendable { case answer, fail, waitForCancellation }
        struct Failure: Error {}

        let behaviour: @Sendable (Int) -> Behaviour
        let events: AsyncStream<Event>
        private let report: AsyncStream<Event>.Continuation

        init(_ behaviour: @escaping @Sendable (_ clipLength: Int) -> Behaviour = { _ in .answer }) {
            self.behaviour = behaviour
            (events, report) = AsyncStream.makeStream()
        }

        func transcribe(_ clip: [Float]) async throws -> String {
            switch behaviour(clip.count) {
            case .answer:
                report.yield(.started(clip.count))
                return "clip of \(clip.count)"
            case .fail:
                report.yield(.started(clip.count))
                throw Failure()
            case .waitForCancellation:
                let (never, end) = AsyncStream<Never>.makeStream()
                await withTaskCancellationHandler {
                    // Reported once the handler is in place: a cancellation after this report
                    // is reported at once, before `cancel()` returns.
                    report.yield(.started(clip.count))
                    for await _ in never {}
                } onCancel: {
                    report.yield(.cancelled(clip.count))
                    end.finish()
                }
                throw CancellationError()
            }
        }
    }

    let clip: [Float] = (0..<1_000).map { Float($0) / 1_000 }
    var answer: [Float] { clip + [Float](repeating: 0, count: 500) }

    @Test func theTextStandsForAnAnswerThatOnlyAddedSilence() async {
        let whisper = FakeWhisper(), speculation = Speculation()
        speculation.start(clip, transcribe: whisper.transcribe)
        #expect(await speculation.result(coveringAllSpeechIn: answer) == "clip of 1000")
    }

    @Test func resumedSpeechCancelsTheWorkAndItIsNotUsed() async {
        let whisper = FakeWhisper { _ in .waitForCancellation }, speculation = Speculation()
        var events = whisper.events.makeAsyncIterator()
        speculation.start(clip, transcribe: whisper.transcribe)
        #expect(await events.next() == .started(1_000))
        speculation.resumed()
        #expect(await events.next() == .cancelled(1_000))
        #expect(await speculation.result(coveringAllSpeechIn: answer) == nil)
    }

    @Test func abandonedWorkIsCancelledAndNotUsed() async {
        let whisper = FakeWhisper { _ in .waitForCancellation }, speculation = Speculation()
        var events = whisper.events.makeAsyncIterator()
        speculation.start(clip, transcribe: whisper.transcribe)
        #expect(await events.next() == .started(1_000))
        speculation.abandon()
        #expect(await events.next() == .cancelled(1_000))
        #expect(await speculation.result(coveringAllSpeechIn: answer) == nil)
    }

    /// The earlier pause's work is cancelled before the new one starts.
    @Test func aNewPauseReplacesTheOldOne() async {
        let whisper = FakeWhisper { $0 < 1_000 ? .waitForCancellation : .answer }, speculation = Speculation()
        var events = whisper.events.makeAsyncIterator()
        speculation.start(Array(clip.prefix(400)), transcribe: whisper.transcribe)
        #expect(await events.next() == .started(400))
        speculation.start(clip, transcribe: whisper.transcribe)
        #expect(await events.next() == .cancelled(400))
        #expect(await events.next() == .started(1_000))
        #expect(await speculation.result(coveringAllSpeechIn: answer) == "clip of 1000")
    }

    @Test func failedWorkIsNotUsed() async {
        let whisper = FakeWhisper { _ in .fail }, speculation = Speculation()
        speculation.start(clip, transcribe: whisper.transcribe)
        #expect(await speculation.result(coveringAllSpeechIn: answer) == nil)
    }

    @Test func speechAfterTheLastPauseIsNotCovered() async {
        let whisper = FakeWhisper(), speculation = Speculation()
        speculation.start(Array(clip.prefix(400)), transcribe: whisper.transcribe)
        speculation.resumed()
        // No pause since: the end of the answer was never transcribed.
        #expect(await speculation.result(coveringAllSpeechIn: answer) == nil)
    }

    @Test func anotherAnswerIsNotCovered() async {
        let whisper = FakeWhisper(), speculation = Speculation()
        speculation.start(clip, transcribe: whisper.transcribe)
        #expect(await speculation.result(coveringAllSpeechIn: Array(clip.prefix(900))) == nil, "shorter than the clip")
        var changed = answer
        changed[10] = 0.5
        #expect(await speculation.result(coveringAllSpeechIn: changed) == nil, "a different start")
        #expect(await speculation.result(coveringAllSpeechIn: answer) == "clip of 1000", "the answer it was started on")
    }
}

/// The draft kept while the person speaks: one pass at a time, a pause stops it and its late
/// result is not kept, and a pause's own tokens become the draft.
@Suite("Draft kept while speaking", .timeLimit(.minutes(1)))
struct DraftKeeperTests {
    /// Passes that report their start (with their draft) and their end, and in between wait
    /// until `release()`.
    final class Passes: Sendable {
        let started: AsyncStream<[Int32]>
        let ended: AsyncStream<Int>
        private let reportStart: AsyncStream<[Int32]>.Continuation
        private let reportEnd: AsyncStream<Int>.Continuation
        private let waiting = Mutex<[CheckedContinuation<Void, Never>]>([])
        private let released = Mutex(0)
        init() {
            (started, reportStart) = AsyncStream.makeStream()
            (ended, reportEnd) = AsyncStream.makeStream()
        }

        func transcribe(_ clip: [Float], draft: [Int32]) async throws -> [Int32] {
            defer { reportEnd.yield(clip.count) }
            await withCheckedContinuation { continuation in
                let go = released.withLock { count in
                    if count > 0 { count -= 1; return true }
                    return false
                }
                if go { continuation.resume() } else { waiting.withLock { $0.append(continuation) } }
                reportStart.yield(draft)
            }
            try Task.checkCancellation()
            return [Int32(clip.count)]
        }

        func release() {
            let next = waiting.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            if let next { next.resume() } else { released.withLock { $0 += 1 } }
        }
    }

    @Test func onePassAtATimeEachFromTheLatestDraft() async {
        let passes = Passes(), keeper = DraftKeeper()
        var started = passes.started.makeAsyncIterator(), ended = passes.ended.makeAsyncIterator()
        keeper.update([7])
        keeper.speaking([0, 0], transcribe: passes.transcribe)
        #expect(await started.next() == [7])
        keeper.speaking([0, 0, 0], transcribe: passes.transcribe)   // busy: not started
        passes.release()
        #expect(await ended.next() == 2)
        while keeper.tokens != [2] { await Task.yield() }
        keeper.speaking([0, 0, 0, 0], transcribe: passes.transcribe)
        #expect(await started.next() == [2], "the next pass starts from the last one's tokens; the busy call left none")
        passes.release()
        #expect(await ended.next() == 4)
        while keeper.tokens != [4] { await Task.yield() }
    }

    @Test func aPauseStopsThePassAndItsResultIsNotKept() async {
        let passes = Passes(), keeper = DraftKeeper()
        var started = passes.started.makeAsyncIterator(), ended = passes.ended.makeAsyncIterator()
        keeper.speaking([0, 0, 0], transcribe: passes.transcribe)
        _ = await started.next()
        keeper.stop()
        keeper.update([9, 9])
        passes.release()
        #expect(await ended.next() == 3)
        // The stopped pass blocks no other, and its result (3) was not kept.
        keeper.speaking([0], transcribe: passes.transcribe)
        #expect(await started.next() == [9, 9])
        #expect(keeper.tokens == [9, 9])
        passes.release()
        #expect(await ended.next() == 1)
        while keeper.tokens != [1] { await Task.yield() }
        keeper.update([])
        #expect(keeper.tokens == [1], "an empty transcript leaves the draft as it was")
    }
}
