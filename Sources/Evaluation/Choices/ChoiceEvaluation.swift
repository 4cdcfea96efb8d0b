import Decisions
import DialogueCore
import Foundation

/// One scenario of `choice-scenarios.json` run through the real decision path.
public struct ChoiceCaseResult: Sendable, Hashable {
    public let id: String
    public let language: Language
    public let choice: QuestionChoice
    public let source: DecisionSource
    public let suggestion: QuestionChoice?
    public let acceptable: Bool
    public let mustEnd: Bool
    public let milliseconds: Int
    public let attempts: Int
    public let failures: [String]
    public let split: String?
    public let category: String?

    public var ended: Bool { choice.isFinal }
    /// The exchange did not end although the person ended or refused.
    public var missedEnding: Bool { mustEnd && !ended }
    /// The exchange ended although the person had not, and the labels say it should go on.
    public var falseEnding: Bool { !mustEnd && ended && !acceptable }
    /// A question was asked, but not one the labels accept.
    public var wrongAngle: Bool { !mustEnd && !ended && !acceptable }
}

/// Acceptable rate per language and overall, in the order languages first appear.
public struct RateTable: Sendable, Hashable {
    public struct Row: Sendable, Hashable {
        /// A language's code, or "overall".
        public let language: String
        public let hits: Int
        public let total: Int
        public var rate: Double { total == 0 ? 0 : Double(hits) / Double(total) }
        public var text: String { "\(language) \(hits)/\(total) (\(String(format: "%.1f", rate * 100))%)" }
    }

    public let rows: [Row]
    public let overall: Row

    public init(_ outcomes: [(language: Language, hit: Bool)]) {
        var order: [Language] = []
        var hits: [Language: Int] = [:], totals: [Language: Int] = [:]
        for outcome in outcomes {
            if totals[outcome.language] == nil { order.append(outcome.language) }
            totals[outcome.language, default: 0] += 1
            if outcome.hit { hits[outcome.language, default: 0] += 1 }
        }
        rows = order.map { Row(language: $0.code, hits: hits[$0, default: 0], total: totals[$0, default: 0]) }
        overall = Row(language: "overall", hits: rows.reduce(0) { $0 + $1.hits }, total: rows.reduce(0) { $0 + $1.total })
    }

    public var text: String { (rows + [overall]).map(\.text).joined(separator: ", ") }
}

public enum ChoiceEvaluation {
    /// Runs every scenario whose language has rules through `service`, one after another
    /// (one model, one context). `progress` sees each result as it is made.
    public static func run(_ scenarios: [ChoiceScenario], rules: [Language: Rules], service: DecisionService,
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
                failures: outcome.failures, split: scenario.split, category: scenario.category)
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
        results.filter(\.missedEnding).map(\.id)
    }
}

/// What `eval choices` reports about a run: acceptable rates per language, split and
/// category, and the confusion that matters most: endings missed, endings made up, and
/// questions from the wrong angle.
public struct ChoiceReport: Sendable, Encodable {
    public struct Rate: Sendable, Encodable, Equatable {
        public let hits: Int
        public let total: Int
        public var rate: Double { total == 0 ? 0 : Double(hits) / Double(total) }
        public func encode(to encoder: any Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(rate) }
        var text: String { "\(hits)/\(total) (\(String(format: "%.1f", rate * 100))%)" }
    }

    public let cases: Int
    /// Per language (and "overall"), per split, per category.
    public let acceptable: [String: Rate]
    public let bySplit: [String: Rate]
    public let byCategory: [String: Rate]
    public let missedEndings: [String]
    public let falseEndings: [String]
    public let wrongAngles: [String]

    public init(_ results: [ChoiceCaseResult]) {
        func rates(_ key: (ChoiceCaseResult) -> String?) -> [String: Rate] {
            Dictionary(grouping: results.filter { key($0) != nil }, by: { key($0)! }).mapValues {
                Rate(hits: $0.filter(\.acceptable).count, total: $0.count)
            }
        }
        cases = results.count
        acceptable = rates(\.language.code).merging(["overall": Rate(hits: results.filter(\.acceptable).count, total: results.count)]) { $1 }
        bySplit = rates(\.split)
        byCategory = rates(\.category)
        missedEndings = results.filter(\.missedEnding).map(\.id)
        falseEndings = results.filter(\.falseEnding).map(\.id)
        wrongAngles = results.filter(\.wrongAngle).map(\.id)
    }

    /// The report as a few lines for a person.
    public var text: String {
        func line(_ label: String, _ rates: [String: Rate], order: [String]) -> String? {
            guard !rates.isEmpty else { return nil }
            let keys = order.filter { rates[$0] != nil } + rates.keys.filter { !order.contains($0) }.sorted()
            return label + keys.map { "\($0) \(rates[$0]!.text)" }.joined(separator: ", ")
        }
        func list(_ ids: [String]) -> String { ids.isEmpty ? "none" : "\(ids.count): " + ids.joined(separator: ", ") }
        return [
            line("acceptable: ", acceptable, order: LanguagePackLoader.supportedLanguages.map(\.code) + ["overall"]),
            line("by split: ", bySplit, order: ["dev", "test"]),
            line("by category: ", byCategory, order: []),
            "missed endings (ended or refused, went on): " + list(missedEndings),
            "false endings (ended, the person had not): " + list(falseEndings),
            "wrong angles (asked, not an acceptable question): " + list(wrongAngles),
        ].compactMap { $0 }.joined(separator: "\n")
    }
}

/// Nearest-rank percentile of latencies (milliseconds, seconds); zero when there are none.
public func percentile<Value: Comparable & AdditiveArithmetic>(_ values: [Value], _ p: Double) -> Value {
    guard !values.isEmpty else { return .zero }
    let sorted = values.sorted()
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
}
