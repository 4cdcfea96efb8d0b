import Foundation
import Testing
@testable import Speech

extension SharedDevices {
    @Suite("Listener (real PulseAudio, real espeak-ng)")
    struct ListenerTests {
        static let answerText = "It is a small app that reminds me to water the plants on my balcony."

        /// The exchange as the program runs it, on one connection: a question is played, then
        /// an answer is injected into the microphone 1 s after listening starts. Each preset's
        /// end must be found within its hangover + 150 ms of the injected speech's end.
        @Test func anInjectedAnswerIsHeardAndItsEndFoundWithinTheHangover() async throws {
            _ = try TestAudio.directory()
            let question = try TestAudio.speech("What is it for?")
            let answer = try TestAudio.speech(Self.answerText)
            let reference = Signal.floats(answer)
            let referenceRate = Double(answer.sampleRate)
            let referenceOnset = try #require(Signal.onset(reference))
            let referenceEnd = try #require(Signal.audibleEnd(reference, sampleRate: answer.sampleRate))
            let speechLength = Double(referenceEnd - referenceOnset) / referenceRate
            let reference16k = Signal.resample(Array(reference[referenceOnset..<referenceEnd]), from: answer.sampleRate, to: 16_000)

            let server = try AudioServer()
            let speaker = try Speaker(server: server)
            let listener = try Listener(server: server)
            #expect(listener.deviceName == "mic")

            for configuration in [Endpointing.Configuration.relaxed, .default, .aggressive] {
                try await speaker.play(question)
                let events = EventLog()
                let injection = TestAudio.inject(answer, after: .seconds(1))
                let result = try await listener.listen(configuration: configuration, onEvent: events.record)
                let injected = try await injection.value
                let declaredAt = ContinuousClock.now

                #expect(result.ending == .endOfSpeech)
                #expect(events.states == [.listening, .hearingSpeech, .ended(.endOfSpeech)])
                #expect((events.levels.max() ?? -100) > -30)
                let timing = result.timing
                // Where the injected speech lies in the captured audio: the idle microphone
                // gives exact zeros, so its first sound is the speech onset.
                let onsetInClip = try #require(Signal.onset(result.samples))
                let (lag, correlation) = Signal.align(result.samples, reference16k, around: onsetInClip, radius: 16)
                let injectedStart = result.clipStart + Double(lag) / 16_000
                let injectedEnd = injectedStart + speechLength
                let overHangover = timing.endpoint - injectedEnd - configuration.hangover
                let total = overHangover + (timing.endpointLag ?? 0)
                // An independent figure from the injector's clock: its drain says when the last
                // sample reached the microphone; the speech ended the trailing silence earlier.
                let trailing = Double(reference.count - referenceEnd) / referenceRate
                let injectorEnd = injected.endedAt - .seconds(trailing)
                let byInjector = (declaredAt - injectorEnd).seconds - configuration.hangover
                print(String(format: "listener %@ (hangover %.2f s): first frame %.3f s, speech %.3f–%.3f s (injected %.3f–%.3f s), endpoint %.3f s → %+.3f s over the hangover in audio, lag %.3f s (capture latency %.3f s), total %+.3f s over the hangover (injector clock: ≤ %+.3f s); clip %.2f s, correlation %.3f",
                             configuration == .relaxed ? "relaxed" : configuration == .default ? "default" : "aggressive",
                             configuration.hangover, timing.firstFrameDelay ?? -1, timing.speechStart ?? -1, timing.speechEnd ?? -1,
                             injectedStart, injectedEnd, timing.endpoint, overHangover, timing.endpointLag ?? -1,
                             timing.captureLatency ?? -1, total, byInjector, result.duration, correlation))
                #expect(abs((timing.speechStart ?? 0) - injectedStart) < 0.05, "speech start not found at the injected onset")
                #expect(total <= 0.15, "the end was found more than 150 ms after the hangover")
                #expect(total >= -0.1, "the end was declared before the answer was over")
                #expect(correlation > 0.95, "the captured answer is not the injected one")
                #expect(result.clipStart < injectedStart && result.clipStart + result.duration > injectedEnd,
                        "the returned audio does not hold the whole answer")
                #expect((timing.firstFrameDelay ?? 1) < 0.25)
            }
            // The first stream on a freshly started server waits ~0.6 s for the remap source to
            // start; later ones get audio within milliseconds. The listener opens its stream
            // before the first question, so this never delays a listen.
            let opening = try #require(listener.openingDelay)
            print(String(format: "listener: first audio %.3f s after the stream opened", opening))
            #expect(opening < 3, "the microphone took \(opening) s to deliver audio")
        }

