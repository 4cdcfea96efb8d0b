import Decisions
import DialogueCore
import Foundation

/// `dialogue-memo eval choices|grouping FILE.json`: runs every case of a scenario file through
/// the real decision path (model, rules, retry, fallback) and measures it.
enum EvalCommand {
    static let usage = """
    Usage: dialogue-memo eval choices FILE.json [--llm-model PATH] [--json]
           dialogue-memo eval grouping FILE.json [--llm-model PATH] [--json]
           dialogue-memo eval fuzz [COUNT] [--seed N] [--llm-model PATH]

    Runs a scenario file (the format of shared/eval/) through the model decisions and prints,
    per case, the chosen case (or layout), whether it came from the model, the rules or the
    fallback, and the latency; then the summary: acceptable rate per language and overall
    next to the rules-only rate (choices), or paragraph-boundary precision/recall/F1 next to
    the one-paragraph-per-answer baseline (grouping). `fuzz` runs COUNT (default 1000) random
    conversations in five languages (hostile answers included) through the same path and
    counts choices outside the rules' allowed set, invalid layouts and fallbacks.
      --llm-model PATH   any GGUF language model (default: the built-in one); --model too
      --json             one JSON object per case, then one summary object
      --format F         chat or completion (default: chat if the model has a chat template)
      --rules-prior X    log-score bonus for the rules' own choice (default 2; 0: the model alone)
      --answer-prior B   grouping with contrast: weight of answer boundaries (default 2)
      --no-model         the rules alone (what happens when no model is available)
    """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let options = try Options.command(arguments, flags: ["--json", "--no-model"],
                                          values: ["--llm-model", "--model", "--format", "--rules-prior", "--answer-prior", "--seed"],
                                          usage: usage)
        let kind = options.positional.first ?? ""
        let fuzzCount = kind == "fuzz" ? (options.positional.count == 2 ? Int(options.positional[1]) : 1000) : nil
        guard (options.positional.count == 2 && ["choices", "grouping"].contains(kind))
                || (kind == "fuzz" && options.positional.count <= 2 && (fuzzCount ?? 0) > 0) else {
            printError("eval needs `choices FILE.json`, `grouping FILE.json` or `fuzz [COUNT]`.\n\n\(usage)")
            return 2
        }
        guard options.values["--seed"].map({ UInt64($0) != nil }) ?? true else {
            printError("--seed needs a whole number.\n\n\(usage)"); return 2
        }
        var settings = DecisionSettings()
        if let format = options.values["--format"] {
            guard let value = PromptFormat(rawValue: format) else {
                printError("--format must be chat or completion.\n\n\(usage)"); return 2
            }
            settings.format = value
        }
        if let prior = options.values["--rules-prior"] {
            guard let value = Double(prior), value >= 0 else {
                printError("--rules-prior needs a number ≥ 0.\n\n\(usage)"); return 2
            }
            settings.rulesPrior = value
        }
        if let prior = options.values["--answer-prior"] {
            guard let value = Double(prior), value >= 0 else {
                printError("--answer-prior needs a number ≥ 0.\n\n\(usage)"); return 2
            }
            settings.answerPrior = value
        }
        // Generous budgets: the evaluation measures choices, not the product's timeouts.
        settings.questionBudget = .seconds(30)
        settings.layoutBudget = .seconds(60)
        let json = options.flags.contains("--json")
        do {
            let service: DecisionService
            if options.flags.contains("--no-model") {
                service = DecisionService(model: nil, settings: settings)
            } else {
                let path = options.values["--llm-model"] ?? options.values["--model"] ?? DefaultModels.languageModel
                service = try DecisionService(modelPath: path, settings: settings)
            }
            if let fuzzCount {
                return try await fuzz(fuzzCount, seed: options.values["--seed"].flatMap(UInt64.init) ?? 1, service: service)
            } else if kind == "choices" {
                return try await choices(URL(fileURLWithPath: options.positional[1]), service: service, json: json)
            } else {
                return try await grouping(URL(fileURLWithPath: options.positional[1]), service: service, json: json)
            }
        } catch {
            printError("\(error)")
            return 1
        }
    }

    /// Random conversations through the decision path; exit 1 if anything was invalid.
    static func fuzz(_ count: Int, seed: UInt64, service: DecisionService) async throws -> Int32 {
        var rules: [String: Rules] = [:]
        for pack in try LanguagePackLoader().loadAll() { rules[pack.code] = Rules(pack: pack) }
        let start = Date()
        let report = try await DecisionFuzz.run(count: count, seed: seed, service: service, rules: rules) { index in
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

    static func choices(_ url: URL, service: DecisionService, json: Bool) async throws -> Int32 {
        let set = try ChoiceScenarioSet.load(from: url)
        let packs = try LanguagePackLoader().loadAll()
        var rules: [String: Rules] = [:]
        for pack in packs { rules[pack.code] = Rules(pack: pack) }
        let results = try await ChoiceEvaluation.run(set.cases, rules: rules, service: service) { result in
            if json {
                print(jsonLine(["id": result.id, "choice": result.choice.rawValue,
                                "source": result.source.rawValue, "ms": result.milliseconds]))
            } else {
                let mark = result.acceptable ? "ok  " : "miss"
                let suggestion = result.suggestion.map { $0 != result.choice ? " (model said \($0.rawValue))" : "" } ?? ""
                print("\(mark) \(result.id): \(result.choice.rawValue) [\(result.source.rawValue)]\(suggestion) \(result.milliseconds) ms")
            }
        }
        let rates = ChoiceEvaluation.rates(results)
        let fallback = FallbackEvaluation.evaluate(set.cases, packs: packs)
        let missed = ChoiceEvaluation.missedEndings(results)
        let times = results.filter { $0.attempts > 0 }.map(\.milliseconds)
        if json {
            var summary: [String: Any] = [
                "summary": "choices",
                "model": service.model?.path ?? "none",
                "acceptable": Dictionary(uniqueKeysWithValues: (rates.rows + [rates.overall]).map { ($0.language, $0.rate) }),
                "fallbackOnly": Dictionary(uniqueKeysWithValues: (fallback.perLanguage + [fallback.overall]).map { ($0.language, $0.rate) }),
                "mustEndMissed": missed,
                "cases": results.count,
            ]
            summary["p50ms"] = percentile(times, 50)
            summary["p95ms"] = percentile(times, 95)
            print(jsonLine(summary))
        } else {
            print("model: \(service.model?.path ?? "none (rules only)")")
            print("acceptable: " + rates.text)
            print(fallback.summary)
            print("mustEnd cases that did not end: \(missed.isEmpty ? "none" : missed.joined(separator: ", "))")
            print("latency of model decisions: p50 \(percentile(times, 50)) ms, p95 \(percentile(times, 95)) ms (\(times.count) asked)")
        }
        return 0
    }

    static func grouping(_ url: URL, service: DecisionService, json: Bool) async throws -> Int32 {
        let set = try GroupingScenarioSet.load(from: url)
        let results = try await GroupingEvaluation.run(set.cases, service: service) { result in
            if json {
                print(jsonLine(["id": result.id, "layout": result.layout.json,
                                "source": result.source.rawValue, "ms": result.milliseconds]))
            } else {
                print("\(result.id): \(result.layout.json) [\(result.source.rawValue)] \(result.milliseconds) ms")
            }
        }
        let scores = GroupingEvaluation.scores(results)
        let times = results.filter { $0.sourceCount <= 20 }.map(\.milliseconds)
        let invalid = results.filter { !$0.valid }.map(\.id)
        if json {
            func object(_ score: BoundaryScore) -> [String: Any] {
                ["precision": score.precision, "recall": score.recall, "f1": score.f1]
            }
            print(jsonLine(["summary": "grouping", "model": service.model?.path ?? "none",
                            "boundaries": object(scores.model), "baseline": object(scores.baseline),
                            "titleAgreement": Double(scores.titleHits) / Double(max(1, scores.scored)),
                            "scored": scores.scored, "cases": results.count, "invalid": invalid,
                            "p50ms": percentile(times, 50), "p95ms": percentile(times, 95)]))
        } else {
            print("model: \(service.model?.path ?? "none (rules only)")")
            print("boundaries: \(scores.model.text) over \(scores.scored) cases")
            print("baseline (one paragraph per answer): \(scores.baseline.text)")
            print("title flag agrees: \(scores.titleHits)/\(scores.scored); invalid layouts: \(invalid.count)")
            print("latency per layout (N ≤ 20): p50 \(percentile(times, 50)) ms, p95 \(percentile(times, 95)) ms")
        }
        return 0
    }

    /// One compact JSON object with sorted keys; layouts are embedded as JSON, not as strings.
    static func jsonLine(_ object: [String: Any]) -> String {
        var object = object
        if let layout = object["layout"] as? String,
           let value = try? JSONSerialization.jsonObject(with: Data(layout.utf8)) {
            object["layout"] = value
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
