import Foundation
import Testing
import Transcription

/// The overlap's bookkeeping: text transcribed at a pause is used only for the answer it was
/// started on, and stale work is cancelled.
@Suite("Speculative transcription")
struct SpeculationTests {
    /// A stand-in for whisper that names the clip it was given and notes cancellations.
    final class FakeWhisper: @unchecked Sendable {
        let lock = NSLock()
        var cancelled: [Int] = []
        func transcribe(_ clip: [Float], _ cancel: CancelFlag) async throws -> String {
            try await Task.sleep(for: .milliseconds(50))
            if cancel.isCancelled { lock.withLock { cancelled.append(clip.count) }; throw CancellationError() }
            return "clip of \(clip.count)"
        }
    }

    let clip: [Float] = (0..<1_000).map { Float($0) / 1_000 }
    var answer: [Float] { clip + [Float](repeating: 0, count: 500) }

    @Test func theTextStandsForAnAnswerThatOnlyAddedSilence() async {
        let whisper = FakeWhisper(), speculation = Speculation()
        speculation.start(clip, transcribe: whisper.transcribe)
        #expect(await speculation.result(coveringAllSpeechIn: answer) == "clip of 1000")
    }

    @Test func abandonedWorkIsCancelledAndNotUsed() async throws {
        let whisper = FakeWhisper(), speculation = Speculation()
        speculation.start(clip, transcribe: whisper.transcribe)
        speculation.resumed()   // under the default minimum: cancelled
        #expect(await speculation.result(coveringAllSpeechIn: answer) == nil)
        speculation.start(clip, transcribe: whisper.transcribe)
        speculation.abandon()
        #expect(await speculation.result(coveringAllSpeechIn: answer) == nil)
        try await Task.sleep(for: .milliseconds(150))
        #expect(whisper.lock.withLock { whisper.cancelled } == [1_000, 1_000])
    }

    @Test func aNewPauseReplacesTheOldOne() async throws {
        let whisper = FakeWhisper(), speculation = Speculation()
        speculation.start(Array(clip.prefix(400)), transcribe: whisper.transcribe)
        speculation.start(clip, transcribe: whisper.transcribe)
        #expect(await speculation.result(coveringAllSpeechIn: answer) == "clip of 1000")
        try await Task.sleep(for: .milliseconds(150))
        #expect(whisper.lock.withLock { whisper.cancelled } == [400])
    }

    @Test func stretchesKeptAtPausesAreJoinedWithTheLastOne() async throws {
        let whisper = FakeWhisper(), speculation = Speculation(minimumStretch: 300, separator: " ")
        speculation.start(Array(clip.prefix(100)), transcribe: whisper.transcribe)
        #expect(!speculation.resumed(), "a stretch under the minimum is not kept")
        speculation.start(Array(clip.prefix(400)), transcribe: whisper.transcribe)
        #expect(speculation.resumed())
        speculation.start(clip, transcribe: whisper.transcribe)   // transcribes samples 400..<1000 only
        #expect(await speculation.result(coveringAllSpeechIn: answer) == "clip of 400 clip of 600")
        try await Task.sleep(for: .milliseconds(150))   // the cancelled work notices at its next check
        #expect(whisper.lock.withLock { whisper.cancelled } == [100])
    }

    @Test func speechAfterTheLastPauseIsNotCovered() async {
        let whisper = FakeWhisper(), speculation = Speculation(minimumStretch: 300)
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
    }
}
