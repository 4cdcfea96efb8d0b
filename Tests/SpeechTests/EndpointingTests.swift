import Foundation
import Testing
@testable import Speech

/// Endpointing on synthetic frames: no devices, exact timing.
@Suite("Endpointing")
struct EndpointingTests {
    private let tolerance = 0.021  // two 10 ms frames

    private func run(_ samples: [Float], _ configuration: Endpointing.Configuration = .default,
                     chunk: Int = 320) -> Endpointing {
        var endpointing = Endpointing(configuration: configuration)
        var offset = 0
        while offset < samples.count, !endpointing.hasEnded {
            let end = min(samples.count, offset + chunk)
            endpointing.process(samples[offset..<end])
            offset = end
        }
        return endpointing
    }

    @Test func presetsMatchTheDesign() {
        #expect(Endpointing.Configuration.relaxed.hangover == 1.25)
        #expect(Endpointing.Configuration.default.hangover == 0.7)
        #expect(Endpointing.Configuration.aggressive.hangover == 0.35)
        for preset in [Endpointing.Configuration.relaxed, .default, .aggressive] {
            #expect(preset.maximumAnswer == 60)
            #expect(preset.noAnswerTimeout == 8)
            #expect((0.2...0.3).contains(preset.minimumSpeech))
        }
    }

    @Test(arguments: [Endpointing.Configuration.relaxed, .default, .aggressive])
    func speechEndsAfterTheHangover(_ configuration: Endpointing.Configuration) {
        let samples = makeAudio { _ = $0.noise(1, dBFS: -65); _ = $0.voice(1.5, dBFS: -25, noiseDBFS: -65)
                                  _ = $0.noise(3, dBFS: -65) }
        let endpointing = run(samples, configuration)
        #expect(endpointing.state == .ended(.endOfSpeech))
        #expect(abs((endpointing.speechStart ?? 0) - 1.0) <= tolerance)
        #expect(abs((endpointing.speechEnd ?? 0) - 2.5) <= tolerance)
        #expect(abs((endpointing.endpoint ?? 0) - (2.5 + configuration.hangover)) <= tolerance)
        #expect(endpointing.endpointSample == Int((endpointing.endpoint! * 16_000).rounded()))
    }

    @Test func silenceIsNoAnswerAfterTheTimeout() {
        let endpointing = run(Array(repeating: 0, count: 16_000 * 10))
        #expect(endpointing.state == .ended(.noAnswer))
        #expect(abs((endpointing.endpoint ?? 0) - 8) <= tolerance)
        #expect(endpointing.speechStart == nil)
    }

    @Test(arguments: [-70.0, -50.0, -40.0, -30.0])
    func steadyNoiseIsNotSpeech(_ noiseDBFS: Double) {
        let endpointing = run(makeAudio { _ = $0.noise(10, dBFS: noiseDBFS) })
        #expect(endpointing.state == .ended(.noAnswer))
        #expect(abs((endpointing.noiseFloor ?? 0) - noiseDBFS) < 3)
    }

    @Test(arguments: [-60.0, -45.0, -35.0])
    func speechOverNoiseIsHeard(_ noiseDBFS: Double) {
        // Speech 15 dB above the room: the threshold follows the floor, not a fixed level.
        let samples = makeAudio { _ = $0.noise(1.5, dBFS: noiseDBFS)
                                  _ = $0.syllables(8, on: 0.18, off: 0.06, dBFS: noiseDBFS + 15, gapDBFS: noiseDBFS)
                                  _ = $0.noise(2, dBFS: noiseDBFS) }
        let endpointing = run(samples)
        #expect(endpointing.state == .ended(.endOfSpeech))
        #expect(abs((endpointing.speechStart ?? 0) - 1.5) <= tolerance)
        #expect(abs((endpointing.speechEnd ?? 0) - (1.5 + 8 * 0.24 - 0.06)) <= 0.03)
    }

    @Test func quietVoiceOverDigitalSilenceNeedsTheMinimumLevel() {
        let faint = run(makeAudio { _ = $0.silence(1); _ = $0.voice(1, dBFS: -55); _ = $0.silence(8) })
        #expect(faint.state == .ended(.noAnswer))
        let audible = run(makeAudio { _ = $0.silence(1); _ = $0.voice(1, dBFS: -40); _ = $0.silence(2) })
        #expect(audible.state == .ended(.endOfSpeech))
    }

    @Test func clicksAndShortSoundsAreNotSpeech() {
        let samples = makeAudio { audio in
            _ = audio.noise(0.5, dBFS: -60)
            for _ in 0..<15 { _ = audio.click(); _ = audio.noise(0.3, dBFS: -60) }
            _ = audio.voice(0.15, dBFS: -20, noiseDBFS: -60)  // a cough, shorter than 0.2 s
            _ = audio.noise(4, dBFS: -60)
        }
        let endpointing = run(samples)
        #expect(endpointing.state == .ended(.noAnswer))
        #expect(endpointing.speechStart == nil)
    }

