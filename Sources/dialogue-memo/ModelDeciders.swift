import Decisions
import Dialogue
import DialogueCore
import Foundation

/// The language model behind the `QuestionDeciding` and `LayoutDeciding` ports.
/// (Wired to the decision service of the Decisions target.)
struct ModelDeciders: QuestionDeciding, LayoutDeciding {
    let rules: Rules
    let model: LanguageModel

    static func open(setup: SessionSetup) async throws -> ModelDeciders {
        let path = setup.options.values["--llm-model"] ?? DefaultModels.languageModel
        return ModelDeciders(rules: setup.rules, model: try LanguageModel(path: path))
    }

    func nextQuestion(after conversation: Conversation) async -> Decision {
        rules.apply(modelSuggestion: nil, to: conversation)
    }

    func layout(for sources: [Source]) async -> (Layout, LayoutSource) {
        (.fallback(sourceCount: sources.count), .fallback)
    }
}
