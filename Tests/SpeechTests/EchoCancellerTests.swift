import Foundation
import Testing
@testable import Speech

/// The canceller on synthetic signals, no audio server: a far end (noise, as broadband as a voice
/// and harder to learn than a tone), its echo delayed and attenuated through a small room, and a
/// person (voice-like syllables) who must come through.
@Suite("EchoCanceller")
struct EchoCancellerTests {
    static let rate = 16_000

    /// The echo: `delay` seconds late, `gain` dB down, with two weaker reflections.
    static func echo(of far: [Float], delay: Double = 0.06, gain: Double = -6) -> [Float] {
        let direct = Int(delay * Double(rate))
        let taps: [(Int, Float)] = [(direct, 1), (direct + 97, 0.4), (direct + 611, -0.2)]
        let scale = Float(pow(10, gain / 20))
        var echo = [Float](repeating: 0, count: far.count)
        for (lag, weight) in taps {
            for i in lag..<far.count { echo[i] += far[i - lag] * weight * scale }
        }
        return echo
    }

    static func run(_ canceller: EchoCanceller, microphone: [Float], played: [Float]) throws -> [Float] {
        let usable = microphone.count / canceller.frameSize * canceller.frameSize
        let output = try canceller.process(microphone: Array(microphone.prefix(usable)), played: Array(played.prefix(usable)))
        // Undo the suppressor's one-frame hold, so that sample i of the output is sample i of the input.
        return Array(output.dropFirst(canceller.outputDelay)) + [Float](repeating: 0, count: canceller.outputDelay)
    }

    static func energy(_ samples: [Float], _ range: Range<Int>) -> Double {
        samples[range].reduce(0) { $0 + Double($1) * Double($1) } + 1e-12
    }

    static func decibels(_ ratio: Double) -> Double { 10 * log10(ratio) }

    static func second(_ s: Double) -> Int { Int(s * Double(rate)) }

    /// After 4 s of far-end sound, the echo in the last second is at least 18 dB down (25 measured
    /// with speexdsp 1.2.1; the margin is for other versions).
    @Test func echoOfNoiseIsCancelledAfterConvergence() throws {
        let far = makeAudio { _ = $0.noise(5, dBFS: -20) }
        let microphone = zip(Self.echo(of: far), makeAudio { _ = $0.noise(5, dBFS: -70) }).map { $0 + $1 }
        let output = try Self.run(EchoCanceller(), microphone: microphone, played: far)
        let last = Self.second(4)..<Self.second(5) - 320
        let erle = Self.decibels(Self.energy(microphone, last) / Self.energy(output, last))
        #expect(erle >= 18, "echo return loss enhancement \(erle) dB")
    }

    /// The filter alone, without the residual suppressor, still learns the path (15 dB at least;
    /// 20 measured).
    @Test func filterAloneCancelsEcho() throws {
        let far = makeAudio { _ = $0.noise(5, dBFS: -20) }
        let microphone = Self.echo(of: far, delay: 0.1, gain: -10)
        let canceller = EchoCanceller(suppressResidual: false)
        #expect(canceller.outputDelay == 0)
        let output = try Self.run(canceller, microphone: microphone, played: far)
        let last = Self.second(4)..<Self.second(5) - 320
        let erle = Self.decibels(Self.energy(microphone, last) / Self.energy(output, last))
        #expect(erle >= 15, "echo return loss enhancement \(erle) dB")
    }

    /// 10 ms frame levels: what a listener's voice detector and a transcriber go by. (speexdsp's
    /// DC notch shifts the phase of a 150 Hz voice, so the waveform itself is not kept.)
    static func envelope(_ samples: [Float], _ range: Range<Int>) -> [Double] {
        stride(from: range.lowerBound, to: range.upperBound - 159, by: 160).map { energy(samples, $0..<$0 + 160) }
    }

