import Decisions
import DialogueCore
import Foundation
import Speech
import Transcription
import VoiceSession

/// `eval turns`: at every pause of the turn-taking set (`TurnSet`), the prefix is transcribed as
/// the listener does at a pause (the dialogue's settings), its completion read (`TurnCompletion`),
/// and each way of ending an answer scored: how often it cuts a person off mid-answer, and how
/// long it keeps one waiting who has finished.
public struct TurnEvaluation: Sendable {
    /// One decision place: what was heard up to the pause, how long transcribing it took (T),
    /// and how finished it read.
    public struct MomentResult: Sendable {
        public let moment: TurnSet.Moment
        public let text: String
        public let transcriptionSeconds: Double
        public let cue: TurnCompletion.Cue
        public let completion: Double
        /// Whisper's probability for the final mark (`Transcript.finalMarkProbability`).
        public var markProbability: Double? = nil
        /// The language model's probability that the turn is complete, and its time.
        public var modelCompletion: Double? = nil
        public var modelSeconds: Double = 0
        /// At an answer's end, with `--incremental`: its transcript pieced between its pauses.
        public var incremental: [Incremental] = []
        /// With `--tail-verdict`: the answer's end alone, read at the pause (`TurnTail`).
        public var tails: [TailReading] = []
        /// With `--draft`: the same clip transcribed with a draft (`TranscriptionOptions.draft`).
        public var drafted: Drafted?

        /// The silence `wait` holds after this reading, with the threshold of the answer's language
        /// (`AdaptiveWait.forLanguage`), as the live listener uses it.
        func hangover(_ wait: AdaptiveWait) -> Double {
            wait.forLanguage(moment.answer.language).hangover(completion: completion)
        }

        public var line: String {
            let silences = moment.silences.map { silence in
                silence.seconds.map { String(format: "%@ %.2f s", silence.kind.rawValue, $0) } ?? silence.kind.rawValue
            }
            return String(format: "%@ @%.2f s (%@, %@): p %.2f (%@), T %.2f s, “%@” — %@", moment.answer.id, moment.at,
                          moment.answer.language.code, moment.answer.split, completion, cue.rawValue, transcriptionSeconds, text,
                          silences.joined(separator: ", "))
        }

