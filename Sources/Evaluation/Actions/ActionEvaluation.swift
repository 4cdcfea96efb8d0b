import Decisions
import DialogueCore
import Foundation

/// One labelled note of `action-scenarios.json`: its sentences (1…N in order), the IDs that
/// are next steps, and the key sentence's ID.
public struct ActionScenario: Sendable, Hashable, Codable {
    public let id: String
    public let language: Language
    public let split: String
    public let sentences: [String]
    public let actions: [Int]
    public let key: Int

    public var sources: [Source] {
        sentences.enumerated().map { Source(id: $0.offset + 1, text: $0.element, answerIndex: 0) }
    }
}

public struct ActionScenarioSet: Sendable, Hashable, Codable {
    public let version: Int
    /// When every note was spoken (ISO 8601): relative dates resolve against it.
    public let created: String
    public let description: String
    public let cases: [ActionScenario]

    public static func load(from url: URL) throws -> ActionScenarioSet {
        try JSONDecoder().decode(ActionScenarioSet.self, from: Data(contentsOf: url))
    }
}

/// A labelled note run through the real highlights path, with what each method would pick.
public struct ActionCaseResult: Sendable, Hashable {
    public let scenario: ActionScenario
    /// The model's next-step log-odds per sentence (empty: the fallback was used).
    public let odds: [Double]
    /// The cue rules' score per sentence (0 or 1).
    public let cues: [Double]
    public let highlights: Highlights
    public let source: HighlightsSource
    public let milliseconds: Int

    /// `en-actions-01 [model] picked 3,5 expected 3 key 1/1 412 ms`
    public var line: String {
        func ids(_ list: [Int]) -> String { list.isEmpty ? "-" : list.map(String.init).joined(separator: ",") }
        return "\(scenario.id) [\(source.rawValue)] picked \(ids(highlights.nextSteps)) expected \(ids(scenario.actions)) "
            + "key \(highlights.key)/\(scenario.key) \(milliseconds) ms"
    }
}

public enum ActionEvaluation {
    public static func run(_ scenarios: [ActionScenario], service: DecisionService,
                           progress: (ActionCaseResult) -> Void = { _ in }) async throws -> [ActionCaseResult] {
        var results: [ActionCaseResult] = []
        for scenario in scenarios {
            let outcome = try await service.highlights(scenario.sources, language: scenario.language)
            let result = ActionCaseResult(
                scenario: scenario, odds: outcome.odds,
                cues: scenario.sentences.map { ActionCues.score($0, language: scenario.language) },
                highlights: outcome.highlights, source: outcome.source, milliseconds: outcome.milliseconds)
            progress(result)
            results.append(result)
        }
        return results
    }
}

/// Precision and recall of next-step IDs, added up over notes (micro-average).
public struct SelectionScore: Sendable, Hashable, Encodable {
    public var truePositives = 0
    public var falsePositives = 0
    public var falseNegatives = 0

    public init() {}

    public mutating func add(picked: [Int], expected: [Int]) {
        let picked = Set(picked), expected = Set(expected)
        truePositives += picked.intersection(expected).count
        falsePositives += picked.subtracting(expected).count
        falseNegatives += expected.subtracting(picked).count
    }

    /// 1 when nothing was picked (no false step was claimed).
    public var precision: Double { truePositives + falsePositives == 0 ? 1 : Double(truePositives) / Double(truePositives + falsePositives) }
    public var recall: Double { truePositives + falseNegatives == 0 ? 1 : Double(truePositives) / Double(truePositives + falseNegatives) }
    public var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }
}

/// What `eval actions` reports: for the model alone (its threshold chosen on dev), the cue
/// rules alone, and the product's combination (the service's settings), precision and recall
/// per split and language; the combination's best settings on dev; key accuracy; latency.
public struct ActionSummary: Sendable {
    public struct Method: Sendable {
        public let name: String
        public let pick: @Sendable (ActionCaseResult) -> [Int]
    }

    public let results: [ActionCaseResult]
    public let settings: DecisionSettings
    public let model: String

