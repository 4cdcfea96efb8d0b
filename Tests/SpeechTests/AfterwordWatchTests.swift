import Foundation
import Testing
@testable import Speech

/// The afterword's watch, fed synthetic audio (no server): how much voice counts as the person
/// going on, before a question and while one plays into an echo canceller.
@Suite("Afterword: how much voice is the person going on")
struct AfterwordWatchTests {
    static func afterword(hearing audio: [Float], questionPlays: Bool) -> Afterword {
        let afterword = Afterword(answer: [], start: 0, configuration: .default, sampleRate: 16_000)
        if questionPlays { afterword.questionPlays() }
        // In the 10 ms chunks a capture stream delivers: the watch looks after each one.
        audio.withUnsafeBufferPointer { buffer in
            for start in stride(from: 0, to: buffer.count, by: 160) {
                afterword.receive(UnsafeBufferPointer(rebasing: buffer[start..<min(start + 160, buffer.count)]))
            }
        }
        return afterword
    }

    /// The shape of the canceller's leftovers measured on the real server: bursts as loud as a
    /// voice, apart by more than the 0.1 s that joins syllables, one of 0.3 s.
    static let echoBursts = makeAudio {
        _ = $0.silence(0.3)
        _ = $0.syllables(2, on: 0.15, off: 0.9, dBFS: -32)
        _ = $0.syllables(3, on: 0.1, off: 0.08, dBFS: -25); _ = $0.silence(1.0)
    }

    @Test func beforeAQuestionAShortStretchOfVoiceIsThePerson() {
        let voice = makeAudio { _ = $0.silence(0.3); _ = $0.voice(0.2, dBFS: -32); _ = $0.silence(0.5) }
        #expect(Self.afterword(hearing: voice, questionPlays: false).heardSpeech)
        #expect(Self.afterword(hearing: Self.echoBursts, questionPlays: false).heardSpeech,
                "control: the bursts are long enough to pass for the person without a question playing")
    }

    /// A tenth of a second of voice stops the next question (so it stops within 150 ms of the
    /// person's first sound); a click does not.
    @Test func beforeAQuestionATenthOfASecondIsEnoughAndAClickIsNot() {
        let voice = makeAudio { _ = $0.silence(0.3); _ = $0.voice(0.11, dBFS: -32); _ = $0.silence(0.5) }
        #expect(Self.afterword(hearing: voice, questionPlays: false).heardSpeech)
        let click = makeAudio { _ = $0.silence(0.3); _ = $0.voice(0.05, dBFS: -20); _ = $0.silence(0.5) }
        #expect(Self.afterword(hearing: click, questionPlays: false).heardSpeech == false)
    }

    @Test func whileAQuestionPlaysEchoBurstsAreNotThePerson() {
        #expect(Self.afterword(hearing: Self.echoBursts, questionPlays: true).heardSpeech == false)
    }

    @Test func whileAQuestionPlaysThePersonGoingOnIsHeard() {
        // Syllables with gaps under 0.1 s join up, as in speech.
        let talking = makeAudio { _ = $0.silence(0.3); _ = $0.syllables(5, on: 0.12, off: 0.06, dBFS: -32) }
        #expect(Self.afterword(hearing: talking, questionPlays: true).heardSpeech)
    }
}
