/// How the model is asked for the next question.
public enum QuestionMethod: String, Sendable, CaseIterable {
    /// Greedy generation through the question grammar (only allowed labels can be written).
    case generate
    /// Log-likelihood of each allowed label after the prompt; the most likely one wins.
    case score
    /// As `score`, divided by the label's token count (no bias towards short labels).
    case scoreMean
    /// As `score`, minus the same label's score after a content-free conversation (the
    /// opening with an empty answer): what this conversation adds to each option, so a
    /// label the model likes everywhere does not win everywhere.
    case scoreCalibrated
}

/// How the options are named to the model.
public enum LabelStyle: String, Sendable, CaseIterable {
    /// The English question ("Who is it for?").
    case question
    /// A one- or two-word topic ("target users"): fewer tokens to score.
    case topic
}

/// How the model is asked for the layout.
public enum LayoutMethod: String, Sendable, CaseIterable {
    /// Greedy generation through the layout grammar, one token at a time.
    case generate
    /// Forced tokens appended without sampling; the model decides only the title flag and
    /// each separator (see `LanguageModel.branchLayout`).
    case branch
    /// One forced pass over the single-paragraph layout; a paragraph starts where the model's
    /// preference for a break is above the note's average (see `LanguageModel.contrastLayout`).
    case contrast
}

/// Tunables of the decision service. The budgets are per call (one ask, or its retry); the
/// defaults are sized from the benchmark on 2 cores with gemma-3-270m (question p95 ≈ 3 s,
/// layout p95 ≈ 1.5 s for N ≤ 20; see the closing note of issue 4), with room for longer
/// conversations. A blown budget means the rules decide.
public struct DecisionSettings: Sendable, Hashable {
    public var questionMethod: QuestionMethod
    public var layoutMethod: LayoutMethod
    public var format: PromptFormat?
    public var labels: LabelStyle
    /// Score each label only up to the token that tells it apart from every other label.
    /// Measured on the public choice set with gemma-3-270m: 81.7 % acceptable at about half
    /// the latency of whole labels (85.0 %): the output layer runs once per scored token.
    public var cutLabels: Bool
    /// Each label token's probability among the tokens the labels allow at that place, instead
    /// of among the whole vocabulary: the output layer is then needed for a few rows only.
    /// Measured on the public choice set: 78.3 % acceptable at p50 257 ms, against 80.0 % at
    /// 295 ms over the whole vocabulary (one case apart).
    public var amongAllowedTokens: Bool
    /// Added to the log-score of the rules' own choice: the model overrides the rules only
    /// when it prefers another option by more than this (2: about 7 times as likely). 0 = the
    /// model alone. On the public choice set the model alone is acceptable in 80 % of cases and
    /// the rules alone in 100 %; 2 gives 93 %, and the model still turns the rules down where
    /// it is sure (see issue 4's closing note).
    public var rulesPrior: Double
    /// For `LayoutMethod.contrast`: how strongly the answer boundaries count, in standard
    /// deviations of the model's break preference (0: the model alone). 2 measured best on
    /// the 25 grouping scenarios for both models (a plateau from 2 to 3).
    public var answerPrior: Double
    public var questionBudget: Duration
    public var layoutBudget: Duration

    /// The defaults are the best measured combination (issue 4's closing note): calibrated
    /// scoring of English question labels, and the one-pass contrast layout anchored on
    /// answer breaks.
    public init(questionMethod: QuestionMethod = .scoreCalibrated, layoutMethod: LayoutMethod = .contrast,
                format: PromptFormat? = nil, labels: LabelStyle = .question, cutLabels: Bool = true,
                amongAllowedTokens: Bool = true,
                rulesPrior: Double = 2, answerPrior: Double = 2,
                questionBudget: Duration = .seconds(5), layoutBudget: Duration = .seconds(6)) {
        self.questionMethod = questionMethod
        self.layoutMethod = layoutMethod
        self.format = format
        self.labels = labels
        self.cutLabels = cutLabels
        self.amongAllowedTokens = amongAllowedTokens
        self.rulesPrior = rulesPrior
        self.answerPrior = answerPrior
        self.questionBudget = questionBudget
        self.layoutBudget = layoutBudget
    }
}
