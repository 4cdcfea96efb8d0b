import Decisions
import DialogueCore
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

    public static let model: [Declaration<EvaluationDecider>] = [
        .value("--llm-model PATH", \.modelPath, "any GGUF language model (default: the built-in one)", aliases: ["--model"]),
        .flag("--no-model", \.noModel, "the rules alone (what happens when no model is available)"),
        .value("--format", \.format, "how the prompt is wrapped (default: chat if the model has a chat template)", .cases),
    ]
    public static let rulesPriorOption: Declaration<EvaluationDecider> =
        .value("--rules-prior X", \.rulesPrior, "log-score bonus for the rules' own choice; 0: the model alone", .number(atLeast: 0))
    public static let endingMarginOption: Declaration<EvaluationDecider> =
        .value("--ending-margin M", \.endingMargin, "how much more the model must prefer ready/stop than the best question", .number(atLeast: 0))
    public static let answerPriorOption: Declaration<EvaluationDecider> =
        .value("--answer-prior B", \.answerPrior, "weight of the answer boundaries in the layout", .number(atLeast: 0))

    public init() {}

    public func service() throws -> DecisionService {
        var settings = DecisionSettings()
        settings.format = format
        settings.rulesPrior = rulesPrior
        settings.endingMargin = endingMargin
        settings.answerPrior = answerPrior
        // Generous budgets: the evaluation measures choices, not the product's timeouts.
        settings.questionBudget = .seconds(30)
        settings.layoutBudget = .seconds(60)
        settings.highlightsBudget = .seconds(60)
        if noModel { return DecisionService(model: nil, settings: settings) }
        return try DecisionService(modelPath: modelPath ?? DefaultModels.languageModel, settings: settings)
    }
}