        /// The transcript, its final mark's probability and its time, to score again later without
        /// whisper (`--transcripts`).
        public var jsonLine: String {
            var object: [String: Any] = ["answer": moment.answer.id, "at": moment.at, "text": text,
                                         "seconds": transcriptionSeconds, "completion": completion, "cue": cue.rawValue]
            object["mark"] = markProbability
            object["model"] = modelCompletion
            object["modelSeconds"] = modelCompletion.map { _ in modelSeconds }
            if !tails.isEmpty {
                object["tails"] = tails.map { ["tail": $0.tail.name, "window": $0.window, "text": $0.text, "seconds": $0.seconds,
                                            "completion": $0.completion.map { $0 as Any } ?? NSNull()] as [String: Any] }
            }
            if !incremental.isEmpty {
                object["incremental"] = incremental.map { ["piecing": $0.piecing, "text": $0.text, "left": $0.leftAfterPause] }
            }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// An answer's final transcript as pieces between its pauses, each transcribed with the text
    /// before it as whisper's prompt, and joined.
    public struct Incremental: Sendable {
        public let piecing: String
        public let text: String
        public let pieces: Int
        public let lastPieceSeconds: Double
        /// Whisper's work left after the final pause (0 when done by it): each piece starts when
        /// its pause is heard or when the piece before it is done, whichever is later.
        public let leftAfterPause: Double
    }

    /// The pause's clip transcribed again with the tokens whisper gave for the answer up to
    /// `lag` seconds before the pause as its draft: the listener that keeps transcribing while
    /// the person speaks holds such a draft when they pause.
    public struct Drafted: Sendable {
        public let text: String
        public let seconds: Double
        public let draftLength: Int
        public let accepted: Int
        public let tokens: Int
    }

    /// A transcript heard earlier, by answer and pause.
    public struct Heard: Sendable, Decodable {
        public let answer: String
        public let at: Double
        public let text: String
        public let seconds: Double
        /// Whisper's probability for the final mark, where the transcript ends on one.
        public let mark: Double?

        /// The JSON lines of an earlier `--json` run (other lines are skipped).
        public static func load(_ text: String) throws -> [String: Heard] {
            let lines = text.split(separator: "\n").filter { $0.hasPrefix("{") }
            let heard = try lines.map { try JSONDecoder().decode(Heard.self, from: Data($0.utf8)) }
            return Dictionary(heard.map { (Self.key($0.answer, $0.at), $0) }, uniquingKeysWith: { $1 })
        }

        static func key(_ answer: String, _ at: Double) -> String { String(format: "%@@%.3f", answer, at) }
    }

    let transcriber: Transcriber?
    let phrases: [Language: Phrases]
    let heard: [String: Heard]
    let tail: Double?
    /// With a model, its completion probability is measured too (the extra strategy rows).
    let model: LanguageModel?
    let incremental: Bool
    let tails: [TurnTail]
    /// With a lag: each pause also transcribed with a draft from that long before it (`Drafted`).
    var draftLag: Double?

    /// `heard`: transcripts to reuse instead of transcribing (nil transcriber: all must be there).
    /// `tail`: transcribe only the last seconds before each pause, not the whole answer so far.
    /// `tails`: each also read from the answer's end alone, as a quick verdict would be (`--tail-verdict`).
    public init(transcriber: Transcriber?, phrases: [Language: Phrases], heard: [String: Heard] = [:], tail: Double? = nil,
                model: LanguageModel? = nil, incremental: Bool = false, tails: [TurnTail] = [], draftLag: Double? = nil) {
        self.transcriber = transcriber
        self.draftLag = draftLag
        self.tails = tails
        self.incremental = incremental
        self.model = model
        self.phrases = phrases
        self.heard = heard
        self.tail = tail
    }

    public func run(_ set: TurnSet, speech: SpeechSet, onResult: (MomentResult) -> Void) async throws -> [MomentResult] {
        let files = Dictionary(speech.clips.compactMap { clip in clip.file.map { (clip.id, $0) } }, uniquingKeysWith: { $1 })
        var samplesByClip: [String: [Float]] = [:]
        var results: [MomentResult] = []
        for moment in set.moments {
            let answer = moment.answer
            let (text, seconds): (String, Double)
            var mark: Double?
            let earlier = heard[Heard.key(answer.id, moment.at)]
            if (earlier == nil || !tails.isEmpty), samplesByClip[answer.clip] == nil {
                guard let file = files[answer.clip] else {
                    throw SpeechSet.LoadError(description: "\(answer.id): clip \(answer.clip) is not in \(speech.folder) (build it with scripts/fetch-speech.sh).")
                }
                samplesByClip[answer.clip] = try WAVFile(contentsOf: file.hasPrefix("/") ? file : speech.folder + "/" + file)
                    .monoSamples(at: Transcriber.sampleRate)
            }
            func prefix(from: Double) -> [Float] {
                TurnSet.prefix(of: samplesByClip[answer.clip] ?? [], from: from, end: answer.to,
                               through: moment.at + Self.pause, rate: Transcriber.sampleRate)
            }
            if let earlier {
                (text, seconds, mark) = (earlier.text, earlier.seconds, earlier.mark)
            } else {
                guard let transcriber else {
                    throw SpeechSet.LoadError(description: "no transcript of \(answer.id) at \(moment.at) s in --transcripts, and no model")
                }
                let clip = prefix(from: max(answer.from, tail.map { moment.at + Self.pause - $0 } ?? answer.from))
                let start = ContinuousClock.now
                let transcript = try await transcriber.transcribe(clip, options: TranscriptionOptions(language: answer.language.code))
                seconds = start.duration(to: .now).seconds
                (text, mark) = (transcript.text, transcript.finalMarkProbability.map(Double.init))
            }
            let phrases = phrases[answer.language] ?? phrases[.english]!
            var result = MomentResult(moment: moment, text: text, transcriptionSeconds: seconds, cue: TurnCompletion.cue(of: text, phrases: phrases),
                                      completion: TurnCompletion.probability(of: text, finalMarkProbability: mark, phrases: phrases),
                                      markProbability: mark)
            if let transcriber, !tails.isEmpty {
                let whole = prefix(from: answer.from)
                for reading in tails {
                    result.tails.append(try await Self.read(reading, of: whole, language: answer.language, phrases: phrases, transcriber: transcriber))
                }
            }
            if let lag = draftLag, let transcriber, earlier == nil {
                result.drafted = try await Self.drafted(prefix(from: max(answer.from, tail.map { moment.at + Self.pause - $0 } ?? answer.from)),
                                                        lag: lag, language: answer.language, transcriber: transcriber)
            }
            if incremental, moment.at == answer.to, let transcriber, let samples = samplesByClip[answer.clip] {
                for piecing in Self.piecings {
                    result.incremental.append(try await Self.incremental(answer, samples: samples, piecing: piecing, transcriber: transcriber))
                }
            }
            if let model, !text.isEmpty {
                let start = ContinuousClock.now
                result.modelCompletion = try await model.endOfTurnProbability(of: text)
                result.modelSeconds = start.duration(to: .now).seconds
            }
            onResult(result)
            results.append(result)
        }
        return results
    }

    /// `clip` (a pause's) with a draft: whisper's tokens for the clip without its last `lag`
    /// seconds before the pause (the pause's own silence kept out too).
    static func drafted(_ clip: [Float], lag: Double, language: Language, transcriber: Transcriber) async throws -> Drafted {
        let earlier = Array(clip.prefix(max(0, clip.count - Int((lag + pause) * Double(Transcriber.sampleRate)))))
        let draft = earlier.count < Transcriber.sampleRate / 2 ? []
            : try await transcriber.transcribe(earlier, options: TranscriptionOptions(language: language.code)).tokens
        var options = TranscriptionOptions(language: language.code)
        options.draft = draft
        let start = ContinuousClock.now
        let transcript = try await transcriber.transcribe(clip, options: options)
        return Drafted(text: transcript.text, seconds: start.duration(to: .now).seconds, draftLength: draft.count,
                       accepted: transcript.draftAccepted ?? 0, tokens: transcript.tokens.count)
    }

    /// A way of cutting an answer into pieces (`--incremental`).
    public struct Piecing: Sendable {
        public let name: String
        /// No piece shorter (0: a piece at every pause).
        public var minimumPiece = 0.0
        /// Each piece with the text before it as whisper's prompt.
        public var prompted = true
        /// Cut at the end of the last segment whisper gave that ends this long before the pause,
        /// instead of at the pause: what comes after is transcribed again with the next piece.
        public var segmentMargin: Double?
    }

    public static let piecings = [
        Piecing(name: "at every pause"), Piecing(name: "at every pause, no prompt", prompted: false),
        Piecing(name: "pieces ≥ 2 s", minimumPiece: 2), Piecing(name: "pieces ≥ 3 s", minimumPiece: 3),
        Piecing(name: "at segment ends ≥ 0.5 s before a pause", segmentMargin: 0.5),
    ]

    /// The pieces the final text is made of, in order, for pause clips ending at `ends` (the
    /// answer's end last). At each end the piece starts at the latest earlier end at least
    /// `minimumPiece` before it whose own piece was that long (else at `from`), so no piece is
    /// shorter, except the answer itself.
    static func finalPieces(ends: [Double], from: Double, minimumPiece: Double) -> [(from: Double, to: Double)] {
        var starts: [Double] = [], stable = [from]
        for end in ends {
            let start = stable.last { end - $0 >= minimumPiece } ?? from
            starts.append(start)
            if end - start >= minimumPiece { stable.append(end) }
        }
        var pieces: [(from: Double, to: Double)] = []
        var index = ends.indices.last
        while let current = index {
            pieces.insert((starts[current], ends[current]), at: 0)
            index = starts[current] > from ? ends.firstIndex(of: starts[current]) : nil
        }
        return pieces
    }

    /// `answer` transcribed a piece at a time (`finalPieces`), each with the text before it as
    /// the prompt. With `segmentMargin`, every pause's piece instead ends the text at a segment's
    /// end, and the next piece starts there.
    static func incremental(_ answer: TurnSet.Answer, samples: [Float], piecing: Piecing,
                            transcriber: Transcriber) async throws -> Incremental {
        let ends = answer.pauses.map { $0.at + pause } + [answer.to + pause]
        let pieces = piecing.segmentMargin == nil ? finalPieces(ends: ends, from: answer.from, minimumPiece: piecing.minimumPiece)
            : ends.map { (from: answer.from, to: $0) }
        var text = "", start = answer.from, done = answer.from, lastSeconds = 0.0
        for (index, piece) in pieces.enumerated() {
            if piecing.segmentMargin == nil { start = piece.from }
            let clip = TurnSet.prefix(of: samples, from: start, end: answer.to, through: piece.to, rate: Transcriber.sampleRate)
            var options = TranscriptionOptions(language: answer.language.code)
            options.initialPrompt = text.isEmpty || !piecing.prompted ? nil : " " + text
            let clock = ContinuousClock.now
            let transcript = try await transcriber.transcribe(clip, options: options)
            lastSeconds = clock.duration(to: .now).seconds
            done = max(done, piece.to) + lastSeconds
            var kept = transcript.segments
            if let margin = piecing.segmentMargin, index < pieces.count - 1 {
                kept = Array(kept.prefix { start + $0.end <= piece.to - pause - margin })
                if let last = kept.last { start += last.end }
            }
            text = [text, Transcript(language: answer.language.code, segments: kept).text].filter { !$0.isEmpty }.joined(separator: " ")
        }
        return Incremental(piecing: piecing.name, text: text, pieces: pieces.count, lastPieceSeconds: lastSeconds,
                           leftAfterPause: max(0, done - (answer.to + pause)))
    }

    /// The silence after which the listener transcribes what it heard, the default preset's.
    public static let pause = Endpointing.Configuration.default.pause
}

/// A way of ending an answer, scored on the same moments.
public struct TurnStrategy: Sendable {
    public let name: String
    /// The silence after which this strategy ends the answer at a moment.
    public let wait: @Sendable (TurnEvaluation.MomentResult) -> Double

