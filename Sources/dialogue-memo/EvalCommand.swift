import Decisions
import DialogueCore
import Foundation
import Options

/// `dialogue-memo eval choices|grouping|fuzz|prompts`: runs scenario cases through the real
/// decision path (model, rules, retry, fallback) and measures it, or prints the prompts it scores.
enum EvalCommand {
    static let commands = Subcommands(
        "dialogue-memo eval", usage: "dialogue-memo eval KIND … [options]",
        about: """
        Measures the model decisions on scenario files (the format of shared/eval/) or on random
        conversations.
        """,
        footer: "`dialogue-memo eval KIND --help` shows the arguments and options of each.",
        [
            Subcommand(Choices.self, "the next-question choices: acceptable rate next to the rules alone", run: choices),
            Subcommand(Grouping.self, "the note layouts: paragraph-boundary precision, recall and F1", run: grouping),
            Subcommand(Fuzz.self, "random conversations, hostile answers included: anything invalid?", run: fuzz),
            Subcommand(Prompts.self, "the prompt and the labels the product scores for each case", run: prompts),
        ])

    /// The decision service an evaluation runs: which model (or none), its prompt format and priors.
    struct Decider {
        var modelPath: String?
        var noModel = false
        var format: PromptFormat?
        var rulesPrior = DecisionSettings().rulesPrior
        var endingMargin = DecisionSettings().endingMargin
        var answerPrior = DecisionSettings().answerPrior

        static let model: [Declaration<Self>] = [
            .value("--llm-model PATH", \.modelPath, "any GGUF language model (default: the built-in one)", aliases: ["--model"]),
            .flag("--no-model", \.noModel, "the rules alone (what happens when no model is available)"),
            .value("--format", \.format, "how the prompt is wrapped (default: chat if the model has a chat template)", .cases),
        ]
        static let rulesPriorOption: Declaration<Self> =
            .value("--rules-prior X", \.rulesPrior, "log-score bonus for the rules' own choice; 0: the model alone", .number(atLeast: 0))
        static let endingMarginOption: Declaration<Self> =
            .value("--ending-margin M", \.endingMargin, "how much more the model must prefer ready/stop than the best question", .number(atLeast: 0))
        static let answerPriorOption: Declaration<Self> =
            .value("--answer-prior B", \.answerPrior, "weight of the answer boundaries in the layout", .number(atLeast: 0))

        func service() throws -> DecisionService {
            var settings = DecisionSettings()
            settings.format = format
            settings.rulesPrior = rulesPrior
            settings.endingMargin = endingMargin
            settings.answerPrior = answerPrior
            // Generous budgets: the evaluation measures choices, not the product's timeouts.
            settings.questionBudget = .seconds(30)
            settings.layoutBudget = .seconds(60)
            if noModel { return DecisionService(model: nil, settings: settings) }
            return try DecisionService(modelPath: modelPath ?? DefaultModels.languageModel, settings: settings)
        }
    }

    struct Choices: ParsableOptions {
        static let command = "dialogue-memo eval choices"
        static let about = """
        Prints, per case, the chosen question, whether it came from the model, the rules or the
        fallback, and the latency; then the acceptable rate per language and overall next to the
        rules-only rate.
        """
        var file = ""
        var json = false
        var split: String?
        var decider = Decider()
        static let declarations: [Declaration<Self>] = [
            .positional("FILE.json", \.file, "choice scenarios", .existingFile),
            .flag("--json", \.json, "one JSON object per case, then one summary object"),
            .value("--split", \.split, "only the cases of this split (dev: tuned on; test: reported only)", .oneOf(["dev", "test"])),
        ] + (Decider.model + [Decider.rulesPriorOption, Decider.endingMarginOption]).within(\.decider)
    }

    struct Grouping: ParsableOptions {
        static let command = "dialogue-memo eval grouping"
        static let about = """
        Prints, per case, the layout and where it came from, and the latency; then the
        paragraph-boundary precision, recall and F1 next to the one-paragraph-per-answer baseline.
        """
        var file = ""
        var json = false
        var decider = Decider()
        static let declarations: [Declaration<Self>] = [
            .positional("FILE.json", \.file, "grouping scenarios", .existingFile),
            .flag("--json", \.json, "one JSON object per case, then one summary object"),
        ] + (Decider.model + [Decider.answerPriorOption]).within(\.decider)
    }

