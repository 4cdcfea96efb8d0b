import Decisions
import DialogueCore
import Foundation
import Options

/// The decision service `dialogue-memo eval` runs: which model (or none), its prompt format
/// and priors, as options. Here rather than in the command so the command stays thin.
public struct EvaluationDecider: Sendable {
    public var modelPath: String?
    public var noModel = false
    public var format: PromptFormat?
    public var rulesPrior = DecisionSettings().rulesPrior
    public var endingMargin = DecisionSettings().endingMargin
    public var answerPrior = DecisionSettings().answerPrior
    public var noEndingProbe = false
    /// Where `eval choices --train-ending-probe` writes the trained probe (`EndingProbeFile`).
    public var trainEndingProbe: String?
    /// More training cases for it: sets the rules were not written from (`batch-m.json`,
    /// `batch-o.json`, comma-separated), so they can hold endings the rules miss without being
    /// part of the rules' own scenarios.
    public var trainAlso: String?

    public static let model: [Declaration<EvaluationDecider>] = [
        .value("--llm-model PATH", \.modelPath, "any GGUF language model (default: the built-in one)", aliases: ["--model"]),
        .flag("--no-model", \.noModel, "the rules alone (what happens when no model is available)"),
        .value("--format", \.format, "how the prompt is wrapped (default: chat if the model has a chat template)", .cases),
    ]
    public static let rulesPriorOption: Declaration<EvaluationDecider> =
        .value("--rules-prior X", \.rulesPrior, "log-score bonus for the rules' own choice; 0: the model alone", .number(atLeast: 0))
    public static let endingMarginOption: Declaration<EvaluationDecider> =
        .value("--ending-margin M", \.endingMargin, "how much more the model must prefer ready/stop than the best question", .number(atLeast: 0))
    public static let endingProbeOptions: [Declaration<EvaluationDecider>] = [
        .flag("--no-ending-probe", \.noEndingProbe, "without the ending probe (rules and label scores alone)"),
        .value("--train-ending-probe FILE.json", \.trainEndingProbe,
               "train the ending probe on these cases' latest answers (and, as content, the dev notes of action-scenarios.json beside FILE) and write its data file (the program reads Locales/ending-probe.json)"),
        .value("--train-also FILE.json[,FILE.json]", \.trainAlso, "with --train-ending-probe: the dev cases of these sets too"),
    ]
    public static let answerPriorOption: Declaration<EvaluationDecider> =
        .value("--answer-prior B", \.answerPrior, "weight of the answer boundaries in the layout", .number(atLeast: 0))

    public init() {}

    public func service() throws -> DecisionService {
        var settings = DecisionSettings()
        settings.format = format
        settings.rulesPrior = rulesPrior
        settings.endingMargin = endingMargin
        settings.answerPrior = answerPrior
        if noEndingProbe { settings.endingProbe = nil }
        // Generous budgets: the evaluation measures choices, not the product's timeouts.
        settings.questionBudget = .seconds(30)
        settings.layoutBudget = .seconds(60)
        settings.highlightsBudget = .seconds(60)
        if noModel { return DecisionService(model: nil, settings: settings) }
        let path = modelPath ?? DefaultModels.languageModel
        let service = try DecisionService(modelPath: path, settings: settings)
        if !noEndingProbe, let model = service.model,
           let notice = InstalledEndingProbe.standard.notice(for: model.fingerprint, modelPath: path) {
            FileHandle.standardError.write(Data("dialogue-memo: \(notice)\n".utf8))
        }
        return service
    }
}

extension EvaluationDecider {
    /// `eval choices --train-ending-probe`: trains on `cases` with the loaded model and writes
    /// the probe's data file; prints the progress and the chosen threshold. The sentences of the
    /// dev notes in `action-scenarios.json` beside `file` (when there) are plain content that
    /// goes on, and so are they and the answers that go on, misheard.
    public func trainProbe(on cases: [ChoiceScenario], file: String, arguments: [String]) async throws -> Int32 {
        guard let out = trainEndingProbe, let model = try service().model else {
            throw UsageError("--train-ending-probe needs a model, not --no-model",
                             usage: "dialogue-memo eval choices FILE.json [--split dev] --train-ending-probe FILE.json")
        }
        let notes = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("action-scenarios.json")
        let content = FileManager.default.fileExists(atPath: notes.path)
            ? try ActionScenarioSet.load(from: notes).cases.filter { $0.split == "dev" }.flatMap(\.sentences) : []
        let more = try (trainAlso?.split(separator: ",").map(String.init) ?? []).flatMap { path in
            guard FileManager.default.fileExists(atPath: path) else {
                throw UsageError("--train-also: no file at \(path)", usage: "dialogue-memo eval choices FILE.json --train-ending-probe FILE.json --train-also FILE.json[,FILE.json]")
            }
            return try ChoiceScenarioSet.load(from: URL(fileURLWithPath: path)).cases.filter { $0.split == "dev" }
        }
        // Misheard, what goes on still goes on.
        let misheard = (content + (cases + more).filter { !$0.mustEnd }.compactMap(\.conversation.lastAnswer)).map(EndingProbeTraining.misheard)
        let total = cases.count + more.count + content.count + misheard.count
        let probe = try await EndingProbeTraining.train(cases + more, goingOn: content + misheard, model: model) { done in
            if done % 50 == 0 || done == total {
                FileHandle.standardError.write(Data("ending probe: \(done)/\(total) answers read\n".utf8))
            }
        } report: { line in FileHandle.standardError.write(Data("ending probe, out of fold: \(line)\n".utf8)) }
        try EndingProbeFile(trainedWith: (["dialogue-memo"] + arguments).joined(separator: " "), probe: probe).encoded()
            .write(to: URL(fileURLWithPath: out), options: .atomic)
        FileHandle.standardError.write(Data(String(format: "ending probe: thresholds %.4f (whole answer), %.4f (its close), calibrated out of fold; written to %@\n",
                                                   probe.whole.threshold, probe.close.threshold, out).utf8))
        return 0
    }
}