    public static func fixed(_ name: String, _ hangover: Double) -> TurnStrategy {
        TurnStrategy(name: String(format: "fixed %@ %.2f s", name, hangover)) { _ in hangover }
    }

    /// A variant that, until the transcript at the pause is read (pause + T, or just the pause
    /// when `instant`), waits up to `longest`; then `hangover(completion:)`. Not the live
    /// listener's: there a slow transcription would make every ending slow.
    public static func adaptive(_ name: String, _ wait: AdaptiveWait, instant: Bool = false) -> TurnStrategy {
        TurnStrategy(name: "adaptive \(name)" + (instant ? " (T=0)" : String(format: ", up to %.2f s until read", wait.longest))) { result in
            let read = TurnEvaluation.pause + (instant ? 0 : result.transcriptionSeconds)
            return min(wait.longest, max(result.hangover(wait), read))
        }
    }

    /// The live listener's wait (`AdaptiveWait.undecided` nil): until the transcript is read, the
    /// answer ends at the preset's fixed silence `fallback`: a slow transcript costs no extra wait,
    /// but then protects no pause either (the person going on is heard on, see `Afterword`).
    /// `drafted`: with whisper's time for the clip with its draft (`--draft`), where measured.
    public static func adaptive(_ name: String, _ wait: AdaptiveWait, fallback: Double, drafted: Bool = false) -> TurnStrategy {
        TurnStrategy(name: String(format: drafted ? "adaptive %@, %.2f s, with draft" : "adaptive %@, %.2f s until read", name, fallback)) { result in
            let read = TurnEvaluation.pause + (drafted ? result.drafted?.seconds ?? result.transcriptionSeconds : result.transcriptionSeconds)
            return read < fallback ? max(result.hangover(wait), read) : fallback
        }
    }

