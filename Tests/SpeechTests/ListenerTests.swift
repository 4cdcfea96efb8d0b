import Foundation
import Testing
@testable import Speech

/// The listener judged on the audio it returns and the order of its events, never on how long
/// things took (that is `make bench`'s): where the injected speech lies in the clip, where the
/// end was declared in the audio, which events came and in what order. Injections start on a
/// signal (the listener reporting that it listens), not after a sleep.
extension SharedDevices {
    @Suite("Listener (real PulseAudio, real espeak-ng)")
    struct ListenerTests {
        static let answerText = "It is a small app that reminds me to water the plants on my balcony."

        /// The exchange as the program runs it, on one connection: a question is played, then
        /// an answer is injected into the microphone (1 s of silence, then speech) once the
        /// listener listens. Each preset's end must be declared, in the audio, its hangover
        /// after the injected speech's last sound.
        @Test func anInjectedAnswerIsHeardAndItsEndFoundAfterTheHangover() async throws {
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

            var presets = 0
            for configuration in [Endpointing.Configuration.relaxed, .default, .aggressive] {
                try await speaker.play(question)
                let events = EventLog()
                let injection = TestAudio.inject(answer, when: { try await events.wait(for: .listening) }, leadingSilence: 1)
                let result = try await listener.listen(configuration: configuration, onEvent: events.record)
                _ = try await injection.value

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
                let speechStart = try #require(timing.speechStart), speechEnd = try #require(timing.speechEnd)
                let overHangover = timing.endpoint - injectedEnd - configuration.hangover
                print(String(format: "listener %@ (hangover %.2f s): speech %.3f–%.3f s (injected %.3f–%.3f s), endpoint %.3f s → %+.3f s over the hangover in audio; clip %.2f s from %.3f s, correlation %.3f (wall, for information: first frame %.3f s, lag %.3f s)",
                             configuration == .relaxed ? "relaxed" : configuration == .default ? "default" : "aggressive",
                             configuration.hangover, speechStart, speechEnd, injectedStart, injectedEnd, timing.endpoint,
                             overHangover, result.duration, result.clipStart, correlation, timing.firstFrameDelay ?? -1,
                             timing.endpointLag ?? -1))
                #expect(correlation > 0.95, "the captured answer is not the injected one")
                #expect(injectedStart > 0.9, "the second of silence before the speech was not captured")
                #expect(abs(speechStart - injectedStart) < 0.03, "speech start not found at the injected onset")
                #expect(abs(speechEnd - injectedEnd) < 0.03, "speech end not found at the injected speech's end")
                #expect(abs(timing.endpoint - speechEnd - configuration.hangover) < 0.011, "the end is not the hangover after the speech")
                #expect(abs(overHangover) < 0.04, "the end was declared \(overHangover) s off the hangover after the answer")
                #expect(result.clipStart < injectedStart && result.clipStart + result.duration > injectedEnd,
                        "the returned audio does not hold the whole answer")
                #expect(abs(result.clipStart + result.duration - timing.endpoint) < 0.001, "the clip ends at the endpoint")
                presets += 1
            }
            #expect(presets == 3)
            let opening = try #require(listener.openingDelay)
            print(String(format: "listener: first audio %.3f s after the stream opened (information only)", opening))
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
            let injection = TestAudio.inject(buffer, when: { try await events.wait(for: .listening) })
            let result = try await listener.listen(configuration: .default, onEvent: events.record)
            _ = try await injection.value
            let overlap = events.overlapEvents
            #expect(result.ending == .endOfSpeech)
            #expect(overlap.map(\.name) == ["pause", "resumed", "pause"], "\(overlap.map(\.name))")
            let last = try #require(overlap.last?.clip)
            #expect(last.count < result.samples.count)
            #expect(Array(result.samples.prefix(last.count)) == last, "the pause clip is not the start of the answer")
            // It ends the pause margin after the speech: everything later is the trailing silence.
            let speechEndInClip = try #require(result.timing.speechEnd) - result.clipStart
            let margin = Endpointing.Configuration.default.pause
            #expect(abs(Double(last.count) / 16_000 - speechEndInClip - margin) <= 1.0 / 16_000)
            // And the speech really ends there: the clip's last sound is the voice's last sample.
            let audibleEnd = try #require(Signal.audibleEnd(result.samples, sampleRate: 16_000))
            #expect(abs(Double(audibleEnd) / 16_000 - speechEndInClip) < 0.02)
        }

