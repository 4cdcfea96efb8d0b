import Foundation
import Testing
@testable import Speech

/// The in-process canceller's alignment, on synthetic echo (no server): each question's echo
/// may come a little later or sooner than the last one's; the filter keeps what it learned.
@Suite struct OwnVoiceCancellerTests {
    static let rate = 16_000

    /// A question: noise shaped in syllables, after 0.02 s of silence (as the speaker plays it).
    static func question(_ seconds: Double, seed: UInt64) -> [Float] {
        var state = seed
        return Array(repeating: 0, count: 320) + (0..<Int(seconds * Double(rate))).map { i in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let syllable: Float = (i / 2400) % 3 == 2 ? 0.1 : 1
            return (Float(Double(state >> 11) / Double(1 << 53)) * 2 - 1) * 0.3 * syllable
        }
    }

    /// Plays `question` with its echo `lead` samples late at `echo` times its level (and 0.5 s of
    /// silence after); returns the microphone and what came out, sample for sample.
    static func play(_ question: [Float], lead: Int, through canceller: OwnVoiceCanceller, echo: Float = 0.5) -> (heard: [Float], out: [Float]) {
        canceller.play(question)
        let heard = Array(repeating: 0, count: lead) + question.map { $0 * echo } + Array(repeating: 0, count: rate / 2)
        var out: [Float] = []
        heard.withUnsafeBufferPointer { buffer in
            for start in stride(from: 0, to: buffer.count, by: 441) {   // chunks unlike the frames
                out += canceller.process(UnsafeBufferPointer(rebasing: buffer[start..<min(start + 441, buffer.count)]))
            }
        }
        return (heard, out)
    }

    static func decibels(_ samples: ArraySlice<Float>) -> Double {
        10 * log10(Double(samples.reduce(0) { $0 + $1 * $1 }) / Double(max(1, samples.count)) + 1e-12)
    }

    @Test func aQuestionWhoseEchoComesLaterIsCancelledFromItsStart() {
        let canceller = OwnVoiceCanceller(sampleRate: Self.rate)
        _ = Self.play(Self.question(4, seed: 1), lead: 2400, through: canceller)
        // 2.3 ms later than the first question's echo: the learned filter would miss it.
        let (heard, out) = Self.play(Self.question(2, seed: 2), lead: 2437, through: canceller)
        let firstSecond = 2437..<(2437 + Self.rate)
        let cancelled = Self.decibels(heard[firstSecond]) - Self.decibels(out[(firstSecond.lowerBound + 160)..<(firstSecond.upperBound + 160)])
        #expect(cancelled > 15, "the second question's first second is only \(cancelled) dB down")
        #expect(canceller.cancelsEcho)
    }

    @Test func theLagOfAnEchoIsFoundToTheSample() {
        let pattern = Array(Self.question(0.25, seed: 3).dropFirst(320))
        let signal = Array(repeating: 0, count: 1234) + pattern.map { $0 * 0.3 } + Array(repeating: 0, count: 4000)
        #expect(OwnVoiceCanceller.lag(of: pattern, in: signal) == 1234)
        // No echo (headphones): no lag.
        #expect(OwnVoiceCanceller.lag(of: pattern, in: Array(Self.question(0.6, seed: 4))) == nil)
    }
}

extension OwnVoiceCancellerTests {
    /// Headphones: the microphone hears nothing of the question, so there is nothing to cancel
    /// and the person can be heard over it from its first measured stretch on. A loudspeaker
    /// not yet learned is not taken for that.
    @Test func aQuestionTheMicrophoneDoesNotHearNeedsNoCancelling() {
        let headphones = OwnVoiceCanceller(sampleRate: Self.rate)
        _ = Self.play(Self.question(1.5, seed: 5), lead: 0, through: headphones, echo: 0)
        #expect(headphones.cancelsEcho)
        let loudspeaker = OwnVoiceCanceller(sampleRate: Self.rate)
        loudspeaker.play(Self.question(1.5, seed: 5))
        let echo = Array(repeating: Float(0), count: 2400) + Self.question(0.7, seed: 5).map { $0 * 0.5 }
        _ = echo.withUnsafeBufferPointer { loudspeaker.process($0) }
        #expect(!loudspeaker.cancelsEcho, "a fresh canceller does not cancel a loud echo in its first second")
    }

    /// The person going on just as a later question starts: loud, and not the question. On a
    /// microphone that did not hear the first question (headphones, or a microphone far from
    /// the speaker) that is the person, heard at once; where an earlier question's echo was
    /// found it may be the echo, and waits for the filter as before.
    @Test func aVoiceAsALaterQuestionStartsIsThePersonWhereNoQuestionWasHeard() {
        let voice = Array(Self.question(1.2, seed: 9).dropFirst(320))
        func secondQuestion(through canceller: OwnVoiceCanceller) {
            canceller.play(Self.question(1.5, seed: 8))
            _ = voice.withUnsafeBufferPointer { canceller.process($0) }
        }
        let headphones = OwnVoiceCanceller(sampleRate: Self.rate)
        _ = Self.play(Self.question(1.5, seed: 5), lead: 0, through: headphones, echo: 0)
        secondQuestion(through: headphones)
        #expect(headphones.cancelsEcho, "the person over the second question was not listened to")
        let loudspeaker = OwnVoiceCanceller(sampleRate: Self.rate)
        _ = Self.play(Self.question(0.6, seed: 5), lead: 2400, through: loudspeaker)
        secondQuestion(through: loudspeaker)
        #expect(!loudspeaker.cancelsEcho, "where a question was heard, a loud start waits for the filter")
    }
}