    /// The adaptive default with the language model's completion instead of the cues: its
    /// threshold calibrated on the dev part (its probabilities are small: it would rather write
    /// more than close the turn), its time added to whisper's.
    public static func model(instant: Bool = false) -> TurnStrategy {
        let wait = AdaptiveWait(shortest: AdaptiveWait.default.shortest, longest: AdaptiveWait.default.longest, threshold: 0.12)
        return TurnStrategy(name: "adaptive default, model" + (instant ? " (T=0)" : "")) { result in
            let read = TurnEvaluation.pause + (instant ? 0 : result.transcriptionSeconds + result.modelSeconds)
            return min(wait.longest, max(wait.hangover(completion: result.modelCompletion ?? 0), read))
        }
    }

    /// When the next question starts under `strategy`, as the person hears it: the decision
    /// made at the pause (`decision` seconds after the transcript) sounds once the answer has
    /// ended, and a person who goes on before that is heard on (`Afterword`), so only a silence
    /// that outlasts this is a cut-off anyone meets. Unheard (no text at the pause), the
    /// transcript and the decision come after the end.
    public static func heard(_ strategy: TurnStrategy, decision: Double) -> TurnStrategy {
        TurnStrategy(name: strategy.name) { result in
            let ended = strategy.wait(result)
            guard !result.text.isEmpty else { return ended + result.transcriptionSeconds + decision }
            return max(ended, TurnEvaluation.pause + result.transcriptionSeconds + decision)
        }
    }

