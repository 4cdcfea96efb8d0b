import DialogueCore
import Foundation

/// The turn-taking set (`Tests/Fixtures/turn-taking.json`, written by scripts/turn_taking_set.py):
/// answers cut from the real-speech clips, the silences inside them that must not end them, and
/// their ends. Labels only; the audio is the clips' (`SpeechSet`).
public struct TurnSet: Sendable, Decodable {
    public struct Answer: Sendable, Decodable {
        public let id: String
        public let language: Language
        /// `dev` (calibrated on) or `test` (reported only).
        public let split: String
        public let kind: String
        /// The SPDX id of the clip's licence (the speech manifest says where it is stated).
        public let licence: String
        /// The clip the answer is cut from, and where (seconds of the clip): `to` is its end of turn.
        public let clip: String
        public let from: Double
        public let to: Double
        public let text: String?
        /// Silences of 200 ms or more inside the answer: keep listening.
        public let pauses: [Pause]
    }

    public struct Pause: Sendable, Decodable, Equatable {
        /// Where the silence starts, in the clip's seconds.
        public let at: Double
        public let seconds: Double
    }

    /// The first answer's end, followed after each of `pauses` (seconds) by the next answer of the
    /// same voice: a pause between sentences.
    public struct Join: Sendable, Decodable {
        public let first: String
        public let then: String
        public let pauses: [Double]
    }

    /// Every keep-listening pause is also scored at each of these lengths, where longer than measured.
    public let lengthened: [Double]
    public let answers: [Answer]
    public let joins: [Join]

    /// A place where the listener decides: the answer's audio up to `at` (clip seconds), then
    /// silence. What follows the silence cannot change the decision made in it, so one
    /// transcript of the prefix decides every silence listed here.
    public struct Moment: Sendable {
        public let answer: Answer
        public let at: Double
        public let silences: [Silence]
    }

    public struct Silence: Sendable, Equatable {
        public enum Kind: String, Sendable, CaseIterable {
            /// Measured inside an answer.
            case inside
            /// The same place held longer.
            case lengthened
            /// After a finished sentence, before the next one (a join).
            case betweenSentences = "between sentences"
            /// After the answer: the listener should end it.
            case endOfTurn = "end of turn"
        }
        public let kind: Kind
        /// Its length; nil for an end of turn (the silence goes on).
        public let seconds: Double?
    }

    public init(data: Data, name: String) throws {
        do {
            self = try JSONDecoder().decode(Self.self, from: data)
        } catch {
            throw SpeechSet.LoadError(description: "\(name): not a turn-taking set (\(error)). Write it with scripts/turn_taking_set.py.")
        }
        let ids = Set(answers.map(\.id))
        if let join = joins.first(where: { !ids.contains($0.first) || !ids.contains($0.then) }) {
            throw SpeechSet.LoadError(description: "\(name): the join \(join.first) → \(join.then) names an answer the set does not have.")
        }
        if let answer = answers.first(where: { answer in answer.pauses.contains { $0.at <= answer.from || $0.at >= answer.to } }) {
            throw SpeechSet.LoadError(description: "\(name): \(answer.id) has a pause outside \(answer.from)–\(answer.to) s.")
        }
    }

    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SpeechSet.LoadError(description: "\(path): no such file.")
        }
        try self.init(data: data, name: path)
    }

    /// Each pause of each answer, then its end (with the joins that follow it).
    public var moments: [Moment] {
        answers.flatMap { answer in
            answer.pauses.map { pause in
                Moment(answer: answer, at: pause.at,
                       silences: [Silence(kind: .inside, seconds: pause.seconds)]
                           + lengthened.filter { $0 > pause.seconds }.map { Silence(kind: .lengthened, seconds: $0) })
            } + [Moment(answer: answer, at: answer.to,
                        silences: [Silence(kind: .endOfTurn, seconds: nil)]
                            + joins.filter { $0.first == answer.id }.flatMap(\.pauses).map { Silence(kind: .betweenSentences, seconds: $0) })]
        }
    }

    /// What the listener has transcribed at a pause: the clip from `from` to `through` seconds,
    /// silent after `end` (the answer's end: in the conversation the other voice follows) and
    /// where the clip ends sooner (the Asterisk prompts are trimmed tight).
    public static func prefix(of samples: [Float], from: Double, end: Double, through: Double, rate: Int) -> [Float] {
        func index(_ seconds: Double) -> Int { max(0, Int((seconds * Double(rate)).rounded())) }
        let start = min(samples.count, index(from))
        let count = max(0, index(through) - index(from))
        let available = samples[start..<max(start, min(samples.count, index(end), start + count))]
        return Array(available) + [Float](repeating: 0, count: count - available.count)
    }

    /// The set in the source tree, for running from a checkout.
    public static let sourceTreePath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../../../Tests/Fixtures/turn-taking.json").standardizedFileURL.path
}