        /// Nobody speaks: "no answer" is declared when the audio reaches the no-answer timeout.
        @Test func silenceOnlyIsNoAnswer() async throws {
            _ = try TestAudio.directory()
            let listener = try Listener(server: AudioServer())
            let events = EventLog()
            let result = try await listener.listen(onEvent: events.record)
            let timeout = Endpointing.Configuration.default.noAnswerTimeout
            print(String(format: "listener silence: no answer at %.3f s of audio (%.3f s wall, information only)",
                         result.timing.endpoint, result.timing.declaredAfter))
            #expect(result.ending == .noAnswer)
            #expect(result.samples.isEmpty)
            #expect(!result.heardSpeech)
            #expect(abs(result.timing.endpoint - timeout) < 0.011, "declared at \(result.timing.endpoint) s of audio")
            #expect(events.states == [.listening, .ended(.noAnswer)])
            #expect(events.levelsAfter(.listening) > 0)
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

        /// Cancelled mid-answer: what was heard so far comes back, and it is the answer's start.
        @Test func cancellingReturnsWhatWasHeardSoFar() async throws {
            _ = try TestAudio.directory()
            let listener = try Listener(server: AudioServer())
            let answer = try TestAudio.speech(Self.answerText)
            let events = EventLog()
            let injection = TestAudio.inject(answer, when: { try await events.wait(for: .listening) })
            let listening = Task { try await listener.listen(onEvent: events.record) }
            try await events.wait(for: .hearingSpeech)
            try await events.wait(forChunks: 20, after: .hearingSpeech)
            listening.cancel()
            let result = try await listening.value
            _ = try await injection.value
            let reference = Signal.resample(Signal.floats(answer), from: answer.sampleRate, to: 16_000)
            let referenceOnset = try #require(Signal.onset(reference))
            let onset = try #require(Signal.onset(result.samples))
            let length = result.samples.count - onset
            let (_, correlation) = Signal.align(result.samples, Array(reference[referenceOnset..<(referenceOnset + length)]),
                                                around: onset, radius: 16)
            print(String(format: "listener cancel: %.2f s of audio returned, correlation %.3f", result.duration, correlation))
            #expect(result.ending == .cancelled)
            #expect(result.heardSpeech)
            #expect(events.states == [.listening, .hearingSpeech, .ended(.cancelled)])
            #expect(Double(length) / 16_000 >= Endpointing.Configuration.default.minimumSpeech, "less than the speech that was heard")
            #expect(length < reference.count - referenceOnset, "the whole answer came back: the cancel did not end the listen")
            #expect(correlation > 0.95, "what came back is not the start of the answer")
        }

        @Test func stopEndsTheAnswerNow() async throws {
            _ = try TestAudio.directory()
            let listener = try Listener(server: AudioServer())
            let answer = try TestAudio.speech(Self.answerText)
            let events = EventLog()
            let injection = TestAudio.inject(answer, when: { try await events.wait(for: .listening) })
            let listening = Task { try await listener.listen(onEvent: events.record) }
            try await events.wait(for: .hearingSpeech)
            listener.stop()
            let result = try await listening.value
            _ = try await injection.value
            #expect(result.ending == .stopped)
            #expect(result.heardSpeech)
            #expect(events.states == [.listening, .hearingSpeech, .ended(.stopped)])
            #expect(result.duration < answer.duration, "the whole answer came back: stop() did not end the listen")
            // The listener is ready for the next answer.
            var configuration = Endpointing.Configuration.default
            configuration.noAnswerTimeout = 0.5
            #expect(try await listener.listen(configuration: configuration).ending == .noAnswer)
        }
    }
}

