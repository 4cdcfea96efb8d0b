import Foundation
import Testing
@testable import Speech

/// After an answer ended at its silence the listener keeps listening: a person who only paused
/// and goes on is heard on as the same answer, with no sample lost between the two parts.
extension SharedDevices {
    @Suite("Listener: going on after the endpoint (real PulseAudio)")
    struct AfterwordTests {
        /// 1 s of voice, a 1.2 s pause (longer than the 0.7 s default: the answer ends in it),
        /// 0.8 s of voice, then silence.
        static let pausingAnswer: PCMBuffer = {
            let audio = makeAudio {
                _ = $0.silence(0.3); _ = $0.voice(1.0, dBFS: -20); _ = $0.silence(1.2)
                _ = $0.voice(0.8, dBFS: -20); _ = $0.silence(2.0)
            }
            return PCMBuffer(sampleRate: 16_000, samples: audio.map { Int16($0 * 32767) })
        }()

        @Test func anAnswerThatGoesOnIsHeardOnWhole() async throws {
            _ = try TestAudio.directory()
            let listener = try Listener(server: AudioServer())
            listener.ownVoice = .unheard
            let events = EventLog()
            let injection = TestAudio.inject(Self.pausingAnswer, when: { try await events.wait(for: .listening) }, leadingSilence: 0)
            let first = try await listener.listen(configuration: .default, onEvent: events.record)
            #expect(first.ending == .endOfSpeech)
            #expect(try #require(first.timing.speechEnd) - (first.timing.speechStart ?? 0) < 1.1, "the pause did not end the first part")
            #expect(await listener.speechOverQuestion() == .goesOn, "the voice after the pause was not noticed")
            let whole = try await listener.listen(configuration: .default, continuing: true)
            _ = try await injection.value
            #expect(whole.ending == .endOfSpeech)
            // All of the first part, then everything after it: nothing between them is missing.
            #expect(Array(whole.samples.prefix(first.samples.count)) == first.samples)
            let onset = try #require(Signal.onset(whole.samples))
            let end = try #require(Signal.audibleEnd(whole.samples, sampleRate: 16_000))
            let span = Double(end - onset) / 16_000
            #expect(abs(span - 3.0) < 0.05, "voice to voice end spans \(span) s, not the injected 3.0 s")
            // And the whole answer's speech is cut for transcription after its last voice.
            let speech = whole.speech(margin: Endpointing.Configuration.default.pause)
            #expect(abs(Double(speech.count - end) / 16_000 - Endpointing.Configuration.default.pause) < 0.03)
        }

        @Test func withoutEchoCancellationAQuestionEndsTheWatch() async throws {
            _ = try TestAudio.directory()
            let listener = try Listener(server: AudioServer())
            #expect(listener.ownVoice == .mayBeHeard)
            let events = EventLog()
            let injection = TestAudio.inject(Self.pausingAnswer, when: { try await events.wait(for: .listening) }, leadingSilence: 0)
            let first = try await listener.listen(configuration: .default, onEvent: events.record)
            #expect(first.ending == .endOfSpeech)
            // The question starts before the person goes on: what follows could be its sound.
            listener.questionStarts()
            #expect(await listener.speechOverQuestion() == nil)
            _ = try await injection.value
        }

        /// Not continued, what was said since the last answer is the start of the next one:
        /// no word falls between two listens.
        @Test func aNewListenStartsWhereThePersonStarted() async throws {
            _ = try TestAudio.directory()
            let listener = try Listener(server: AudioServer())
            listener.ownVoice = .unheard
            let events = EventLog()
            let injection = TestAudio.inject(Self.pausingAnswer, when: { try await events.wait(for: .listening) }, leadingSilence: 0)
            _ = try await listener.listen(configuration: .default, onEvent: events.record)
            _ = try await injection.value
            let next = try await listener.listen(configuration: .default)
            #expect(next.ending == .endOfSpeech)
            let onset = try #require(Signal.onset(next.samples))
            let end = try #require(Signal.audibleEnd(next.samples, sampleRate: 16_000))
            let span = Double(end - onset) / 16_000
            #expect(abs(span - 0.8) < 0.05, "the second part spans \(span) s in the next answer, not the injected 0.8 s")
        }
    }
}
