import Foundation
import Testing
@testable import Speech

/// The exchange's one stream, driven with synthetic chunks (no server): speech at every turn
/// boundary ends up in an answer, from its first sound.
@Suite("AnswerStream: no word falls between two listens")
struct AnswerStreamTests {
    static let rate = 16_000

    /// The stream with a fake capture: chunks of 10 ms, as a record stream delivers them.
    final class Driver {
        let stream = AnswerStream(sampleRate: AnswerStreamTests.rate)
        var flushed = 0

        init(ownVoice: Listener.OwnVoice = .unheard) { stream.ownVoice = ownVoice }

        func feed(_ audio: [Float]) {
            audio.withUnsafeBufferPointer { buffer in
                for start in stride(from: 0, to: buffer.count, by: 160) {
                    stream.receive(UnsafeBufferPointer(rebasing: buffer[start..<min(start + 160, buffer.count)]), at: .now)
                }
            }
        }

        func listen(continuing: Bool = false, configuration: Endpointing.Configuration = .default) -> ListenSession {
            let session = ListenSession(configuration: configuration, sampleRate: AnswerStreamTests.rate,
                                        watchdogTimeout: 5, device: "fake", onEvent: nil)
            session.onEnd = { [weak self, weak session] result in
                guard let self, let session else { return }
                self.stream.end(session, with: result)
            }
            stream.begin(session, continuing: continuing) { armed in
                self.flushed += 1
                armed()
            }
            return session
        }

        func result(_ session: ListenSession) async throws -> ListenResult {
            try #require(session.isFinished, "the listen has not ended")
            return try await withCheckedThrowingContinuation { session.install($0) }
        }

        func question(_ audio: [Float]) {
            stream.questionStarts(configuration: .default)
            feed(audio)
            stream.questionEnds()
        }
    }

    /// Seconds of voice from the first audible sample to the last in `samples`.
    static func voiced(_ samples: [Float]) throws -> Double {
        let onset = try #require(Signal.onset(samples))
        let end = try #require(Signal.audibleEnd(samples, sampleRate: rate))
        return Double(end - onset) / Double(rate)
    }

    static func silence(_ seconds: Double) -> [Float] { makeAudio { _ = $0.silence(seconds) } }
    static func voice(_ seconds: Double) -> [Float] { makeAudio { _ = $0.voice(seconds, dBFS: -20) } }

    /// An answer heard to its end at its silence.
    static func answered(_ driver: Driver, voice seconds: Double = 1) async throws -> ListenResult {
        let first = driver.listen()
        driver.feed(Self.silence(0.3) + voice(seconds) + Self.silence(1.0))
        let heard = try await driver.result(first)
        try #require(heard.ending == .endOfSpeech)
        return heard
    }

    @Test func thePersonAnsweringOverAQuestionIsHeardFromTheirFirstSound() async throws {
        let driver = Driver()
        _ = try await Self.answered(driver)
        // The question plays 2 s (the person is past going on), then they answer over it.
        driver.stream.questionStarts(configuration: .default)
        driver.feed(Self.silence(2.0))
        driver.feed(Self.voice(0.5))
        #expect(driver.stream.speechOverQuestion == .answers)
        driver.stream.questionEnds()   // stopped
        let next = driver.listen()
        driver.feed(Self.voice(0.7) + Self.silence(1.0))
        let heard = try await driver.result(next)
        #expect(heard.ending == .endOfSpeech)
        #expect(abs(try Self.voiced(heard.samples) - 1.2) < 0.03, "the answer over the question lost its start")
        #expect(driver.flushed == 0, "the server's buffer was flushed mid-exchange")
    }