    public init(_ results: [ActionCaseResult], settings: DecisionSettings, model: String?) {
        self.results = results
        self.settings = settings
        self.model = model ?? "none"
    }

    public static let thresholds = stride(from: -8.0, through: 8.0, by: 0.25).map { $0 }
    public static let weights = stride(from: 0.0, through: 8.0, by: 0.5).map { $0 }

    /// The threshold and cue weight with the best F1 on dev (`weights` [0]: the model alone).
    public func bestOnDev(weights: [Double] = weights) -> (threshold: Double, cueWeight: Double, score: SelectionScore) {
        let dev = results.filter { $0.scenario.split == "dev" && !$0.odds.isEmpty }
        var best = (threshold: 0.0, cueWeight: 0.0, score: SelectionScore())
        var bestF1 = -1.0
        for weight in weights {
            for threshold in Self.thresholds {
                let score = Self.score(dev) { NextStepRule.select(odds: $0.odds, cues: $0.cues, threshold: threshold, cueWeight: weight) }
                if score.f1 > bestF1 + 1e-9 { bestF1 = score.f1; best = (threshold, weight, score) }
            }
        }
        return best
    }

    static func score(_ results: [ActionCaseResult], pick: (ActionCaseResult) -> [Int]) -> SelectionScore {
        var score = SelectionScore()
        for result in results { score.add(picked: pick(result), expected: result.scenario.actions) }
        return score
    }

    public var methods: [Method] {
        let modelAlone = bestOnDev(weights: [0])
        let settings = settings
        return [
            Method(name: String(format: "model (threshold %.2f, best on dev)", modelAlone.threshold)) {
                $0.odds.isEmpty ? [] : NextStepRule.select(odds: $0.odds, cues: $0.cues, threshold: modelAlone.threshold, cueWeight: 0)
            },
            Method(name: "cue rules") { NextStepRule.select(odds: $0.cues.map { _ in 0 }, cues: $0.cues, threshold: 0.5, cueWeight: 1) },
            Method(name: String(format: "product (threshold %.2f, cue weight %.2f)", settings.nextStepThreshold, settings.nextStepCueWeight)) {
                $0.highlights.nextSteps
            },
        ]
    }

    public var text: String {
        var lines = ["model: " + (model == "none" ? "none (fallback only)" : model)]
        let languages = Array(Set(results.map(\.scenario.language))).sorted()
        for method in methods {
            lines.append(method.name + ":")
            for split in ["dev", "test"] {
                let inSplit = results.filter { $0.scenario.split == split }
                guard !inSplit.isEmpty else { continue }
                var cells = [Self.cell("all", Self.score(inSplit, pick: method.pick))]
                for language in languages {
                    cells.append(Self.cell(language.code, Self.score(inSplit.filter { $0.scenario.language == language }, pick: method.pick)))
                }
                lines.append("  \(split): " + cells.joined(separator: "  "))
            }
        }
        let best = bestOnDev()
        lines.append(String(format: "best on dev: threshold %.2f, cue weight %.2f (P %.2f R %.2f)",
                            best.threshold, best.cueWeight, best.score.precision, best.score.recall))
        for split in ["dev", "test"] {
            let inSplit = results.filter { $0.scenario.split == split }
            guard !inSplit.isEmpty else { continue }
            let hits = inSplit.filter { $0.highlights.key == $0.scenario.key }.count
            lines.append("key sentence, \(split): \(hits)/\(inSplit.count) as labelled")
        }
        let times = results.filter { $0.source == .model }.map(\.milliseconds)
        let sentences = results.filter { $0.source == .model }.map(\.scenario.sentences.count).reduce(0, +)
        lines.append("latency of model decisions: p50 \(percentile(times, 50)) ms, p95 \(percentile(times, 95)) ms "
                     + "(\(times.count) notes, \(sentences) sentences)")
        return lines.joined(separator: "\n")
    }

    static func cell(_ name: String, _ score: SelectionScore) -> String {
        String(format: "%@ P %.2f R %.2f", name, score.precision, score.recall)
    }
}
