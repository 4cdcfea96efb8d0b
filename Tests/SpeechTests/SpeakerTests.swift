import Foundation
import Testing
@testable import Speech

extension SharedDevices {
    @Suite("Speaker (real PulseAudio, real espeak-ng)")
    struct SpeakerTests {
        /// What `speaker.monitor` heard of one play, compared with the rendering.
        struct Heard {
            var startDelay: Double      // call → first sample of the buffer heard (silence excluded)
            var correlation: Double
            var firstEnergy: Float      // first 50 ms of speech, heard / rendered
            var lastEnergy: Float       // last 50 ms of speech, heard / rendered
            var lengthError: Double     // heard speech length − rendered, seconds
            var returnedAfterEnd: Double // play() returned this long after the last sound was heard
        }

        @Test func aPlayedQuestionIsHeardWholeAfterItsLeadingSilence() async throws {
            _ = try TestAudio.directory()
            let question = try TestAudio.speech("What idea would you like to capture?")
            let reference = Signal.floats(question)
            let rate = Double(question.sampleRate)
            let speechOnset = try #require(Signal.onset(reference))
            let speechEnd = try #require(Signal.audibleEnd(reference, sampleRate: question.sampleRate))

            let speaker = try Speaker(server: AudioServer())
            #expect(speaker.deviceName == "speaker")
            let recorder = try MonitorRecorder()
            try await Task.sleep(for: .milliseconds(200))
            var plays: [(called: ContinuousClock.Instant, returned: ContinuousClock.Instant, timing: PlaybackTiming)] = []
            for _ in 0..<3 {
                let called = ContinuousClock.now
                let timing = try await speaker.play(question)
                plays.append((called, .now, timing))
            }
            try await Task.sleep(for: .milliseconds(300))
            let recording = recorder.stop()

            #expect(plays.map(\.timing.leadingSilence) == [0.24, 0.06, 0.06])
            for (number, play) in plays.enumerated() {
                let from = try #require(recording.firstSample(heardAtOrAfter: play.called))
                let until = number + 1 < plays.count
                    ? try #require(recording.firstSample(heardAtOrAfter: plays[number + 1].called)) : recording.samples.count
                let heardOnset = try #require(Signal.onset(Array(recording.samples[from...]))).advanced(by: from)
                let (lag, correlation) = Signal.align(recording.samples, reference, around: heardOnset - speechOnset, radius: 64)
                let first = Signal.rms(recording.samples[(lag + speechOnset)..<(lag + speechOnset + Int(rate * 0.05))])
                    / Signal.rms(reference[speechOnset..<(speechOnset + Int(rate * 0.05))])
                let last = Signal.rms(recording.samples[(lag + speechEnd - Int(rate * 0.05))..<(lag + speechEnd)])
                    / Signal.rms(reference[(speechEnd - Int(rate * 0.05))..<speechEnd])
                let heardEnd = try #require(Signal.audibleEnd(Array(recording.samples[from..<until]),
                                                              sampleRate: question.sampleRate)) + from
                let bufferStart = try #require(recording.time(ofSample: lag)) - .seconds(play.timing.leadingSilence)
                let lastHeard = try #require(recording.time(ofSample: heardEnd))
                let heard = Heard(startDelay: (bufferStart - play.called).seconds, correlation: correlation,
                                  firstEnergy: first, lastEnergy: last,
                                  lengthError: Double((heardEnd - lag) - speechEnd) / rate,
                                  returnedAfterEnd: (play.returned - lastHeard).seconds)
                print(String(format: "speaker play %d: silence %.2f s, start delay %.3f s, correlation %.4f, first 50 ms %.2f, last 50 ms %.2f, length error %+.4f s, returned %+.3f s after the last sound (drain %.3f s + output latency %.3f s)",
                             number + 1, play.timing.leadingSilence, heard.startDelay, heard.correlation, heard.firstEnergy,
                             heard.lastEnergy, heard.lengthError, heard.returnedAfterEnd, play.timing.drainedAfter, play.timing.outputLatency))
                #expect(correlation > 0.95, "play \(number + 1): the heard audio is not the rendering")
                #expect((0.8...1.25).contains(first), "play \(number + 1): the first 50 ms of speech were clipped")
                #expect((0.8...1.25).contains(last), "play \(number + 1): the end of the speech was cut")
                #expect(abs(heard.lengthError) < 0.011)
                #expect(heard.startDelay > -0.03 && heard.startDelay < 0.15, "the leading silence was not played in front")
                #expect(heard.returnedAfterEnd > -0.03, "play() returned before the sound was over")
                #expect(heard.returnedAfterEnd < 0.25, "play() returned long after the sound was over")
            }
        }

        @Test func cancellingStopsTheSoundAtOnce() async throws {
            _ = try TestAudio.directory()
            let long = try TestAudio.speech("This sentence is long enough to be interrupted before it ends, which is the point of the test.")
            let speaker = try Speaker(server: AudioServer())
            let recorder = try MonitorRecorder()
            let playing = Task { try await speaker.play(long) }
            try await Task.sleep(for: .milliseconds(800))
            // One prompt at a time: a second play while one runs is refused, the first goes on.
            await #expect(throws: AudioError.busy(.output)) { try await speaker.play(long) }
            let cancelled = ContinuousClock.now
            playing.cancel()
            await #expect(throws: CancellationError.self) { try await playing.value }
            let returned = (ContinuousClock.now - cancelled).seconds
            try await Task.sleep(for: .milliseconds(400))
            let recording = recorder.stop()
            let lastSound = try #require(Signal.audibleEnd(recording.samples, sampleRate: recording.sampleRate))
            let stoppedAfter = try #require(recording.time(ofSample: lastSound)) - cancelled
            print(String(format: "speaker cancel: play() returned %.3f s after the cancel, the sound stopped %.3f s after it",
                         returned, stoppedAfter.seconds))
            #expect(returned < 0.2)
            #expect(stoppedAfter.seconds < 0.25)
            // The speaker is still usable after a cancel.
            try await speaker.play(try TestAudio.speech("Next."))
        }
    }
}