/// A lock-protected flag a task sets when it is done, to check the order of two events.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// Failing microphones: each test has a device (or a server) of its own, so they run in parallel.
@Suite("Listener failures (real PulseAudio)")
struct ListenerFailureTests {
    @Test(.disabled(if: TestAudio.isPipeWire, TestAudio.pipeSourcePlaysSilence))
    func aDeadMicrophoneTripsTheWatchdog() async throws {
        _ = try TestAudio.directory()
        let listener = try Listener(server: AudioServer(), device: "deadmic")
        #expect(listener.watchdogTimeout == Listener.defaultWatchdogTimeout)
        let events = EventLog()
        await #expect {
            _ = try await listener.listen(onEvent: events.record)
        } throws: { error in
            print("watchdog (dead microphone): \(error)")
            return error as? AudioError == .microphoneSilent(device: "deadmic", seconds: 5) && "\(error)".contains("deadmic")
        }
        #expect(!events.states.contains(.hearingSpeech))
        #expect(events.levels.isEmpty, "a dead microphone delivered audio")
    }

    /// The watchdog counts from the last audio, not from the start of the listen: fed longer
    /// than its timeout, the microphone only fails once the feeding has stopped.
    @Test(.disabled(if: TestAudio.isPipeWire, TestAudio.pipeSourcePlaysSilence))
    func aMicrophoneThatStallsMidAnswerFails() async throws {
        let directory = try TestAudio.directory()
        let microphone = try PipeMicrophone(directory: directory)
        let watchdog = 2.0
        let listener = try Listener(server: AudioServer(), device: "stallmic", watchdogTimeout: watchdog)
        let answer = try TestAudio.speech("I would like to build a garden planner for small city balconies and roof terraces.")
        let speech = Signal.int16(Signal.resample(Signal.floats(answer), from: answer.sampleRate, to: 16_000))
        // Half a second of silence, then the answer's speech, then nothing at all.
        let onset = try #require(Signal.onset(speech.map { Float($0) / 32_768 }))
        let fed = [Int16](repeating: 0, count: 8_000) + speech[onset...]
        try #require(Double(fed.count) / 16_000 > 1.5 * watchdog, "feed longer than the watchdog")
        let events = EventLog()
        let fedAll = Flag()
        let feeding = Task { try await microphone.feed(fed); fedAll.set() }
        var stoppedFirst = false
        await #expect {
            _ = try await listener.listen(onEvent: events.record)
        } throws: { error in
            stoppedFirst = fedAll.isSet
            return error as? AudioError == .microphoneSilent(device: "stallmic", seconds: watchdog)
        }
        try await feeding.value
        #expect(stoppedFirst, "the watchdog fired while the microphone was still delivering")
        #expect(events.states.contains(.hearingSpeech))
        #expect(!events.states.contains { if case .ended = $0 { true } else { false } })
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

    /// Removed while listening: the listen fails with "removed" (not the watchdog's "silent",
    /// which would come later), and so does every later listen.
    @Test func aMicrophoneRemovedMidAnswerFails() async throws {
        _ = try TestAudio.directory()
        // pipewire-pulse 0.3.65 has no module-null-source; a remapped monitor is a source too.
        let module = try (TestAudio.isPipeWire
            ? TestAudio.pactl("load-module", "module-remap-source", "source_name=tempmic", "master=micfeed.monitor")
            : TestAudio.pactl("load-module", "module-null-source", "source_name=tempmic"))
            .trimmingCharacters(in: .whitespacesAndNewlines)
        var unloaded = false
        defer { if !unloaded { _ = try? TestAudio.pactl("unload-module", module) } }
        let listener = try Listener(server: AudioServer(), device: "tempmic")
        let events = EventLog()
        let listening = Task { try await listener.listen(onEvent: events.record) }
        try await events.wait(for: .listening)
        try await events.wait(forChunks: 1, after: .listening)
        try TestAudio.pactl("unload-module", module)
        unloaded = true
        await #expect {
            _ = try await listening.value
        } throws: { error in
            print("microphone removed: \(error)")
            return error as? AudioError == .deviceRemoved(.input, name: "tempmic")
        }
        await #expect(throws: AudioError.deviceRemoved(.input, name: "tempmic")) { _ = try await listener.listen() }
    }

    @Test func aServerThatGoesAwayMidListenFails() async throws {
        let (directory, environment) = try PrivateServer.start()
        defer { PrivateServer.stop(directory) }
        let listener = try Listener(server: AudioServer(server: environment))
        let events = EventLog()
        let listening = Task { try await listener.listen(onEvent: events.record) }
        try await events.wait(for: .listening)
        PrivateServer.stop(directory)
        await #expect {
            _ = try await listening.value
        } throws: { error in
            print("server gone (listener): \(error)")
            guard case AudioError.serverGone = error else { return false }
            return true
        }
    }
}