    @Test func voiceNeedsTheMinimumDuration() {
        let short = run(makeAudio { _ = $0.silence(0.5); _ = $0.voice(0.2, dBFS: -20); _ = $0.silence(8) })
        #expect(short.state == .ended(.noAnswer))
        let long = run(makeAudio { _ = $0.silence(0.5); _ = $0.voice(0.3, dBFS: -20); _ = $0.silence(2) })
        #expect(long.state == .ended(.endOfSpeech))
    }

    @Test func pausesShorterThanTheHangoverDoNotEndTheAnswer() {
        let samples = makeAudio { _ = $0.silence(0.5); _ = $0.voice(1, dBFS: -25); _ = $0.silence(0.6)
                                  _ = $0.voice(1, dBFS: -25); _ = $0.silence(2) }
        let endpointing = run(samples, .default)
        #expect(endpointing.state == .ended(.endOfSpeech))
        #expect(abs((endpointing.speechEnd ?? 0) - 3.1) <= tolerance)
        let quick = run(samples, .aggressive)
        #expect(abs((quick.speechEnd ?? 0) - 1.5) <= tolerance)  // aggressive ends in the pause
    }

    @Test func theMaximumLengthEndsEndlessSpeech() {
        var configuration = Endpointing.Configuration.default
        configuration.maximumAnswer = 3
        let endpointing = run(makeAudio { _ = $0.silence(1); _ = $0.voice(5, dBFS: -25) }, configuration)
        #expect(endpointing.state == .ended(.maximumLength))
        #expect(abs((endpointing.endpoint ?? 0) - 4) <= tolerance)
    }

    @Test func aNoiseThatStartsIsNotAnEndlessAnswer() {
        // A fan switching on looks like speech at first; the floor catches up within seconds.
        let samples = makeAudio { _ = $0.noise(1, dBFS: -70); _ = $0.noise(20, dBFS: -35) }
        let endpointing = run(samples)
        #expect(endpointing.hasEnded)
        #expect(endpointing.state != .ended(.maximumLength))
        #expect((endpointing.endpoint ?? 99) < 8)
    }

    @Test func aSlowlyRisingRoomStaysQuiet() {
        let samples = makeAudio { audio in
            for step in 0..<40 { _ = audio.noise(0.25, dBFS: -70 + Double(step)) }  // 4 dB/s
        }
        #expect(run(samples).state == .ended(.noAnswer))
    }

    @Test func chunkSizeDoesNotMatter() {
        let samples = makeAudio { _ = $0.noise(0.7, dBFS: -60); _ = $0.syllables(5, on: 0.2, off: 0.05, dBFS: -30)
                                  _ = $0.noise(1.5, dBFS: -60) }
        let whole = run(samples, chunk: samples.count)
        for chunk in [1, 77, 160, 333, 4096] {
            let pieces = run(samples, chunk: chunk)
            #expect(pieces.state == whole.state)
            #expect(pieces.endpoint == whole.endpoint)
            #expect(pieces.speechStart == whole.speechStart)
        }
    }

    @Test func processingStopsAtTheEndpoint() {
        var endpointing = Endpointing(configuration: .aggressive)
        let samples = makeAudio { _ = $0.silence(0.2); _ = $0.voice(0.5, dBFS: -20); _ = $0.silence(3) }
        let used = endpointing.process(samples)
        #expect(used == endpointing.endpointSample)
        #expect(used < samples.count)
        #expect(endpointing.process([Float](repeating: 0.5, count: 1000)) == 0)
    }

    @Test func anOutsideStopKeepsTheAudioSoFar() {
        var endpointing = Endpointing()
        endpointing.process(makeAudio { _ = $0.silence(0.3); _ = $0.voice(0.5, dBFS: -20) })
        #expect(endpointing.state == .hearingSpeech)
        endpointing.end(.stopped)
        #expect(endpointing.state == .ended(.stopped))
        #expect(abs((endpointing.endpoint ?? 0) - 0.8) <= tolerance)
    }

    /// What is transcribed ends one pause after the last speech, whichever way the answer is
    /// transcribed (at the pause, or after the endpoint).
    @Test func theSpeechClipEndsOnePauseAfterTheLastSpeech() {
        let timing = ListenTiming(firstFrameDelay: 0.01, speechStart: 0.6, speechEnd: 1.5, endpoint: 2.2, declaredAfter: 2.3)
        var result = ListenResult(ending: .endOfSpeech, samples: Array(repeating: 0.1, count: 27_200), sampleRate: 16_000,
                                  clipStart: 0.5, timing: timing)
        let pause = Endpointing.Configuration.default.pause
        #expect(pause == 0.2)
        #expect(result.speech(margin: pause).count == 19_200)   // (1.5 − 0.5 + 0.2) s
        result.timing.speechEnd = nil
        #expect(result.speech(margin: pause).count == 27_200)
    }
}