    struct Fuzz: ParsableOptions {
        static let command = "dialogue-memo eval fuzz"
        static let about = """
        Runs COUNT random conversations in five languages (hostile answers included) through the
        decision path and counts choices outside the rules' allowed set, invalid layouts and
        fallbacks. Exits 1 if anything was invalid.
        """
        var count = 1000
        var seed: UInt64 = 1
        var decider = Decider()
        static let declarations: [Declaration<Self>] = [
            .positional("[COUNT]", \.count, "how many conversations", .wholeNumber(atLeast: 1)),
            .value("--seed N", \.seed, "the random conversations' seed", .wholeNumber()),
        ] + (Decider.model + [Decider.rulesPriorOption, Decider.answerPriorOption]).within(\.decider)
    }

    struct Prompts: ParsableOptions {
        static let command = "dialogue-memo eval prompts"
        static let about = """
        Prints, per case of a choice scenario file, the prompt the product scores the options after
        and each allowed option's label as it is scored, so a benchmark uses the product's own text.
        Without a model (--no-model) the prompt is in the completion format.
        """
        var file = ""
        var json = false
        var decider = Decider()
        static let declarations: [Declaration<Self>] = [
            .positional("FILE.json", \.file, "choice scenarios", .existingFile),
            .flag("--json", \.json, #"one JSON object per case: {"finishOnly", "format", "id", "language", "options": [{"choice", "label"}], "prompt"}"#),
        ] + Decider.model.within(\.decider)
    }

    static func rulesByLanguage() throws -> [String: Rules] {
        var rules: [String: Rules] = [:]
        for pack in try LanguagePackLoader().loadAll() { rules[pack.code] = Rules(pack: pack) }
        return rules
    }

    /// Random conversations through the decision path; exit 1 if anything was invalid.
    static func fuzz(_ options: Fuzz) async throws -> Int32 {
        let service = try options.decider.service()
        let count = options.count, seed = options.seed
        let start = Date()
        let report = try await DecisionFuzz.run(count: count, seed: seed, service: service, rules: try rulesByLanguage()) { index in
            if (index + 1) % 50 == 0 {
                printError(String(format: "fuzz: %d/%d conversations, %.0f s", index + 1, count, Date().timeIntervalSince(start)))
            }
        }
        func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }
        print("fuzz: \(report.conversations) conversations (seed \(seed)), \(report.modelDecisions) model choices, "
              + "\(report.fallbacks) fallbacks, \(report.invalidChoices.count) choices outside the rules, "
              + "\(report.layoutMilliseconds.count) layouts (\(report.layoutFallbacks) fallbacks, \(report.invalidLayouts.count) invalid); "
              + "question p50 \(report.questionMilliseconds.isEmpty ? 0 : median(report.questionMilliseconds)) ms, "
              + "layout p50 \(report.layoutMilliseconds.isEmpty ? 0 : median(report.layoutMilliseconds)) ms")
        for problem in report.invalidChoices + report.invalidLayouts { print("invalid: \(problem)") }
        return report.invalidChoices.isEmpty && report.invalidLayouts.isEmpty ? 0 : 1
    }

    static func choices(_ options: Choices) async throws -> Int32 {
        struct Case: Encodable { let id: String; let choice: String; let source: String; let ms: Int }
        struct Summary: Encodable {
            let summary = "choices"
            let model: String
            let report: ChoiceReport
            let fallbackOnly: [String: Double]
            let p50ms: Int
            let p95ms: Int
        }
        let cases = try ChoiceScenarioSet.load(from: URL(fileURLWithPath: options.file)).cases
            .filter { options.split == nil || $0.split == options.split }
        let service = try options.decider.service()
        let results = try await ChoiceEvaluation.run(cases, rules: try rulesByLanguage(), service: service) { result in
            if options.json {
                print(jsonLine(Case(id: result.id, choice: result.choice.rawValue, source: result.source.rawValue, ms: result.milliseconds)))
            } else {
                let mark = result.acceptable ? "ok  " : "miss"
                let suggestion = result.suggestion.map { $0 != result.choice ? " (model said \($0.rawValue))" : "" } ?? ""
                print("\(mark) \(result.id): \(result.choice.rawValue) [\(result.source.rawValue)]\(suggestion) \(result.milliseconds) ms")
            }
        }
        let report = ChoiceReport(results)
        let fallback = FallbackEvaluation.evaluate(cases, packs: try LanguagePackLoader().loadAll())
        let times = results.filter { $0.attempts > 0 }.map(\.milliseconds)
        if options.json {
            print(jsonLine(Summary(model: service.model?.path ?? "none", report: report,
                                   fallbackOnly: Dictionary(uniqueKeysWithValues: (fallback.perLanguage + [fallback.overall]).map { ($0.language, $0.rate) }),
                                   p50ms: percentile(times, 50), p95ms: percentile(times, 95))))
        } else {
            print("model: \(service.model?.path ?? "none (rules only)")")
            print(report.text)
            print(fallback.summary)
            print("latency of model decisions: p50 \(percentile(times, 50)) ms, p95 \(percentile(times, 95)) ms (\(times.count) asked)")
        }
        return 0
    }