        /// The overlap's contract: a pause inside an answer is reported (`.pause`) and taken
        /// back (`.resumed`) when speech returns; the last pause's clip is exactly the start of
        /// the final answer's audio, so work done on it stands for the whole answer.
        @Test func pausesAreReportedAndTheLastPauseClipStartsTheAnswer() async throws {
            _ = try TestAudio.directory()
            let listener = try Listener(server: AudioServer())
            let audio = makeAudio {
                _ = $0.silence(0.5); _ = $0.voice(1.0, dBFS: -20); _ = $0.silence(0.4)
                _ = $0.voice(0.8, dBFS: -20); _ = $0.silence(1.5)
            }
            let buffer = PCMBuffer(sampleRate: 16_000, samples: audio.map { Int16($0 * 32767) })
            let events = EventLog()
            let injection = TestAudio.inject(buffer, after: .milliseconds(300))
            let result = try await listener.listen(configuration: .default, onEvent: events.record)
            _ = try await injection.value
            let overlap = events.overlapEvents
            #expect(result.ending == .endOfSpeech)
            #expect(overlap.map(\.name) == ["pause", "resumed", "pause"], "\(overlap.map(\.name))")
            let last = try #require(overlap.last?.clip)
            #expect(last.count < result.samples.count)
            #expect(Array(result.samples.prefix(last.count)) == last, "the pause clip is not the start of the answer")
            // It ends ~0.2 s after the speech: everything later is the trailing silence.
            let speechEndInClip = (result.timing.speechEnd ?? 0) - result.clipStart
            #expect(abs(Double(last.count) / 16_000 - speechEndInClip - 0.2) < 0.05)
        }

        @Test func silenceOnlyIsNoAnswer() async throws {
            _ = try TestAudio.directory()
            let listener = try Listener(server: AudioServer())
            let events = EventLog()
            let result = try await listener.listen(onEvent: events.record)
            print(String(format: "listener silence: no answer declared after %.3f s", result.timing.declaredAfter))
            #expect(result.ending == .noAnswer)
            #expect(result.samples.isEmpty)
            #expect(!result.heardSpeech)
            #expect(abs(result.timing.declaredAfter - 8) < 0.3)
            #expect(events.states == [.listening, .ended(.noAnswer)])
        }

        /// An answer that finished before `listen()` is not heard (the question leaking into a
        /// real microphone, or someone speaking over it, is dropped the same way).
        @Test func audioBeforeTheListenIsDropped() async throws {
            _ = try TestAudio.directory()
            let listener = try Listener(server: AudioServer())
            _ = try await TestAudio.inject(try TestAudio.speech("Something said too early."), after: .zero).value
            var configuration = Endpointing.Configuration.default
            configuration.noAnswerTimeout = 1.5
            let result = try await listener.listen(configuration: configuration)
            #expect(result.ending == .noAnswer)
        }

        @Test func cancellingReturnsWhatWasHeardSoFar() async throws {
            _ = try TestAudio.directory()
            let listener = try Listener(server: AudioServer())
            let injection = TestAudio.inject(try TestAudio.speech(Self.answerText), after: .milliseconds(300))
            let events = EventLog()
            let listening = Task { try await listener.listen(onEvent: events.record) }
            try await events.wait(for: .hearingSpeech)
            try await Task.sleep(for: .milliseconds(500))
            let cancelled = ContinuousClock.now
            listening.cancel()
            let result = try await listening.value
            let returned = (ContinuousClock.now - cancelled).seconds
            _ = try await injection.value
            print(String(format: "listener cancel: returned %.3f s after the cancel with %.2f s of audio", returned, result.duration))
            #expect(result.ending == .cancelled)
            #expect(result.heardSpeech)
            #expect(result.duration > 0.6)
            #expect(Signal.rms(result.samples[...]) > 0.01)
            #expect(returned < 0.2)
            #expect(events.states.last == .ended(.cancelled))
        }

        @Test func stopEndsTheAnswerNow() async throws {
            _ = try TestAudio.directory()
            let listener = try Listener(server: AudioServer())
            let injection = TestAudio.inject(try TestAudio.speech(Self.answerText), after: .milliseconds(300))
            let events = EventLog()
            let listening = Task { try await listener.listen(onEvent: events.record) }
            try await events.wait(for: .hearingSpeech)
            listener.stop()
            let result = try await listening.value
            _ = try await injection.value
            #expect(result.ending == .stopped)
            #expect(result.heardSpeech)
            // The listener is ready for the next answer.
            var configuration = Endpointing.Configuration.default
            configuration.noAnswerTimeout = 0.5
            #expect(try await listener.listen(configuration: configuration).ending == .noAnswer)
        }
    }
}

