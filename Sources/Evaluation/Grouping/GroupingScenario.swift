import Decisions
import DialogueCore
import Foundation

/// One labelled case of `grouping-scenarios.json`: the user's answers and the paragraphs a
/// careful editor would make of their sentences.
public struct GroupingScenario: Sendable, Hashable, Codable {
    public let id: String
    public let language: Language
    public let answers: [String]
    public let paragraphs: [[String]]
    public let titleFromFirstSentence: Bool
    public let note: String?

    /// The numbered sentences, as the product makes them.
    public var sources: [Source] { SentenceSplitter.sources(from: answers, language: language) }

    /// The expected layout over `sources`, or nil when the labelled sentences do not match
    /// the split (then the case cannot be scored).
    public var expectedLayout: Layout? {
        let texts = sources.map(\.text)
        guard texts == paragraphs.flatMap({ $0 }) else { return nil }
        var groups: [[Int]] = []
        var next = 1
        for paragraph in paragraphs {
            groups.append(Array(next..<(next + paragraph.count)))
            next += paragraph.count
        }
        return Layout(firstSourceIsTitle: titleFromFirstSentence, groups: groups)
    }

    /// The baseline: one paragraph per answer, no title.
    public var answerLayout: Layout {
        let sources = sources
        var groups: [[Int]] = []
        for source in sources {
            if let last = groups.last?.last, sources[last - 1].answerIndex == source.answerIndex {
                groups[groups.count - 1].append(source.id)
            } else {
                groups.append([source.id])
            }
        }
        return Layout(firstSourceIsTitle: false, groups: groups)
    }
}

public struct GroupingScenarioSet: Sendable, Hashable, Codable {
    public let version: Int
    public let description: String
    public let cases: [GroupingScenario]

    public static func load(from url: URL) throws -> GroupingScenarioSet {
        try JSONDecoder().decode(GroupingScenarioSet.self, from: Data(contentsOf: url))
    }
}

/// Paragraph-boundary agreement: a boundary is "a new paragraph starts after sentence k".
/// Counts add up over cases (micro-average).
public struct BoundaryScore: Sendable, Hashable {
    public var truePositives = 0
    public var falsePositives = 0
    public var falseNegatives = 0

    public init() {}

    public static func boundaries(_ layout: Layout) -> Set<Int> {
        var result = Set<Int>()
        for group in layout.groups.dropLast() { if let last = group.last { result.insert(last) } }
        return result
    }

    public mutating func add(predicted: Layout, expected: Layout) {
        let p = Self.boundaries(predicted), e = Self.boundaries(expected)
        truePositives += p.intersection(e).count
        falsePositives += p.subtracting(e).count
        falseNegatives += e.subtracting(p).count
    }

    public var precision: Double { ratio(truePositives, truePositives + falsePositives) }
    public var recall: Double { ratio(truePositives, truePositives + falseNegatives) }
    public var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }

    public var text: String {
        String(format: "P %.3f R %.3f F1 %.3f", precision, recall, f1)
    }

    private func ratio(_ a: Int, _ b: Int) -> Double { b == 0 ? 0 : Double(a) / Double(b) }
}