@Suite("Speaker errors and prompt cache")
struct SpeakerSetupTests {
    @Test func aMissingOutputIsAnErrorNamingTheAlternatives() throws {
        _ = try TestAudio.directory()
        let server = try AudioServer()
        #expect {
            _ = try Speaker(server: server, device: "no-such-speaker")
        } throws: { error in
            guard case AudioError.deviceNotFound(.output, "no-such-speaker", let available) = error else { return false }
            print("missing output: \(error)")
            return available.contains("speaker") && "\(error)".contains("--output")
        }
    }

    @Test func aServerThatGoesAwayIsAnError() async throws {
        let (directory, environment) = try PrivateServer.start()
        defer { PrivateServer.stop(directory) }
        let speaker = try Speaker(server: AudioServer(server: environment))
        try await speaker.play(try TestAudio.speech("One."))
        PrivateServer.stop(directory)
        await #expect {
            try await speaker.play(try TestAudio.speech("Two."))
        } throws: { error in
            print("server gone (speaker): \(error)")
            guard case AudioError.serverGone = error else { return false }
            return true
        }
    }

    @Test func everyQuestionIsRenderedOnceIntoMemory() throws {
        let texts = ["purpose": "What is it for?", "audience": "Who is it for?", "example": "Can you give an example?"]
        let cache = try PromptCache(rendering: texts, voice: "en-us")
        #expect(Set(cache.keys) == Set(texts.keys))
        for key in texts.keys { #expect((cache[key]?.duration ?? 0) > 0.4) }
        #expect(cache["missing"] == nil)
        #expect(cache.byteCount > 0)
        print("prompt cache: \(cache.count) prompts, \(cache.byteCount / 1024) KiB, rendered in \(cache.renderTime)")
        #expect(throws: SpeechError.voiceMissing("xx-nonexistent")) {
            _ = try PromptCache(rendering: texts, voice: "xx-nonexistent")
        }
    }
}