    /// The strategies the live program can run, for `heard`.
    public static let live: [TurnStrategy] = [
        .fixed("relaxed", Endpointing.Configuration.relaxed.hangover),
        .fixed("default", Endpointing.Configuration.default.hangover),
        .fixed("aggressive", Endpointing.Configuration.aggressive.hangover),
        .adaptive("relaxed", .relaxed, fallback: Endpointing.Configuration.relaxed.hangover),
        .adaptive("default", .default, fallback: Endpointing.Configuration.default.hangover),
        .adaptive("aggressive", .aggressive, fallback: Endpointing.Configuration.aggressive.hangover),
    ]

    public static let all: [TurnStrategy] = live + [
        .adaptive("relaxed", .relaxed, instant: true), .adaptive("default", .default, instant: true),
        .adaptive("aggressive", .aggressive, instant: true),
        .adaptive("default", .default),
    ]
}

/// Per split and language, per strategy: cut-offs at keep-listening silences (by kind) and the
/// wait after a true end.
public struct TurnSummary: Sendable {
    public struct Row: Sendable, Equatable {
        /// Per kind of keep-listening silence: (cut, of).
        public var cutOffs: [TurnSet.Silence.Kind: (cut: Int, of: Int)] = [:]
        public var waits: [Double] = []

        public var allCutOffs: (cut: Int, of: Int) {
            cutOffs.values.reduce((0, 0)) { ($0.0 + $1.cut, $0.1 + $1.of) }
        }
        public var medianWait: Double? {
            let sorted = waits.sorted()
            guard !sorted.isEmpty else { return nil }
            return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        public var meanWait: Double? { waits.isEmpty ? nil : waits.reduce(0, +) / Double(waits.count) }

        public static func == (a: Row, b: Row) -> Bool {
            a.waits == b.waits && a.cutOffs.mapValues { [$0.cut, $0.of] } == b.cutOffs.mapValues { [$0.cut, $0.of] }
        }
    }

    public let results: [TurnEvaluation.MomentResult]
    public let strategies: [TurnStrategy]
    /// With a decision time: also the live strategies as the person hears them (`TurnStrategy.heard`).
    public let decisionSeconds: Double?

