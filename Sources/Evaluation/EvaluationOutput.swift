import Decisions
import DialogueCore
import Foundation

/// What `eval` prints: a line per case (for a person, or JSON for scripts such as the
/// benchmark) and a summary. Built here, where the results are, so the command only chooses.
public enum EvaluationJSON {
    /// One compact JSON object, keys sorted, slashes unescaped.
    public static func line(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }
}

extension ChoiceCaseResult {
    /// `ok   en-ordinary-01: problem [model] 412 ms`, with what the model said when overridden.
    public var line: String {
        let mark = acceptable ? "ok  " : "miss"
        let said = suggestion.map { $0 != choice ? " (model said \($0.rawValue))" : "" } ?? ""
        return "\(mark) \(id): \(choice.rawValue) [\(source.rawValue)]\(said) \(milliseconds) ms"
    }

    /// `{"choice":…,"id":…,"ms":…,"source":…}`
    public var jsonLine: String {
        struct Line: Encodable { let id: String; let choice: String; let source: String; let ms: Int }
        return EvaluationJSON.line(Line(id: id, choice: choice.rawValue, source: source.rawValue, ms: milliseconds))
    }
}

/// The summary of `eval choices`: the confusion report, the rules-alone floor, the latency.
public struct ChoiceSummary: Encodable {
    let summary = "choices"
    public let model: String
    public let report: ChoiceReport
    public let fallbackOnly: [String: Double]
    public let p50ms: Int
    public let p95ms: Int
    let fallbackText: String
    let asked: Int

    public init(_ results: [ChoiceCaseResult], cases: [ChoiceScenario], rules: [Language: Rules], model: String?) {
        let fallback = FallbackEvaluation.evaluate(cases, rules: rules)
        let times = results.filter { $0.attempts > 0 }.map(\.milliseconds)
        self.model = model ?? "none"
        report = ChoiceReport(results)
        fallbackOnly = Dictionary(uniqueKeysWithValues: (fallback.perLanguage + [fallback.overall]).map { ($0.language, $0.rate) })
        p50ms = percentile(times, 50)
        p95ms = percentile(times, 95)
        fallbackText = fallback.summary
        asked = times.count
    }

    enum CodingKeys: CodingKey { case summary, model, report, fallbackOnly, p50ms, p95ms }

    public var text: String {
        ["model: " + (model == "none" ? "none (rules only)" : model), report.text, fallbackText,
         "latency of model decisions: p50 \(p50ms) ms, p95 \(p95ms) ms (\(asked) asked)"].joined(separator: "\n")
    }
}

extension GroupingCaseResult {
    public var line: String { "\(id): \(layout.json) [\(source.rawValue)] \(milliseconds) ms" }

    public var jsonLine: String {
        struct Line: Encodable { let id: String; let layout: Layout; let source: String; let ms: Int }
        return EvaluationJSON.line(Line(id: id, layout: layout, source: source.rawValue, ms: milliseconds))
    }
}

/// The summary of `eval grouping`: paragraph boundaries against the labels, next to the
/// one-paragraph-per-answer baseline.
public struct GroupingSummary: Encodable {
    public struct Score: Encodable {
        let precision, recall, f1: Double
        init(_ score: BoundaryScore) { (precision, recall, f1) = (score.precision, score.recall, score.f1) }
    }
    let summary = "grouping"
    public let model: String
    public let boundaries: Score
    public let baseline: Score
    public let titleAgreement: Double
    public let scored: Int
    public let cases: Int
    public let invalid: [String]
    public let p50ms: Int
    public let p95ms: Int
    let texts: (model: String, baseline: String, titleHits: Int)

    public init(_ results: [GroupingCaseResult], model: String?) {
        let scores = GroupingEvaluation.scores(results)
        let times = results.filter { $0.sourceCount <= 20 }.map(\.milliseconds)
        self.model = model ?? "none"
        boundaries = Score(scores.model)
        baseline = Score(scores.baseline)
        titleAgreement = Double(scores.titleHits) / Double(max(1, scores.scored))
        scored = scores.scored
        cases = results.count
        invalid = results.filter { !$0.valid }.map(\.id)
        p50ms = percentile(times, 50)
        p95ms = percentile(times, 95)
        texts = (scores.model.text, scores.baseline.text, scores.titleHits)
    }

    enum CodingKeys: CodingKey { case summary, model, boundaries, baseline, titleAgreement, scored, cases, invalid, p50ms, p95ms }

    public var text: String {
        ["model: " + (model == "none" ? "none (rules only)" : model),
         "boundaries: \(texts.model) over \(scored) cases",
         "baseline (one paragraph per answer): \(texts.baseline)",
         "title flag agrees: \(texts.titleHits)/\(scored); invalid layouts: \(invalid.count)",
         "latency per layout (N ≤ 20): p50 \(p50ms) ms, p95 \(p95ms) ms"].joined(separator: "\n")
    }
}

extension DecisionFuzz.Report {
    /// Whether anything was outside the rules or invalid.
    public var isClean: Bool { invalidChoices.isEmpty && invalidLayouts.isEmpty }

    /// One summary line, then one line per problem.
    public func text(seed: UInt64) -> String {
        func median(_ values: [Int]) -> Int { values.isEmpty ? 0 : values.sorted()[values.count / 2] }
        let head = "fuzz: \(conversations) conversations (seed \(seed)), \(modelDecisions) model choices, "
            + "\(fallbacks) fallbacks, \(invalidChoices.count) choices outside the rules, "
            + "\(layoutMilliseconds.count) layouts (\(layoutFallbacks) fallbacks, \(invalidLayouts.count) invalid); "
            + "question p50 \(median(questionMilliseconds)) ms, layout p50 \(median(layoutMilliseconds)) ms"
        return ([head] + (invalidChoices + invalidLayouts).map { "invalid: \($0)" }).joined(separator: "\n")
    }
}

/// The next-question prompt of a case as the product scores it (`eval prompts`): the prompt
/// text, then each allowed choice's label as the continuation scored after it.
public struct ScoredPrompt: Encodable {
    public struct Option: Encodable { let choice: String; let label: String }
    let finishOnly: Bool
    let format: String
    let id: String
    let language: Language
    let options: [Option]
    let prompt: String

    /// The prompt of `scenario`, rendered for `model` (or in the completion format without one).
    public init(_ scenario: ChoiceScenario, rules: Rules, model: LanguageModel?, format: PromptFormat) {
        let conversation = scenario.conversation
        let allowed = rules.allowedChoices(conversation)
        // Scored, not generated: the options are not listed in the prompt but read after it.
        let prompt = QuestionPrompt.make(conversation: conversation, hints: rules.angleHints(conversation))
        finishOnly = allowed.finishOnly
        self.format = format.rawValue
        id = scenario.id
        language = scenario.language
        options = allowed.choices.map {
            Option(choice: $0.rawValue, label: DecisionPrompt.continuation(ChoiceLabels.label($0), format: format))
        }
        self.prompt = model.map { prompt.render(for: $0, format: format) } ?? prompt.completion
    }

    public var text: String {
        (["== \(id) (\(language), \(format)\(finishOnly ? ", finish only" : ""))", prompt]
            + options.map { "-> \($0.choice): \($0.label)" } + [""]).joined(separator: "\n")
    }
}