    static func grouping(_ options: Grouping) async throws -> Int32 {
        struct Case: Encodable { let id: String; let layout: Layout; let source: String; let ms: Int }
        struct Score: Encodable {
            let precision, recall, f1: Double
            init(_ score: BoundaryScore) { (precision, recall, f1) = (score.precision, score.recall, score.f1) }
        }
        struct Summary: Encodable {
            let summary = "grouping"
            let model: String
            let boundaries: Score
            let baseline: Score
            let titleAgreement: Double
            let scored: Int
            let cases: Int
            let invalid: [String]
            let p50ms: Int
            let p95ms: Int
        }
        let set = try GroupingScenarioSet.load(from: URL(fileURLWithPath: options.file))
        let service = try options.decider.service()
        let results = try await GroupingEvaluation.run(set.cases, service: service) { result in
            if options.json {
                print(jsonLine(Case(id: result.id, layout: result.layout, source: result.source.rawValue, ms: result.milliseconds)))
            } else {
                print("\(result.id): \(result.layout.json) [\(result.source.rawValue)] \(result.milliseconds) ms")
            }
        }
        let scores = GroupingEvaluation.scores(results)
        let times = results.filter { $0.sourceCount <= 20 }.map(\.milliseconds)
        let invalid = results.filter { !$0.valid }.map(\.id)
        if options.json {
            print(jsonLine(Summary(
                model: service.model?.path ?? "none", boundaries: Score(scores.model), baseline: Score(scores.baseline),
                titleAgreement: Double(scores.titleHits) / Double(max(1, scores.scored)), scored: scores.scored,
                cases: results.count, invalid: invalid, p50ms: percentile(times, 50), p95ms: percentile(times, 95))))
        } else {
            print("model: \(service.model?.path ?? "none (rules only)")")
            print("boundaries: \(scores.model.text) over \(scores.scored) cases")
            print("baseline (one paragraph per answer): \(scores.baseline.text)")
            print("title flag agrees: \(scores.titleHits)/\(scores.scored); invalid layouts: \(invalid.count)")
            print("latency per layout (N ≤ 20): p50 \(percentile(times, 50)) ms, p95 \(percentile(times, 95)) ms")
        }
        return 0
    }

    /// The next-question prompt of each case as the product scores it: the prompt text, then
    /// each allowed choice's label as the continuation scored after it.
    static func prompts(_ options: Prompts) async throws -> Int32 {
        struct Option: Encodable { let choice: String; let label: String }
        struct Case: Encodable {
            let finishOnly: Bool
            let format: String
            let id: String
            let language: String
            let options: [Option]
            let prompt: String
        }
        if options.decider.noModel, options.decider.format == .chat {
            throw Prompts.usageError("--format chat needs a model (its chat template), not --no-model")
        }
        let set = try ChoiceScenarioSet.load(from: URL(fileURLWithPath: options.file))
        let service = try options.decider.service()
        let format = service.format
        let rules = try rulesByLanguage()
        for scenario in set.cases {
            guard let rules = rules[scenario.language] else { continue }
            let conversation = scenario.conversation
            let allowed = rules.allowedChoices(conversation)
            // Scored, not generated: the options are not listed in the prompt but read after it.
            let prompt = QuestionPrompt.make(conversation: conversation,
                                             hints: rules.angleHints(conversation))
            let text = service.model.map { prompt.render(for: $0, format: format) } ?? prompt.completion
            let labels = allowed.choices.map {
                Option(choice: $0.rawValue, label: DecisionPrompt.continuation(ChoiceLabels.label($0), format: format))
            }
            if options.json {
                print(jsonLine(Case(finishOnly: allowed.finishOnly, format: format.rawValue, id: scenario.id,
                                    language: scenario.language, options: labels, prompt: text)))
            } else {
                print("== \(scenario.id) (\(scenario.language), \(format.rawValue)\(allowed.finishOnly ? ", finish only" : ""))")
                print(text)
                for label in labels { print("-> \(label.choice): \(label.label)") }
                print()
            }
        }
        return 0
    }
}