    static func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let dot = zip(a, b).reduce(0) { $0 + $1.0 * $1.1 }
        return dot / (a.reduce(0) { $0 + $1 * $1 } * b.reduce(0) { $0 + $1 * $1 }).squareRoot()
    }

    /// Nothing played: the person's voice comes out at its level (within 1 dB) and with its
    /// syllables and pauses where they were.
    @Test func nearEndAlonePassesThrough() throws {
        let voice = makeAudio { _ = $0.silence(0.5); _ = $0.syllables(12, on: 0.18, off: 0.12, dBFS: -22, gapDBFS: -65) }
        let output = try Self.run(EchoCanceller(), microphone: voice, played: [Float](repeating: 0, count: voice.count))
        let span = Self.second(0.5)..<(voice.count / 160 * 160 - 320)
        let level = Self.decibels(Self.energy(output, span) / Self.energy(voice, span))
        let shape = Self.correlation(Self.envelope(output, span), Self.envelope(voice, span))
        #expect(abs(level) <= 1, "level changed by \(level) dB")
        #expect(shape >= 0.98, "frame levels correlate \(shape)")
    }

    /// A person who talks over the echo after convergence comes out nearly as they would with
    /// nothing playing: the leftover (echo, and voice taken down with it) is at least 15 dB
    /// smaller, relative to the voice, than the echo was on the microphone (20 dB measured).
    @Test func personOverEchoSurvives() throws {
        let far = makeAudio { _ = $0.noise(6, dBFS: -20) }
        let voice = makeAudio { _ = $0.silence(4); _ = $0.syllables(6, on: 0.18, off: 0.12, dBFS: -22); _ = $0.silence(0.2) }
        let echo = Self.echo(of: far)
        let microphone = zip(echo, voice).map { $0 + $1 }
        let output = try Self.run(EchoCanceller(), microphone: microphone, played: far)
        let alone = try Self.run(EchoCanceller(), microphone: voice, played: [Float](repeating: 0, count: voice.count))
        let span = Self.second(4)..<Self.second(5.8)
        let snrIn = Self.decibels(Self.energy(voice, span) / Self.energy(echo, span))
        let leftover = span.reduce(0.0) { $0 + pow(Double(output[$1]) - Double(alone[$1]), 2) }
        let snrOut = Self.decibels(Self.energy(alone, span) / leftover)
        #expect(snrOut >= snrIn + 15, "voice against the rest: \(snrIn) dB in, \(snrOut) dB out")
    }

    /// The canceller keeps what it learned across calls, and `reset` forgets it.
    @Test func resetForgetsThePath() throws {
        let far = makeAudio { _ = $0.noise(4, dBFS: -20) }
        let microphone = Self.echo(of: far)
        let canceller = EchoCanceller()
        _ = try canceller.process(microphone: Array(microphone.prefix(Self.second(3))), played: Array(far.prefix(Self.second(3))))
        let window = Self.second(3)..<Self.second(3.5)
        let learned = try canceller.process(microphone: Array(microphone[window]), played: Array(far[window]))
        canceller.reset()
        let forgotten = try canceller.process(microphone: Array(microphone[window]), played: Array(far[window]))
        let all = 0..<window.count
        #expect(Self.energy(forgotten, all) > 5 * Self.energy(learned, all), "the echo came back only \(Self.energy(forgotten, all) / Self.energy(learned, all)) times louder")
    }

    @Test func framesOfTheWrongSizeAreReported() throws {
        let canceller = EchoCanceller(frameSize: 160)
        #expect(throws: EchoCanceller.FrameError.wrongSize(microphone: 100, played: 100, frameSize: 160)) {
            try canceller.process(microphone: [Float](repeating: 0, count: 100), played: [Float](repeating: 0, count: 100))
        }
        #expect(throws: EchoCanceller.FrameError.wrongSize(microphone: 160, played: 320, frameSize: 160)) {
            try canceller.process(microphone: [Float](repeating: 0, count: 160), played: [Float](repeating: 0, count: 320))
        }
        #expect(throws: EchoCanceller.FrameError.wrongSize(microphone: 0, played: 0, frameSize: 160)) {
            try canceller.process(microphone: [], played: [])
        }
        let message = EchoCanceller.FrameError.wrongSize(microphone: 100, played: 100, frameSize: 160).description
        #expect(message.contains("100") && message.contains("160"))
        #expect(try canceller.process(microphone: [Float](repeating: 0, count: 320), played: [Float](repeating: 0, count: 320)).count == 320)
    }
}