/// Failing microphones: each test has a device (or a server) of its own, so they run in parallel.
@Suite("Listener failures (real PulseAudio)")
struct ListenerFailureTests {
    @Test func aDeadMicrophoneTripsTheWatchdogAtFiveSeconds() async throws {
        _ = try TestAudio.directory()
        let listener = try Listener(server: AudioServer(), device: "deadmic")
        let started = ContinuousClock.now
        await #expect {
            _ = try await listener.listen()
        } throws: { error in
            let elapsed = (ContinuousClock.now - started).seconds
            print(String(format: "watchdog (dead microphone): failed after %.3f s: %@", elapsed, "\(error)"))
            return error as? AudioError == .microphoneSilent(device: "deadmic", seconds: 5)
                && abs(elapsed - 5) <= 0.5 && "\(error)".contains("deadmic")
        }
    }

    @Test func aMicrophoneThatStallsMidAnswerFails() async throws {
        let directory = try TestAudio.directory()
        let microphone = try PipeMicrophone(directory: directory)
        let listener = try Listener(server: AudioServer(), device: "stallmic")
        let answer = try TestAudio.speech("I would like to build a garden planner for small city balconies.")
        let speech = Signal.int16(Signal.resample(Signal.floats(answer), from: answer.sampleRate, to: 16_000))
        // Half a second of silence, then the first 1.2 s of the answer, then nothing at all.
        let fed = [Int16](repeating: 0, count: 8_000) + speech.prefix(19_200)
        let events = EventLog()
        let feeding = Task { try await microphone.feed(fed); return ContinuousClock.now }
        await #expect {
            _ = try await listener.listen(onEvent: events.record)
        } throws: { error in
            error as? AudioError == .microphoneSilent(device: "stallmic", seconds: 5)
        }
        let failedAt = ContinuousClock.now
        let stalledAt = try await feeding.value
        let afterStall = (failedAt - stalledAt).seconds
        print(String(format: "watchdog (stall mid-answer): failed %.3f s after the microphone stopped delivering", afterStall))
        #expect(events.states.contains(.hearingSpeech))
        #expect(abs(afterStall - 5) <= 0.5)
    }

    @Test func aMissingMicrophoneIsAnErrorNamingTheAlternatives() throws {
        _ = try TestAudio.directory()
        let server = try AudioServer()
        #expect {
            _ = try Listener(server: server, device: "no-such-mic")
        } throws: { error in
            guard case AudioError.deviceNotFound(.input, "no-such-mic", let available) = error else { return false }
            print("missing input: \(error)")
            return available.contains("mic") && !available.contains("speaker.monitor")
        }
    }

    @Test func aMicrophoneRemovedMidAnswerFails() async throws {
        _ = try TestAudio.directory()
        let module = try TestAudio.pactl("load-module", "module-null-source", "source_name=tempmic")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        var unloaded = false
        defer { if !unloaded { _ = try? TestAudio.pactl("unload-module", module) } }
        let listener = try Listener(server: AudioServer(), device: "tempmic")
        let listening = Task { try await listener.listen() }
        try await Task.sleep(for: .milliseconds(500))
        let removed = ContinuousClock.now
        try TestAudio.pactl("unload-module", module)
        unloaded = true
        await #expect {
            _ = try await listening.value
        } throws: { error in
            print(String(format: "microphone removed: failed %.3f s later: %@", (ContinuousClock.now - removed).seconds, "\(error)"))
            return error as? AudioError == .deviceRemoved(.input, name: "tempmic")
        }
        #expect((ContinuousClock.now - removed).seconds < 0.5)
        // Later listens fail at once instead of waiting for the watchdog.
        await #expect(throws: AudioError.deviceRemoved(.input, name: "tempmic")) { _ = try await listener.listen() }
    }

    @Test func aServerThatGoesAwayMidListenFails() async throws {
        let (directory, environment) = try PrivateServer.start()
        defer { PrivateServer.stop(directory) }
        let listener = try Listener(server: AudioServer(server: environment))
        let listening = Task { try await listener.listen() }
        try await Task.sleep(for: .milliseconds(500))
        let stopped = ContinuousClock.now
        PrivateServer.stop(directory)
        await #expect {
            _ = try await listening.value
        } throws: { error in
            print(String(format: "server gone (listener): failed %.3f s after the stop began: %@", (ContinuousClock.now - stopped).seconds, "\(error)"))
            guard case AudioError.serverGone = error else { return false }
            return true
        }
    }
}
