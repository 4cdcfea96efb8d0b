import Decisions
import DialogueCore
import Foundation
import Speech
import Transcription
import VoiceSession

extension TurnEvaluation {
    /// The answer's end alone (`TurnTail`), read at a pause: its text, whisper's time for it,
    /// and how finished it sounds.
    public struct TailReading: Sendable {
        public let tail: TurnTail
        /// The encoder window it ran in.
        public let window: Int32
        public let text: String
        public let seconds: Double
        public let cue: TurnCompletion.Cue
        /// nil when nothing was heard in it: the live listener then keeps the preset's silence.
        public let completion: Double?
    }

    /// The tails `--tail-verdict` reads at every pause: each length fitted, and in the whole
    /// answer's smallest window (256 frames).
    public static let tailCandidates = [1, 1.5, 2, 3].flatMap { [TurnTail(seconds: $0), TurnTail(seconds: $0, window: 256)] }

    static func read(_ tail: TurnTail, of answer: [Float], language: Language, phrases: Phrases,
                     transcriber: Transcriber) async throws -> TailReading {
        let clip = tail.clip(of: answer, rate: Transcriber.sampleRate)
        let options = tail.options(for: clip, language: language)
        let start = ContinuousClock.now
        let transcript = try await transcriber.transcribe(Array(clip), options: options)
        let seconds = start.duration(to: .now).seconds
        let text = transcript.text
        return TailReading(tail: tail, window: options.audioContext ?? 0, text: text, seconds: seconds,
                           cue: TurnCompletion.cue(of: text, phrases: phrases),
                           completion: text.isEmpty ? nil : TurnCompletion.probability(
                               of: text, finalMarkProbability: transcript.finalMarkProbability.map(Double.init), phrases: phrases))
    }
}

extension TurnTail {
    public var name: String { String(format: "tail %.1f s, %@", seconds, window.map { "\($0) frames" } ?? "fitted") }
}

extension TurnStrategy {
    /// The live listener with a tail verdict (`TurnTail`), whisper's work in order on one
    /// engine: until the tail is read (pause + its time) the preset's `fallback` holds; then the
    /// tail's wait. With `wholeDecides`, if the answer is still open when the whole answer's
    /// transcript is read (after the tail's), that one's wait replaces it.
    public static func tailFirst(_ index: Int, _ tail: TurnTail, _ wait: AdaptiveWait, fallback: Double,
                                 wholeDecides: Bool) -> TurnStrategy {
        TurnStrategy(name: tail.name + (wholeDecides ? ", then whole" : ", alone")) { result in
            let reading = result.tails[index], wait = wait.forLanguage(result.moment.answer.language)
            let tailRead = TurnEvaluation.pause + reading.seconds
            guard tailRead < fallback else { return fallback }
            let wholeRead = tailRead + result.transcriptionSeconds
            let wholeWait = max(wait.hangover(completion: result.completion), wholeRead)
            guard let completion = reading.completion else { return wholeRead < fallback ? wholeWait : fallback }
            let tailWait = max(wait.hangover(completion: completion), tailRead)
            return wholeDecides && tailWait > wholeRead ? wholeWait : tailWait
        }
    }

    /// Both policies for each tail read (`--tail-verdict`), with the default preset.
    static func tailFirst(_ tails: [TurnTail]) -> [TurnStrategy] {
        tails.enumerated().flatMap { index, tail in
            [false, true].map { tailFirst(index, tail, .default, fallback: Endpointing.Configuration.default.hangover, wholeDecides: $0) }
        }
    }
}

extension TurnSummary {
    /// Per verdict (the whole answer so far, then each tail): whisper's time, median and p90,
    /// and how well its completion tells an answer's end from a pause inside it: the AUC, and
    /// the accuracy at the default threshold.
    static func verdicts(_ rows: [TurnEvaluation.MomentResult]) -> [String] {
        guard let first = rows.first, !first.tails.isEmpty else { return [] }
        var lines = ["  " + "verdict (default threshold \(AdaptiveWait.default.threshold))".padding(toLength: 42, withPad: " ", startingAt: 0)
                     + "T median   p90     AUC    accuracy"]
        func line(_ name: String, _ seconds: [Double], _ completions: [Double?]) -> String {
            let ends = rows.map { $0.moment.at == $0.moment.answer.to }
            let scored = zip(completions.map { $0 ?? 0 }, ends).map { (score: $0, end: $1) }
            let correct = scored.filter { ($0.score >= AdaptiveWait.default.threshold) == $0.end }.count
            return "  " + name.padding(toLength: 42, withPad: " ", startingAt: 0)
                + String(format: "%.2f s   %.2f s  %.2f   %d/%d", percentile(seconds, 50), percentile(seconds, 90),
                         areaUnderCurve(scored), correct, scored.count)
        }
        lines.append(line("whole answer so far", rows.map(\.transcriptionSeconds), rows.map(\.completion)))
        for (index, tail) in first.tails.map(\.tail).enumerated() {
            lines.append(line(tail.name, rows.map { $0.tails[index].seconds }, rows.map { $0.tails[index].completion }))
        }
        return lines
    }

    /// The chance that an answer's end scores above a pause inside an answer (ties half).
    static func areaUnderCurve(_ scored: [(score: Double, end: Bool)]) -> Double {
        let ends = scored.filter(\.end).map(\.score), pauses = scored.filter { !$0.end }.map(\.score)
        guard !ends.isEmpty, !pauses.isEmpty else { return .nan }
        let wins = ends.map { end in pauses.map { end > $0 ? 1.0 : end == $0 ? 0.5 : 0 }.reduce(0, +) }.reduce(0, +)
        return wins / Double(ends.count * pauses.count)
    }
}