@Suite("StreamingResampler (EchoCanceller's reference)")
struct EchoCancellerResamplerTests {
    static func tone(_ hertz: Double, rate: Int, seconds: Double) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { Float(0.5 * sin(2 * .pi * hertz * Double($0) / Double(rate))) }
    }

    /// 22,050 Hz (espeak-ng) to 16 kHz: the length scales, a 1 kHz tone stays 1 kHz, starts on time.
    @Test func convertsEspeakRateToMicrophoneRate() {
        let input = Self.tone(1_000, rate: 22_050, seconds: 1)
        let output = StreamingResampler.convert(input, from: 22_050, to: 16_000)
        #expect(abs(output.count - 16_000) <= 2, "\(output.count) samples")
        let expected = Self.tone(1_000, rate: 16_000, seconds: 1)
        let middle = 1_000..<15_000
        let error = middle.reduce(0.0) { $0 + pow(Double(output[$1] - expected[$1]), 2) }
        let signal = middle.reduce(0.0) { $0 + pow(Double(expected[$1]), 2) }
        #expect(10 * log10(signal / error) > 30, "the tone came out shifted or distorted")
    }

    /// A reference on another clock: 22,052 Hz as the microphone counts it gives 1.45 samples per
    /// second fewer than 22,050 would.
    @Test func inputRateFollowsAnotherClock() {
        let input = Self.tone(1_000, rate: 22_050, seconds: 10)
        let resampler = StreamingResampler(from: 22_050, to: 16_000)
        resampler.setInputRate(22_052)
        let output = resampler.process(input) + resampler.flush()
        let expected = Double(input.count) * 16_000 / 22_052
        #expect(abs(Double(output.count) - expected) <= 2, "\(output.count) samples, \(expected) expected")
        let plain = StreamingResampler.convert(input, from: 22_050, to: 16_000)
        #expect(plain.count - output.count >= 13, "the other clock changed nothing")
    }

    /// Pieces of any size give the same samples as the whole buffer at once.
    @Test func piecesMatchTheWhole() {
        let input = Self.tone(440, rate: 22_050, seconds: 0.5)
        let whole = StreamingResampler.convert(input, from: 22_050, to: 16_000)
        let streaming = StreamingResampler(from: 22_050, to: 16_000)
        var pieces: [Float] = []
        var at = 0
        for size in [1, 441, 7, 2_000, 3_333] + Array(repeating: 512, count: 20) where at < input.count {
            let end = min(input.count, at + size)
            pieces += streaming.process(Array(input[at..<end]))
            at = end
        }
        pieces += streaming.process(Array(input[at...])) + streaming.flush()
        #expect(pieces.count == whole.count)
        #expect(zip(pieces, whole).allSatisfy { abs($0 - $1) < 1e-5 })
    }
}

/// The canceller in front of the listener's own voice detection, on espeak-ng's real question
/// (22,050 Hz, resampled as the reference is) through a loudspeaker that clips softly and a room
/// (60 ms, -6 dB, two reflections). After one question to learn the room, `Endpointing` with
/// the voice a question needs (`Afterword.minimumSpeechOverQuestion`) must hear the person who
/// talks over the second question and must not take the question itself for a person.
@Suite("EchoCanceller before endpointing (espeak-ng)")
struct EchoCancellerBargeInTests {
    static let rate = 16_000
    static let pause = 0.7

    struct Scene {
        var played: [Float]      // the reference at 16 kHz
        var echo: [Float]
        var secondQuestion: Int  // sample where the second question starts
    }

    static func floats(_ buffer: PCMBuffer) -> [Float] { buffer.samples.map { Float($0) / 32_768 } }

    static func scene() throws -> Scene {
        let first = try SpeechSynthesizer.shared.render("What problem does it solve, and who has that problem today?", voice: "en-us")
        let second = try SpeechSynthesizer.shared.render("Who would use this first, and what would they stop doing once they have it?", voice: "en-us")
        let gap = [Float](repeating: 0, count: Int(pause * Double(first.sampleRate)))
        let played22 = floats(first) + gap + floats(second)
        let played = StreamingResampler.convert(played22, from: first.sampleRate, to: rate)
        let secondQuestion = (first.samples.count + gap.count) * rate / first.sampleRate
        // Loudspeaker: soft clipping; room: as EchoCancellerTests.echo.
        let speaker = played.map { Float(tanh(2 * Double($0)) / 2) }
        let echo = EchoCancellerTests.echo(of: speaker, delay: 0.06, gain: -6)
        return Scene(played: played, echo: echo, secondQuestion: secondQuestion)
    }

    /// Runs the canceller (or not) over `microphone` and the endpointing over the output from the
    /// pause before the second question on, requiring a question's voice once it starts.
    /// Returns where speech was heard (seconds into the second question), or nil.
    static func bargeIn(_ scene: Scene, microphone: [Float], cancel: Bool) throws -> Double? {
        var output = microphone
        if cancel {
            let canceller = EchoCanceller()
            let usable = microphone.count / 160 * 160
            output = try EchoCancellerTests.run(canceller, microphone: Array(microphone.prefix(usable)), played: Array(scene.played.prefix(usable)))
        }
        var endpointing = Endpointing(configuration: .default, sampleRate: rate)
        let pauseStart = scene.secondQuestion - Int(pause * Double(rate)) + 1_600  // past the first question's reverb
        endpointing.process(output[pauseStart..<scene.secondQuestion])
        endpointing.requireVoice(Afterword.minimumSpeechOverQuestion)
        let start = scene.secondQuestion
        for at in stride(from: start, to: output.count - 160, by: 160) {
            endpointing.process(output[at..<at + 160])
            if endpointing.state == .hearingSpeech { return Double(at - start) / Double(rate) }
        }
        return nil
    }

