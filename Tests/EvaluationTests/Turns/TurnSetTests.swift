import Foundation
import Testing
@testable import Evaluation

/// The turn-taking set's labels as `eval turns` reads them, and the committed set itself
/// checked against the speech manifest (no audio needed).
@Suite struct TurnSetTests {
    static let sample = """
    {"lengthened": [0.6, 1.0],
     "answers": [
      {"id": "a", "language": "en", "split": "dev", "kind": "read", "licence": "MIT", "clip": "c1", "from": 0, "to": 3.0,
       "pauses": [{"at": 1.2, "seconds": 0.3}, {"at": 2.0, "seconds": 0.8}]},
      {"id": "b", "language": "fr", "split": "test", "kind": "read", "licence": "MIT", "clip": "c2", "from": 1.0, "to": 2.5, "pauses": []}],
     "joins": [{"first": "a", "then": "b", "pauses": [0.5, 1.0]}]}
    """

    @Test func everyPauseAndEveryEndIsOneMomentWithItsSilences() throws {
        let set = try TurnSet(data: Data(Self.sample.utf8), name: "sample")
        let moments = set.moments
        #expect(moments.map(\.answer.id) == ["a", "a", "a", "b"])
        #expect(moments.map(\.at) == [1.2, 2.0, 3.0, 2.5])
        #expect(moments[0].silences == [.init(kind: .inside, seconds: 0.3), .init(kind: .lengthened, seconds: 0.6),
                                        .init(kind: .lengthened, seconds: 1.0)])
        // Only lengths beyond the measured one are added.
        #expect(moments[1].silences == [.init(kind: .inside, seconds: 0.8), .init(kind: .lengthened, seconds: 1.0)])
        // The end of `a` is also a pause between sentences before `b`.
        #expect(moments[2].silences == [.init(kind: .endOfTurn, seconds: nil), .init(kind: .betweenSentences, seconds: 0.5),
                                        .init(kind: .betweenSentences, seconds: 1.0)])
        #expect(moments[3].silences == [.init(kind: .endOfTurn, seconds: nil)])
    }

    @Test func aJoinToAnUnknownAnswerOrAPauseOutsideItsAnswerIsRefused() {
        let unknownJoin = Self.sample.replacingOccurrences(of: #""then": "b""#, with: #""then": "z""#)
        #expect(throws: SpeechSet.LoadError.self) { try TurnSet(data: Data(unknownJoin.utf8), name: "x") }
        let outside = Self.sample.replacingOccurrences(of: #""at": 2.0"#, with: #""at": 3.5"#)
        #expect(throws: SpeechSet.LoadError.self) { try TurnSet(data: Data(outside.utf8), name: "x") }
        #expect(throws: SpeechSet.LoadError.self) { try TurnSet(data: Data("{}".utf8), name: "x") }
    }

    @Test func thePrefixIsTheAnswerSoFarThenSilence() {
        let samples = (0..<10).map { Float($0 + 1) }   // 10 samples at 10 Hz: 1 s
        #expect(TurnSet.prefix(of: samples, from: 0.2, end: 1, through: 0.5, rate: 10) == [3, 4, 5])
        // After the answer's end (the other voice in a conversation) and past the clip: silence.
        #expect(TurnSet.prefix(of: samples, from: 0.5, end: 0.7, through: 0.9, rate: 10) == [6, 7, 0, 0])
        #expect(TurnSet.prefix(of: samples, from: 0.8, end: 1, through: 1.3, rate: 10) == [9, 10, 0, 0, 0])
        #expect(TurnSet.prefix(of: samples, from: 1.2, end: 1, through: 1.4, rate: 10) == [0, 0])
    }

    /// The committed set: every answer names a clip of the speech manifest, in its language and
    /// split, with its licence, and every pause lies inside the clip's speech.
    @Test func theCommittedSetMatchesTheSpeechManifest() throws {
        let fixtures = try EvaluationFixtures.fixture("turn-taking.json").deletingLastPathComponent()
        let set = try TurnSet(contentsOf: fixtures.appendingPathComponent("turn-taking.json").path)
        struct Manifest: Decodable {
            struct Clip: Decodable {
                struct Licence: Decodable { let spdx: String }
                struct Span: Decodable { let start: Double; let end: Double }
                let id, language, split: String
                let licence: Licence
                let speech: Span?
            }
            let clips: [Clip]
        }
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: fixtures.appendingPathComponent("speech-manifest.json")))
        let clips = Dictionary(uniqueKeysWithValues: manifest.clips.map { ($0.id, $0) })
        #expect(set.answers.count >= 30)
        #expect(Set(set.answers.map(\.split)) == ["dev", "test"])
        for answer in set.answers {
            let clip = try #require(clips[answer.clip], "\(answer.id): no clip \(answer.clip)")
            #expect(clip.language == answer.language.code && clip.split == answer.split && clip.licence.spdx == answer.licence, "\(answer.id)")
            let speech = try #require(clip.speech)
            #expect(answer.from >= 0 && answer.to <= speech.end + 0.01 && answer.from < answer.to, "\(answer.id)")
            #expect(answer.pauses.allSatisfy { $0.seconds >= 0.2 - 1e-9 }, "\(answer.id)")
        }
        // A join never crosses voices, languages or splits.
        let answers = Dictionary(uniqueKeysWithValues: set.answers.map { ($0.id, $0) })
        for join in set.joins {
            let first = try #require(answers[join.first]), then = try #require(answers[join.then])
            #expect(first.language == then.language && first.split == then.split && first.licence == then.licence, "\(join.first)")
        }
    }
}