/// The adaptive wait: the hangover follows the verdict on the transcript at the pause.
@Suite("Endpointing, adaptive")
struct AdaptiveEndpointingTests {
    private let tolerance = 0.021
    private let wait = AdaptiveWait(shortest: 0.3, longest: 2.5)
    private var configuration: Endpointing.Configuration {
        var configuration = Endpointing.Configuration.default
        configuration.adaptive = wait
        return configuration
    }

    /// Feeds `samples` in 10 ms chunks; `verdict` is asked after each chunk for a hangover to
    /// decide (given the trailing silence), as the listener does when a transcript is read.
    private func run(_ samples: [Float], _ configuration: Endpointing.Configuration,
                     verdict: (Double) -> Double? = { _ in nil }) -> Endpointing {
        var endpointing = Endpointing(configuration: configuration)
        var offset = 0
        while offset < samples.count, !endpointing.hasEnded {
            let end = min(samples.count, offset + 160)
            endpointing.process(samples[offset..<end])
            offset = end
            if let silence = endpointing.trailingSilence, let hangover = verdict(silence) {
                endpointing.decidePause(hangover: hangover)
            }
        }
        return endpointing
    }

    /// 1 s of voice, a pause of `pause` s, 1 s of voice, then 4 s of noise.
    private func answer(pausing pause: Double) -> [Float] {
        makeAudio { _ = $0.noise(0.5, dBFS: -65); _ = $0.voice(1, dBFS: -25, noiseDBFS: -65)
                    _ = $0.noise(pause, dBFS: -65); _ = $0.voice(1, dBFS: -25, noiseDBFS: -65)
                    _ = $0.noise(4, dBFS: -65) }
    }

    @Test func undecidedPausesWaitThePresetsSilence() {
        // Unread, a pause ends the answer after the preset's 0.7 s, as without adaptation...
        let fixed = run(answer(pausing: 1.5), configuration)
        #expect(abs((fixed.speechEnd ?? 0) - 1.5) <= tolerance)
        #expect(abs((fixed.endpoint ?? 0) - 2.2) <= tolerance)
        // ...or after `undecided` when that is set.
        var waiting = configuration
        waiting.adaptive?.undecided = wait.longest
        let patient = run(answer(pausing: 1.5), waiting)
        #expect(abs((patient.speechEnd ?? 0) - 4.0) <= tolerance)
        #expect(abs((patient.endpoint ?? 0) - (4.0 + wait.longest)) <= tolerance)
    }

    @Test func aFinishedAnswerEndsAfterTheShortestWait() {
        // Read at 0.2 s of silence as finished: the answer ends 0.3 s after the speech.
        let endpointing = run(answer(pausing: 1.5), configuration) { $0 >= 0.2 ? wait.shortest : nil }
        #expect(abs((endpointing.speechEnd ?? 0) - 1.5) <= tolerance)
        #expect(abs((endpointing.endpoint ?? 0) - 1.8) <= tolerance)
    }

    @Test func aLateVerdictEndsTheAnswerAtOnce() {
        // Read only at 0.9 s of silence (a slow transcription, while waiting up to 2.5 s
        // undecided): it ends there, not 0.3 s later.
        var waiting = configuration
        waiting.adaptive?.undecided = wait.longest
        let endpointing = run(answer(pausing: 1.5), waiting) { $0 >= 0.9 ? wait.shortest : nil }
        #expect(abs((endpointing.endpoint ?? 0) - 2.4) <= tolerance)
    }

    @Test func anUnfinishedAnswerRidesOutItsPause() {
        let endpointing = run(answer(pausing: 1.5), configuration) { $0 >= 0.2 ? wait.longest : nil }
        #expect(abs((endpointing.speechStart ?? 0) - 0.5) <= tolerance)
        #expect(abs((endpointing.endpoint ?? 0) - (4.0 + wait.longest)) <= tolerance)
    }

    @Test func speechResumingForgetsTheVerdict() {
        // The first pause (0.4 s) is read as needing 2.5 s, so speech resumes within it; the
        // final pause is never read: the 2.5 s must not carry over to it, the wait is the
        // preset's 0.7 s.
        var verdicts = 0
        let endpointing = run(answer(pausing: 0.4), configuration) { silence in
            guard silence >= 0.2, verdicts == 0 else { return nil }
            verdicts += 1
            return wait.longest
        }
        #expect(verdicts == 1)
        #expect(abs((endpointing.speechEnd ?? 0) - 2.9) <= tolerance)
        #expect(abs((endpointing.endpoint ?? 0) - 3.6) <= tolerance)
    }

    @Test func aFixedConfigurationIgnoresVerdicts() {
        let endpointing = run(answer(pausing: 1.5), .default) { $0 >= 0.2 ? 0.25 : nil }
        #expect(abs((endpointing.endpoint ?? 0) - 2.2) <= tolerance)
    }

    @Test func theWaitFollowsTheCompletion() {
        #expect(wait.hangover(completion: 0.9) == 0.3)
        #expect(wait.hangover(completion: 0.1) == 2.5)
        for preset in [AdaptiveWait.relaxed, .default, .aggressive] {
            #expect(preset.shortest < preset.longest)
        }
    }
}
