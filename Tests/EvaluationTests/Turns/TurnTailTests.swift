import Testing
@testable import Evaluation

/// The tail read for the verdict at a pause: where it is cut and the window it runs in.
@Suite struct TurnTailTests {
    /// `seconds` of sound as loud in every 20 ms frame (±0.5 by turns) at 16 kHz, with silence
    /// where `quiet` says (seconds).
    func tone(seconds: Double, quiet: ClosedRange<Double>? = nil) -> [Float] {
        (0..<Int(seconds * 16_000)).map { index in
            quiet?.contains(Double(index) / 16_000) == true ? 0 : index % 2 == 0 ? 0.5 : -0.5
        }
    }

    @Test func theCutMovesEarlierToTheQuietestFrameWithinTheSearch() {
        // 5 s; the tail of 2 s would start at 3.0 s, inside the sound; the quiet frame at 2.84 s is found.
        let samples = tone(seconds: 5, quiet: 2.84...2.86)
        let start = TurnTail.start(in: samples, seconds: 2, rate: 16_000)
        #expect(start == 45_440)
        #expect(TurnTail(seconds: 2).clip(of: samples, rate: 16_000).count == samples.count - start)
    }

    @Test func withoutAQuietFrameTheCutStaysAtItsLength() {
        let samples = tone(seconds: 5, quiet: 2.5...2.6)   // quiet, but beyond the 0.25 s search
        #expect(TurnTail.start(in: samples, seconds: 2, rate: 16_000) == 48_000)
    }

    @Test func aClipNoLongerThanTheTailIsReadWhole() {
        let samples = tone(seconds: 1.2)
        #expect(TurnTail.start(in: samples, seconds: 1.5, rate: 16_000) == 0)
        #expect(TurnTail(seconds: 1.5).clip(of: samples, rate: 16_000).count == samples.count)
    }

    @Test func theWindowFitsTheTailInStepsOf64Frames() {
        #expect(TurnTail.audioContext(forSamples: 16_000) == 64)          // 1.0 s + 0.25 s = 62.5 frames
        #expect(TurnTail.audioContext(forSamples: 24_000) == 128)         // 1.5 s + 0.25 s = 87.5
        #expect(TurnTail.audioContext(forSamples: 3 * 16_000 + 4_000) == 192)   // 3.25 s + 0.25 s: 175
        #expect(TurnTail.audioContext(forSamples: 0) == 64)
        let clip = tone(seconds: 1)[...]
        #expect(TurnTail(seconds: 1).options(for: clip, language: "fr").audioContext == 64)
        #expect(TurnTail(seconds: 1, window: 256).options(for: clip, language: "fr").audioContext == 256)
    }
}