    /// The model's rows only where it was measured (`--with-model`).
    public init(_ results: [TurnEvaluation.MomentResult], strategies: [TurnStrategy]? = nil, decisionSeconds: Double? = nil) {
        self.results = results
        self.decisionSeconds = decisionSeconds
        let measured = results.contains { $0.modelCompletion != nil }
        let drafted = results.contains { $0.drafted != nil }
        self.strategies = strategies ?? TurnStrategy.all + (measured ? [.model(), .model(instant: true)] : [])
            + (drafted ? [.adaptive("default", .default, fallback: Endpointing.Configuration.default.hangover, drafted: true)] : [])
            + TurnStrategy.tailFirst(results.first?.tails.map(\.tail) ?? [])
    }

    /// A strategy's figures over some moments. A silence is cut off when the wait is no longer
    /// than it: the answer ends before the person goes on.
    public static func row(_ strategy: TurnStrategy, _ results: [TurnEvaluation.MomentResult]) -> Row {
        var row = Row()
        for result in results {
            let wait = strategy.wait(result)
            for silence in result.moment.silences {
                guard let seconds = silence.seconds, silence.kind != .endOfTurn else { row.waits.append(wait); continue }
                let cut = wait <= seconds + 1e-9
                let count = row.cutOffs[silence.kind] ?? (0, 0)
                row.cutOffs[silence.kind] = (count.cut + (cut ? 1 : 0), count.of + 1)
            }
        }
        return row
    }

    public var text: String {
        var lines = ["== Turn-taking on real speech: cut-offs at keep-listening silences ≥ 200 ms, and the wait after a true end",
                     "   (T: whisper's time for the prefix at the pause, the dialogue's settings, on this machine)"]
        lines += table(strategies, waitTitle: "wait median  mean", verdicts: true)
        if let decisionSeconds {
            lines += [String(format: "\n== As heard: the next question starts at the later of the end and the pause + T + %.2f s (its decision);", decisionSeconds),
                      "   a person going on before that is heard on, so a cut-off here is a question spoken into a pause"]
            lines += table(TurnStrategy.live.map { TurnStrategy.heard($0, decision: decisionSeconds) },
                           waitTitle: "question after a true end: median  mean", verdicts: false)
        }
        if results.contains(where: { !$0.incremental.isEmpty }) { lines.append(finalTranscripts) }
        if results.contains(where: { $0.drafted != nil }) { lines.append(draftedTranscripts) }
        return lines.joined(separator: "\n")
    }

    /// Per split and language, each strategy's cut-offs by kind of silence and its waits.
    func table(_ strategies: [TurnStrategy], waitTitle: String, verdicts: Bool) -> [String] {
        let kinds: [TurnSet.Silence.Kind] = [.inside, .lengthened, .betweenSentences]
        var lines: [String] = []
        for split in ["dev", "test"] {
            let inSplit = results.filter { $0.moment.answer.split == split }
            let languages = Set(inSplit.map(\.moment.answer.language)).sorted().map(\.code)
            for language in languages + ["all"] {
                let rows = inSplit.filter { language == "all" || $0.moment.answer.language.code == language }
                guard !rows.isEmpty else { continue }
                let answers = Set(rows.map(\.moment.answer.id)).count
                let times = rows.map(\.transcriptionSeconds).sorted()
                lines.append(String(format: "\n%@ %@: %d answers; T median %.2f s, max %.2f s", split, language, answers,
                                    times[times.count / 2], times.last ?? 0))
                let header = ["strategy".padding(toLength: 42, withPad: " ", startingAt: 0)]
                    + kinds.map { $0.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0) }
                    + ["all".padding(toLength: 15, withPad: " ", startingAt: 0), waitTitle]
                if verdicts { lines += Self.verdicts(rows) }
                lines.append("  " + header.joined())
                for strategy in strategies {
                    let row = Self.row(strategy, rows)
                    let cells = kinds.map { kind in Self.rate(row.cutOffs[kind]).padding(toLength: 18, withPad: " ", startingAt: 0) }
                    let wait = String(format: "%.2f s  %.2f s", row.medianWait ?? .nan, row.meanWait ?? .nan)
                    lines.append("  " + strategy.name.padding(toLength: 42, withPad: " ", startingAt: 0) + cells.joined()
                                 + Self.rate(row.allCutOffs).padding(toLength: 15, withPad: " ", startingAt: 0) + wait)
                }
            }
        }
        return lines
    }

