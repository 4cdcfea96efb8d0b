import Foundation

/// The program's own questions taken out of a microphone that may hear the loudspeaker, in
/// process: each question's samples are the reference of an `EchoCanceller` that runs on every
/// microphone frame of the exchange (silence as reference between questions, so what it
/// learned of the room stays). Not thread-safe: the capture callback's (the mainloop lock).
///
/// A question's samples are fed from the first microphone frame after it starts, so they lead
/// their echo (by the output's latency, the room and the capture's). That lead differs from one
/// question to the next by a few milliseconds (where in a capture chunk the question started),
/// and the filter would have to learn the room again each time (1 to 3 s, during which the
/// question's sound passes for a person). So each question's first echo is held back until its
/// lead is measured (about 0.7 s), and the question then fed at the lead of the first one,
/// which the filter learned; the held audio follows at once, none of it lost.
final class OwnVoiceCanceller {
    private let canceller: EchoCanceller
    private let frameSize: Int
    private let sampleRate: Int
    /// Microphone samples short of a whole frame.
    private var microphone: [Float] = []
    /// The question still to be fed.
    private var reference: [Float] = []
    private var referenceRead = 0
    /// The microphone since the question started, held until its lead is measured.
    private var held: [Float] = []
    private var measuring = false
    /// Where the question's first sound is in `reference` (after its leading silence).
    private var soundStart: Int?
    /// The lead the filter learned (the first question's), in samples.
    private var learnedLead: Int?

    /// The longest lead looked for, and the stretch of echo it is measured on.
    static let longestLead = 0.35
    static let measuredStretch = 0.25

    init(sampleRate: Int) {
        canceller = EchoCanceller(sampleRate: sampleRate)
        frameSize = canceller.frameSize
        self.sampleRate = sampleRate
    }

    /// Whether the echo of the question playing is cancelled (10 dB down over the last 0.5 s),
    /// or the microphone does not hear the question at all (headphones): until then its sound
    /// can pass for a person. Watched anew for each question.
    var cancelsEcho: Bool { canceller.hasLearnedPath || questionUnheard }
    /// The microphone stayed under `unheardLevel` while the question's first sound played, or
    /// heard something else than the question there, on a microphone that has not heard one.
    private var questionUnheard = false
    /// Whether an earlier question of the exchange was not heard (headphones). The way from the
    /// speaker to the microphone does not change in an exchange, so a loud stretch that is not
    /// the question, on a microphone that never heard one (no lead learned), is the person
    /// going on as it starts (the pause the program took for an end).
    private var missedAQuestion = false
    /// 10 dB under the quietest voice the endpointing takes for speech (-48 dBFS): an echo
    /// this faint cannot pass for a person, and no room is that quiet with a loudspeaker on.
    static let unheardLevel: Float = -58

    /// A question starts playing: `samples` (at the microphone's rate, its leading silence
    /// included) are fed from the next microphone frame on.
    func play(_ samples: [Float]) {
        reference = samples
        referenceRead = 0
        held = []
        measuring = true
        soundStart = samples.firstIndex { abs($0) > 0.01 }
        questionUnheard = false
        canceller.watchLearningAgain()
    }

    /// The question was stopped: what the output still held plays out (its 0.1 s), nothing after.
    func stop() {
        let end = min(reference.count, referenceRead + Int(PlaybackStream.targetLatency * Double(sampleRate)))
        reference.removeSubrange(end...)
    }

    /// The microphone's `chunk` without the question's echo: whole frames only, so the output
    /// lags the microphone by up to a frame plus the canceller's own delay (20 ms in all).
    func process(_ chunk: UnsafeBufferPointer<Float>) -> [Float] {
        microphone.append(contentsOf: chunk)
        let whole = microphone.count / frameSize * frameSize
        guard whole > 0 else { return [] }
        var frames = Array(microphone[..<whole])
        microphone.removeFirst(whole)
        if measuring {
            held.append(contentsOf: frames)
            guard measureLead() else { return [] }
            frames = held
            held = []
        }
        let count = frames.count
        var played = [Float](repeating: 0, count: count)
        let available = max(0, min(count, reference.count - referenceRead))
        if available > 0 {
            played.replaceSubrange(0..<available, with: reference[referenceRead..<(referenceRead + available)])
            referenceRead += available
        }
        if referenceRead >= reference.count {
            reference = []
            referenceRead = 0
        }
        return (try? canceller.process(microphone: frames, played: played)) ?? frames
    }

    /// Whether the lead is known (or cannot be: then the question is fed as it comes): once the
    /// microphone holds the echo of the question's first `measuredStretch` of sound, it is
    /// where the two match best, and the question moves by its difference from the learned
    /// one. No clear match (headphones: no echo), no move.
    private func measureLead() -> Bool {
        let stretch = Int(Self.measuredStretch * Double(sampleRate)), longest = Int(Self.longestLead * Double(sampleRate))
        guard let start = soundStart, reference.count >= start + stretch else {
            measuring = false
            return true
        }
        guard held.count >= start + stretch + longest else { return false }
        measuring = false
        let heard = held[start..<(start + stretch + longest)]
        guard let lead = Self.lag(of: Array(reference[start..<(start + stretch)]), in: Array(heard)) else {
            let quiet = 10 * log10(max(heard.meanSquare, 1e-12)) < Self.unheardLevel
            questionUnheard = quiet || missedAQuestion && learnedLead == nil
            missedAQuestion = missedAQuestion || quiet
            return true
        }
        guard let learnedLead else { learnedLead = lead; return true }
        // Later than learned: silence first; earlier: the question's first samples skipped.
        let shift = lead - learnedLead
        if shift > 0 { reference.insert(contentsOf: repeatElement(0, count: shift), at: 0) } else { reference.removeFirst(min(-shift, reference.count)) }
        return true
    }

    /// Where `pattern` is in `signal` (its offset), found on a quarter of the rate and refined
    /// at the full one; nil when the best match's normalized correlation is under 0.5.
    static func lag(of pattern: [Float], in signal: [Float]) -> Int? {
        func quarter(_ x: [Float]) -> [Float] { stride(from: 0, to: x.count - 3, by: 4).map { x[$0] + x[$0 + 1] + x[$0 + 2] + x[$0 + 3] } }
        func correlation(_ p: ArraySlice<Float>, _ s: ArraySlice<Float>) -> Float {
            var dot: Float = 0, pp: Float = 0, ss: Float = 0
            for (a, b) in zip(p, s) { dot += a * b; pp += a * a; ss += b * b }
            return pp > 0 && ss > 0 ? dot / (pp * ss).squareRoot() : 0
        }
        let p4 = quarter(pattern), s4 = quarter(signal)
        guard s4.count > p4.count else { return nil }
        var best = (score: Float(-1), offset: 0)
        for offset in 0...(s4.count - p4.count) {
            let score = correlation(p4[...], s4[offset..<(offset + p4.count)])
            if score > best.score { best = (score, offset) }
        }
        var fine = (score: Float(-1), offset: 0)
        for offset in max(0, best.offset * 4 - 6)...min(signal.count - pattern.count, best.offset * 4 + 6) {
            let score = correlation(pattern[...], signal[offset..<(offset + pattern.count)])
            if score > fine.score { fine = (score, offset) }
        }
        return fine.score >= 0.5 ? fine.offset : nil
    }
}
