import DialogueCore

/// Decisions without a model: the rules' own choice and the one-sentence-per-bullet layout.
/// Used when no language model is available (or it failed to load).
public struct RulesOnlyDecider: QuestionDeciding, LayoutDeciding {
    let rules: Rules

    public init(rules: Rules) { self.rules = rules }

    public func nextQuestion(after conversation: Conversation) async -> Decision {
        rules.apply(modelSuggestion: nil, to: conversation)
    }

    public func layout(for sources: [Source]) async -> (Layout, LayoutSource) {
        (.fallback(sourceCount: sources.count), .fallback)
    }
}
