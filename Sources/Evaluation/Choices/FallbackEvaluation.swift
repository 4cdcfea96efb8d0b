import DialogueCore
import Foundation

/// How often our rules alone (no model) choose an acceptable next step: the floor the
/// product stands on when the model is missing or fails.
public struct FallbackReport: Sendable, Hashable {
    public struct Rate: Sendable, Hashable {
        /// A language's code, or "overall".
        public let language: String
        public let hits: Int
        public let total: Int
        public var rate: Double { total == 0 ? 0 : Double(hits) / Double(total) }
    }

    public struct Miss: Sendable, Hashable {
        public let id: String
        public let chosen: QuestionChoice
        public let acceptable: [QuestionChoice]
    }

    /// Per language, in the order languages first appear in the scenarios.
    public let perLanguage: [Rate]
    public let overall: Rate
    public let misses: [Miss]

    /// "fallback-only acceptable: en 10/12 (83.3%), … overall 50/60 (83.3%)"
    public var summary: String {
        func format(_ rate: Rate) -> String {
            "\(rate.language) \(rate.hits)/\(rate.total) (\(String(format: "%.1f", rate.rate * 100))%)"
        }
        return "fallback-only acceptable: " + (perLanguage + [overall]).map(format).joined(separator: ", ")
    }
}


public enum FallbackEvaluation {
    /// Runs `fallbackChoice` on every scenario whose language has rules (as
    /// `Rules.byLanguage` makes them: compiling them is the costly part, so they are passed in).
    public static func evaluate(_ scenarios: [ChoiceScenario], rules: [Language: Rules]) -> FallbackReport {
        var order: [Language] = []
        var hits: [Language: Int] = [:], totals: [Language: Int] = [:]
        var misses: [FallbackReport.Miss] = []
        for scenario in scenarios {
            guard let languageRules = rules[scenario.language] else { continue }
            if totals[scenario.language] == nil { order.append(scenario.language) }
            let chosen = languageRules.fallbackChoice(scenario.conversation)
            totals[scenario.language, default: 0] += 1
            if scenario.acceptable.contains(chosen) {
                hits[scenario.language, default: 0] += 1
            } else {
                misses.append(.init(id: scenario.id, chosen: chosen, acceptable: scenario.acceptable))
            }
        }
        let perLanguage = order.map { FallbackReport.Rate(language: $0.code, hits: hits[$0, default: 0], total: totals[$0, default: 0]) }
        let overall = FallbackReport.Rate(language: "overall", hits: perLanguage.reduce(0) { $0 + $1.hits },
                                          total: perLanguage.reduce(0) { $0 + $1.total })
        return FallbackReport(perLanguage: perLanguage, overall: overall, misses: misses)
    }
}