    /// `--incremental`: the final transcript whole against pieced, its error against the
    /// reference, and whisper's work left after the final pause.
    var finalTranscripts: String {
        var lines = ["\n== Final transcripts: whole answer vs pieces between pauses (each prompted with the text before it)",
                     "   error: WER (CER for ja) against the reference; left: whisper's work after the final pause, median / p95 / max"]
        for split in ["dev", "test"] {
            let finals = results.filter { !$0.incremental.isEmpty && $0.moment.answer.split == split }
            for language in Set(finals.map(\.moment.answer.language)).sorted().map(\.code) + ["all"] {
                for subset in ["all answers", "with pauses"] {
                    let rows = finals.filter { (language == "all" || $0.moment.answer.language.code == language)
                        && (subset == "all answers" || !$0.moment.answer.pauses.isEmpty) }
                    guard !rows.isEmpty else { continue }
                    func error(_ text: (TurnEvaluation.MomentResult) -> String) -> Double {
                        let counts = rows.map { ErrorRate.of(text($0), reference: $0.moment.answer.text ?? "", language: $0.moment.answer.language) }
                        return Double(counts.map(\.errors).reduce(0, +)) / Double(max(1, counts.map(\.units).reduce(0, +)))
                    }
                    lines.append(String(format: "%@ %@, %@ (%d): whole: error %.3f, left %@", split, language, subset, rows.count,
                                        error(\.text), Self.spread(rows.map(\.transcriptionSeconds), digits: 2)))
                    for (index, piecing) in TurnEvaluation.piecings.enumerated() {
                        let pieced = rows.map { $0.incremental[index] }
                        lines.append(String(format: "    %@ (%d pieces): error %.3f, left %@ (last piece %@)", piecing.name,
                                            pieced.map(\.pieces).reduce(0, +), error { $0.incremental[index].text },
                                            Self.spread(pieced.map(\.leftAfterPause), digits: 2), Self.spread(pieced.map(\.lastPieceSeconds), digits: 2)))
                    }
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `--draft`: whisper's time at the pause without and with a draft, and whether the text
    /// stayed the same.
    var draftedTranscripts: String {
        var lines = ["\n== Drafted: each pause's clip again with a draft (whisper's tokens for the answer up to the lag before the pause)",
                     "   T plain / drafted: median, p95, max; same: texts equal to the plain run's; draft: tokens confirmed of drafted, of decoded"]
        for split in ["dev", "test", "all"] {
            let rows = results.filter { $0.drafted != nil && (split == "all" || $0.moment.answer.split == split) }
            guard !rows.isEmpty else { continue }
            let drafted = rows.compactMap(\.drafted)
            let same = rows.filter { $0.drafted?.text == $0.text }.count
            lines.append(String(format: "%@ (%d pauses): T plain %@, drafted %@; same %d/%d; draft %d of %d, of %d",
                                split, rows.count, Self.spread(rows.map(\.transcriptionSeconds), digits: 3), Self.spread(drafted.map(\.seconds), digits: 3),
                                same, rows.count, drafted.map(\.accepted).reduce(0, +), drafted.map(\.draftLength).reduce(0, +),
                                drafted.map(\.tokens).reduce(0, +)))
            for row in rows where row.drafted?.text != row.text {
                lines.append("    \(row.moment.answer.id) @\(row.moment.at): “\(row.text)” → “\(row.drafted?.text ?? "")”")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Median / p95 / max of `seconds`, with `digits` decimals.
    static func spread(_ seconds: [Double], digits: Int) -> String {
        let sorted = seconds.sorted()
        let number = "%.\(digits)f"
        return String(format: "\(number) / \(number) / \(number) s", sorted[sorted.count / 2], percentile(seconds, 95), sorted.last ?? 0)
    }

    static func rate(_ count: (cut: Int, of: Int)?) -> String {
        guard let count, count.of > 0 else { return "—" }
        return String(format: "%d/%d %.0f%%", count.cut, count.of, 100 * Double(count.cut) / Double(count.of))
    }
}
