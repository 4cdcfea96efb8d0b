import DialogueCore
import Foundation

/// A labelled people set (`people-scenarios.json`, `people-blind-batch.json`): memos of answers,
/// and every person-name mention as its answer and its exact text.
public struct PeopleScenarioSet: Sendable, Decodable {
    public struct Memo: Sendable, Decodable {
        public struct Mention: Sendable, Decodable, Hashable {
            public let answer: Int
            public let text: String
        }
        public let id: String
        public let language: Language
        public let split: String
        public let answers: [String]
        public let people: [Mention]
        public let traps: [String]
    }
    public let memos: [Memo]

    public static func load(from url: URL) throws -> PeopleScenarioSet {
        try JSONDecoder().decode(PeopleScenarioSet.self, from: Data(contentsOf: url))
    }
}

/// One memo through the product's finder: what it found, by answer, and how long it took.
public struct PeopleCaseResult: Sendable {
    public let memo: PeopleScenarioSet.Memo
    public let found: [PeopleScenarioSet.Memo.Mention]
    public let microseconds: Double

    /// Mentions are compared as a multiset of (answer, text): a name said twice counts twice.
    public var score: SelectionScore {
        var expected: [PeopleScenarioSet.Memo.Mention: Int] = [:]
        for mention in memo.people { expected[mention, default: 0] += 1 }
        var score = SelectionScore()
        for mention in found {
            if let left = expected[mention], left > 0 { expected[mention] = left - 1; score.truePositives += 1 }
            else { score.falsePositives += 1 }
        }
        score.falseNegatives = expected.values.reduce(0, +)
        return score
    }

    /// `de-05 extra: Bosch · missed: Juergen`, or nil when it found exactly the labels.
    public var errorLine: String? {
        var expected = memo.people, extra: [String] = []
        for mention in found {
            if let index = expected.firstIndex(of: mention) { expected.remove(at: index) } else { extra.append(mention.text) }
        }
        guard !extra.isEmpty || !expected.isEmpty else { return nil }
        func list(_ names: [String]) -> String { names.isEmpty ? "-" : names.joined(separator: ", ") }
        return "\(memo.id) extra: \(list(extra)) · missed: \(list(expected.map(\.text)))"
    }
}

public enum PeopleEvaluation {
    /// Each memo's answers split into sentences as the product splits them, then the language's
    /// finder on them; a memo in a language without a file finds nobody.
    public static func run(_ memos: [PeopleScenarioSet.Memo], loader: LanguagePackLoader = LanguagePackLoader()) -> [PeopleCaseResult] {
        var packs: [Language: LanguagePack] = [:]
        return memos.map { memo in
            let pack = packs[memo.language] ?? (try? loader.load(memo.language))
            packs[memo.language] = pack
            let sources = SentenceSplitter.sources(from: memo.answers, language: memo.language)
            let finder = pack?.people ?? .none
            let start = DispatchTime.now().uptimeNanoseconds
            let mentions = finder.mentions(in: sources)
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000
            let byID = Dictionary(uniqueKeysWithValues: sources.map { ($0.id, $0.answerIndex) })
            return PeopleCaseResult(memo: memo, found: mentions.map { .init(answer: byID[$0.sentence] ?? -1, text: $0.text) },
                                    microseconds: elapsed)
        }
    }
}

/// Precision and recall per set, split and language, and the finder's time per memo.
public struct PeopleSummary: Sendable {
    /// A set's name ("people-scenarios") and its results.
    public let sets: [(name: String, results: [PeopleCaseResult])]

    public init(_ sets: [(name: String, results: [PeopleCaseResult])]) { self.sets = sets }

    /// The score of the results of one set, split and language (nil: all languages).
    public func score(set: String, split: String, language: Language?) -> SelectionScore {
        var total = SelectionScore()
        for result in sets.first(where: { $0.name == set })?.results ?? []
        where result.memo.split == split && (language == nil || result.memo.language == language) {
            let score = result.score
            total.truePositives += score.truePositives
            total.falsePositives += score.falsePositives
            total.falseNegatives += score.falseNegatives
        }
        return total
    }

    public var text: String {
        var lines: [String] = []
        for (name, results) in sets {
            let languages = Array(Set(results.map(\.memo.language))).sorted()
            for split in ["dev", "test"] where results.contains(where: { $0.memo.split == split }) {
                let cells = ([nil] + languages).map { (language: Language?) in
                    let score = score(set: name, split: split, language: language)
                    return String(format: "%@ P %.2f R %.2f (%d/%d/%d)", language?.code ?? "all", score.precision, score.recall,
                                  score.truePositives, score.falsePositives, score.falseNegatives)
                }
                lines.append("\(name) \(split): " + cells.joined(separator: "  "))
            }
        }
        let times = sets.flatMap(\.results).map(\.microseconds).sorted()
        if !times.isEmpty {
            lines.append(String(format: "finder: median %.0f µs, p95 %.0f µs per memo (%d memos); in brackets: right/wrong/missed",
                                times[times.count / 2], times[min(times.count - 1, times.count * 95 / 100)], times.count))
        }
        return lines.joined(separator: "\n")
    }
}