    @Test func theQuestionAloneIsNotAPerson() throws {
        let scene = try Self.scene()
        let noise = makeAudio { _ = $0.noise(Double(scene.echo.count) / 16_000 + 1, dBFS: -70) }
        let microphone = zip(scene.echo, noise).map { $0 + $1 }
        #expect(try Self.bargeIn(scene, microphone: microphone, cancel: false) != nil, "without the canceller the echo should pass for a person")
        let heard = try Self.bargeIn(scene, microphone: microphone, cancel: true)
        #expect(heard == nil, "the cancelled question passed for a person \(heard ?? 0) s into it")
    }

    /// A fresh canceller on the first question: its echo passes for a person until the path is
    /// learned, and never once `hasLearnedPath` says so.
    @Test func theColdQuestionPassesForAPersonOnlyUntilThePathIsLearned() throws {
        let scene = try Self.scene()
        let noise = makeAudio { _ = $0.noise(Double(scene.echo.count) / 16_000 + 1, dBFS: -70) }
        let microphone = zip(scene.echo, noise).map { $0 + $1 }
        let canceller = EchoCanceller()
        func listening() -> Endpointing {
            var endpointing = Endpointing(configuration: .default, sampleRate: Self.rate)
            endpointing.process(makeAudio { _ = $0.noise(0.3, dBFS: -70) })
            endpointing.requireVoice(Afterword.minimumSpeechOverQuestion)
            return endpointing
        }
        var endpointing = listening()
        var before: [Double] = [], after: [Double] = []
        var learnedAt: Double?
        for at in stride(from: 0, to: scene.secondQuestion - 160, by: 160) {
            let frame = try canceller.process(microphone: Array(microphone[at..<at + 160]), played: Array(scene.played[at..<at + 160]))
            if canceller.hasLearnedPath && learnedAt == nil { learnedAt = Double(at) / Double(Self.rate) }
            endpointing.process(frame)
            if endpointing.state == .hearingSpeech {
                (canceller.hasLearnedPath ? { after.append(Double(at) / Double(Self.rate)) } : { before.append(Double(at) / Double(Self.rate)) })()
                endpointing = listening()
            }
        }
        let learned = try #require(learnedAt, "the path was never learned")
        #expect(learned < 3, "learned only \(learned) s into the question")
        #expect(!before.isEmpty, "the cold question never passed for a person: the test shows nothing")
        #expect(after.isEmpty, "passed for a person at \(after) s, after the path was learned at \(learned) s")
        canceller.reset()
        #expect(!canceller.hasLearnedPath)
    }

    /// Nothing heard of the playback (headphones): nothing to learn.
    @Test func headphonesTeachNoPath() throws {
        let scene = try Self.scene()
        let quiet = makeAudio { _ = $0.noise(Double(scene.secondQuestion) / 16_000, dBFS: -70) }
        let canceller = EchoCanceller()
        let usable = scene.secondQuestion / 160 * 160
        let output = try canceller.process(microphone: Array(quiet.prefix(usable)), played: Array(scene.played.prefix(usable)))
        #expect(!canceller.hasLearnedPath)
        #expect(output.count == usable)
    }

    @Test func thePersonOverTheQuestionIsHeard() throws {
        let scene = try Self.scene()
        let person = StreamingResampler.convert(
            Self.floats(try SpeechSynthesizer.shared.render("Honestly, nobody writes their ideas down", voice: "en-us+f3")),
            from: 22_050, to: Self.rate)
        let onset = scene.secondQuestion + Self.rate  // one second into the question
        var microphone = scene.echo + [Float](repeating: 0, count: max(0, onset + person.count - scene.echo.count))
        for (i, sample) in person.enumerated() { microphone[onset + i] += sample }
        let heard = try #require(try Self.bargeIn(scene, microphone: microphone, cancel: true), "the person was not heard")
        #expect(heard >= 0.9 && heard <= 1.6, "heard \(heard) s into the question; the person started at 1 s")
    }
}