    @Test func goingOnAtTheStartOfAQuestionKeepsEverySampleOfOneAnswer() async throws {
        let driver = Driver()
        let first = try await Self.answered(driver)
        driver.stream.questionStarts(configuration: .default)
        driver.feed(Self.silence(0.4) + Self.voice(0.3))
        #expect(driver.stream.speechOverQuestion == .goesOn)
        driver.stream.questionEnds()
        let whole = driver.listen(continuing: true)
        driver.feed(Self.voice(0.5) + Self.silence(1.0))
        let heard = try await driver.result(whole)
        #expect(Array(heard.samples.prefix(first.samples.count)) == first.samples)
        // After the first part: the rest of its silence, the 0.4 s into the question, then the
        // voice, whole: no sample is missing between the cut-off and the resume.
        let rest = Array(heard.samples.dropFirst(first.samples.count))
        let silenceAfterEndpoint = 1.0 - Endpointing.Configuration.default.hangover
        let onset = Double(try #require(Signal.onset(rest))) / Double(Self.rate)
        #expect(abs(onset - (silenceAfterEndpoint + 0.4)) < 0.015, "the voice starts at \(onset) s after the first part")
        #expect(abs(try Self.voiced(rest) - 0.8) < 0.03)
    }

    @Test func speechStartingJustBeforeTheQuestionEndsStartsTheNextAnswer() async throws {
        let driver = Driver()
        _ = try await Self.answered(driver)
        // 50 ms of voice before the question ends: too short for the watch to call it speech.
        driver.stream.questionStarts(configuration: .default)
        driver.feed(Self.silence(2.5) + Self.voice(0.05))
        #expect(driver.stream.speechOverQuestion == nil)
        driver.stream.questionEnds()
        let next = driver.listen()
        driver.feed(Self.voice(0.6) + Self.silence(1.0))
        let heard = try await driver.result(next)
        #expect(abs(try Self.voiced(heard.samples) - 0.65) < 0.03, "the voice before the question's end was dropped")
    }

    @Test func whatIsSaidBetweenTheQuestionsEndAndTheListenIsKept() async throws {
        let driver = Driver()
        _ = try await Self.answered(driver)
        driver.question(Self.silence(1.5))
        driver.feed(Self.voice(0.2))   // before the next listen begins
        let next = driver.listen()
        driver.feed(Self.voice(0.6) + Self.silence(1.0))
        #expect(abs(try Self.voiced(try await driver.result(next).samples) - 0.8) < 0.03)
    }

    @Test func speechJustBeforeTheNoAnswerTimeoutIsAnAnswer() async throws {
        let driver = Driver()
        var configuration = Endpointing.Configuration.default
        configuration.noAnswerTimeout = 1
        let listen = driver.listen(configuration: configuration)
        driver.feed(Self.silence(0.97) + Self.voice(0.6) + Self.silence(1.0))
        let heard = try await driver.result(listen)
        #expect(heard.ending == .endOfSpeech)
        #expect(abs(try Self.voiced(heard.samples) - 0.6) < 0.03)
    }

    /// Where the question may be heard by the microphone, its sound is not taken for the person,
    /// and the listen after it starts fresh (the server's buffer may hold the question's end).
    @Test func aLoudspeakerQuestionIsNotThePerson() async throws {
        let driver = Driver(ownVoice: .mayBeHeard)
        _ = try await Self.answered(driver)
        driver.question(Self.voice(1.0))
        #expect(driver.stream.speechOverQuestion == nil)
        #expect(driver.flushed == 0, "no question had played before the first listen: nothing to drop")
        let next = driver.listen()
        #expect(driver.flushed == 1)
        driver.feed(Self.silence(0.5) + Self.voice(0.6) + Self.silence(1.0))
        #expect(abs(try Self.voiced(try await driver.result(next).samples) - 0.6) < 0.03)
    }

    @Test func theRecordingKeepsItsIndicesWhenItForgets() {
        var recording = ExchangeRecording(sampleRate: 100, longest: 1)
        let chunk = (0..<30).map(Float.init)
        for _ in 0..<10 { chunk.withUnsafeBufferPointer { recording.append($0) } }
        #expect(recording.end == 300)
        #expect(Array(recording.samples(from: 290)) == Array(chunk[20...]))
        #expect(recording.samples(from: 0).count <= 125, "it keeps at most a quarter over its length")
        #expect(recording.samples(from: 0).count >= 100)
    }
}

extension AnswerStreamTests {
    /// The person went on over a question, paused longer than the silence that ends an answer,
    /// and went on again, all before the listen began: the listen ends at that pause, inside
    /// the audio it started with, and what followed is the next part, not lost.
    @Test func aPauseInsideWhatWasSaidBeforeTheListenLosesNothingAfterIt() async throws {
        let driver = Driver()
        let first = try await Self.answered(driver)
        driver.stream.questionStarts(configuration: .default)
        driver.feed(Self.silence(0.2) + Self.voice(0.5) + Self.silence(1.0) + Self.voice(0.4))
        #expect(driver.stream.speechOverQuestion == .goesOn)
        driver.stream.questionEnds(stopped: true)
        let second = try await driver.result(driver.listen(continuing: true))
        #expect(second.ending == .endOfSpeech)
        #expect(driver.stream.speechOverQuestion == .goesOn, "the voice after the pause was not heard")
        let third = driver.listen(continuing: true)
        driver.feed(Self.voice(0.3) + Self.silence(1.0))
        let whole = try await driver.result(third)
        // Everything since the first part's endpoint, in order: 0.5 s, the pause, then 0.7 s.
        let rest = Array(whole.samples.dropFirst(first.samples.count))
        let span = try Self.voiced(rest)
        #expect(abs(span - 2.2) < 0.03, "the parts span \(span) s, not 2.2 s")
        #expect(Array(whole.samples.prefix(second.samples.count)) == second.samples)
    }
}

extension AnswerStreamTests {
    /// On a microphone that may hear the loudspeaker, before any question plays, the person
    /// going on after a pause is heard as on any other: only a question's sound is not watched.
    @Test func onALoudspeakerMicrophoneGoingOnBeforeTheQuestionIsHeard() async throws {
        let driver = Driver(ownVoice: .mayBeHeard)
        _ = try await Self.answered(driver)
        driver.feed(Self.voice(0.3))
        #expect(driver.stream.speechOverQuestion == .goesOn)
    }
}

extension AnswerStreamTests {
    /// The person was already speaking when the listen began (they started over the question's
    /// end, where a loudspeaker question could not be told from them): the listen judges their
    /// voice against the room as heard before, not against its own first frame, which was their
    /// voice. Seen on a real French voice: 2.6 s said over and after a short opening question
    /// were heard only at their last syllable and read as nothing. At the first question, the
    /// room is what the microphone heard before it played; later, what the last listen heard.
    @Test(arguments: [true, false])
    func speechUnderWayWhenTheListenBeginsIsHeard(atTheFirstQuestion: Bool) async throws {
        let driver = Driver(ownVoice: .mayBeHeard)
        if atTheFirstQuestion {
            driver.feed(Self.silence(0.4))   // the microphone opens before the first question
        } else {
            _ = try await Self.answered(driver)
        }
        driver.question(Self.silence(1.0))
        let next = driver.listen()
        driver.feed(Self.voice(1.5) + Self.silence(1.0))
        let heard = try await driver.result(next)
        #expect(heard.ending == .endOfSpeech)
        #expect(abs(try Self.voiced(heard.samples) - 1.5) < 0.05)
    }
}
