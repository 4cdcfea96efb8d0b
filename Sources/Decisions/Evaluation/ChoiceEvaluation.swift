import DialogueCore
import Foundation

/// One scenario of `choice-scenarios.json` run through the real decision path.
public struct ChoiceCaseResult: Sendable, Hashable {
    public let id: String
    public let language: String
    public let choice: QuestionChoice
    public let source: DecisionSource
    public let suggestion: QuestionChoice?
    public let acceptable: Bool
    public let mustEnd: Bool
    public let milliseconds: Int
    public let attempts: Int
    public let failures: [String]

    public var ended: Bool { choice.isFinal }
}

/// Acceptable rate per language and overall, in the order languages first appear.
public struct RateTable: Sendable, Hashable {
    public struct Row: Sendable, Hashable {
        public let language: String
        public let hits: Int
        public let total: Int
        public var rate: Double { total == 0 ? 0 : Double(hits) / Double(total) }
        public var text: String { "\(language) \(hits)/\(total) (\(String(format: "%.1f", rate * 100))%)" }
    }

    public let rows: [Row]
    public let overall: Row

    public init(_ outcomes: [(language: String, hit: Bool)]) {
        var order: [String] = []
        var hits: [String: Int] = [:], totals: [String: Int] = [:]
        for outcome in outcomes {
            if totals[outcome.language] == nil { order.append(outcome.language) }
            totals[outcome.language, default: 0] += 1
            if outcome.hit { hits[outcome.language, default: 0] += 1 }
        }
        rows = order.map { Row(language: $0, hits: hits[$0, default: 0], total: totals[$0, default: 0]) }
        overall = Row(language: "overall", hits: rows.reduce(0) { $0 + $1.hits }, total: rows.reduce(0) { $0 + $1.total })
    }

    public var text: String { (rows + [overall]).map(\.text).joined(separator: ", ") }
}

public enum ChoiceEvaluation {
    /// Runs every scenario whose language has rules through `service`, one after another
    /// (one model, one context). `progress` sees each result as it is made.
    public static func run(_ scenarios: [ChoiceScenario], rules: [String: Rules], service: DecisionService,
                           progress: (ChoiceCaseResult) -> Void = { _ in }) async throws -> [ChoiceCaseResult] {
        var results: [ChoiceCaseResult] = []
        for scenario in scenarios {
            guard let languageRules = rules[scenario.language] else { continue }
            let outcome = try await service.nextQuestion(scenario.conversation, rules: languageRules)
            let decision = outcome.decision
            let result = ChoiceCaseResult(
                id: scenario.id, language: scenario.language, choice: decision.choice, source: decision.source,
                suggestion: decision.suggestion, acceptable: scenario.acceptable.contains(decision.choice),
                mustEnd: scenario.mustEnd, milliseconds: outcome.milliseconds, attempts: outcome.attempts,
                failures: outcome.failures)
            progress(result)
            results.append(result)
        }
        return results
    }

    public static func rates(_ results: [ChoiceCaseResult]) -> RateTable {
        RateTable(results.map { ($0.language, $0.acceptable) })
    }

    /// `mustEnd` cases that did not end (must be none).
    public static func missedEndings(_ results: [ChoiceCaseResult]) -> [String] {
        results.filter { $0.mustEnd && !$0.ended }.map(\.id)
    }
}

/// Nearest-rank percentile of millisecond latencies.
public func percentile(_ values: [Int], _ p: Double) -> Int {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
}
