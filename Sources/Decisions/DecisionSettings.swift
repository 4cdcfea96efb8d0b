/// Tunables of the decision service. The methods themselves are fixed: they are the best
/// measured combination: calibrated scoring of the English question
/// labels, each cut where it becomes distinct and scored among the tokens the labels allow,
/// and the one-pass contrast layout anchored on answer breaks. The budgets are per call (one
/// ask, or its retry); the defaults are sized from the benchmark on 2 cores with gemma-3-270m
/// (question p95 ≈ 3 s, layout p95 ≈ 1.5 s for N ≤ 20), with room for longer conversations. A
/// blown budget means the rules decide.
public struct DecisionSettings: Sendable, Hashable {
    public var format: PromptFormat?
    /// Added to the log-score of the rules' own choice: the model overrides the rules only
    /// when it prefers another option by more than this (3: about 20 times as likely). 0 = the
    /// model alone. 3 rather than 2: on the sets other hands wrote, the model's overrides at 2
    /// were right less often than the rules' own angles, though the project's own set prefers 2.
    public var rulesPrior: Double
    /// How strongly the answer boundaries count in the layout, in standard deviations of the
    /// model's break preference (0: the model alone). 2 measured best on the 25 grouping
    /// scenarios for both models (a plateau from 2 to 3).
    public var answerPrior: Double
    /// How much more (in log-score, after the rules prior) the model must prefer `ready` or
    /// `stop` over the best question before an exchange the rules did not end ends: a false
    /// ending costs the person their idea, a missed one costs a key press. On the dev split of
    /// the project's decision set gemma-3-270m never preferred an ending by more than 0.9 (an
    /// acceptable `ready`), so every margin from 0 to 100 scored the same; 2 (about 7 times
    /// as likely, after the rules prior) keeps a bigger `--llm-model` from ending on a whim.
    public var endingMargin: Double
    /// Reads an ending the phrase rules missed from the model's own layers (`EndingProbe`); nil:
    /// rules and label scores alone. Used only with the model it was trained on. By default the
    /// installed one (`InstalledEndingProbe.standard`).
    public var endingProbe: EndingProbe?
    public var questionBudget: Duration
    public var layoutBudget: Duration
    /// A sentence is a next step when the model's log-odds of "yes" over "no", plus
    /// `nextStepCueWeight` where the cue rules see one (`ActionCues`), is above
    /// `nextStepThreshold`. Chosen on the dev split of Tests/Fixtures/action-scenarios.json
    /// (`dialogue-memo eval actions`), where no weighing beat the cue rules: a cue sentence
    /// stands unless the model says "past" (log-odds below −0.25), and a sentence without a cue
    /// needs the model very sure (above 3.75).
    public var nextStepThreshold: Double
    public var nextStepCueWeight: Double
    public var highlightsBudget: Duration

    public init(format: PromptFormat? = nil, rulesPrior: Double = 3, answerPrior: Double = 2,
                endingMargin: Double = 2,
                questionBudget: Duration = .seconds(5), layoutBudget: Duration = .seconds(6),
                nextStepThreshold: Double = 3.75, nextStepCueWeight: Double = 4, highlightsBudget: Duration = .seconds(6)) {
        self.format = format
        self.rulesPrior = rulesPrior
        self.answerPrior = answerPrior
        self.endingMargin = endingMargin
        self.endingProbe = InstalledEndingProbe.standard.probe
        self.questionBudget = questionBudget
        self.layoutBudget = layoutBudget
        self.nextStepThreshold = nextStepThreshold
        self.nextStepCueWeight = nextStepCueWeight
        self.highlightsBudget = highlightsBudget
    }
}
