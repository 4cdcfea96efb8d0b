import Dialogue
import DialogueCore
import Foundation

/// The question and layout deciders for a session: the language model when it loads, else the
/// rules alone (with a one-line notice saying why).
struct Deciders {
    let questions: any QuestionDeciding
    let layouts: any LayoutDeciding
    let usesModel: Bool
    /// The model's one-time preparation, run while the opening question plays.
    var warmUp: @Sendable () async -> Void = {}

    static func make(setup: SessionSetup) async -> Deciders {
        let rulesOnly = RulesOnlyDecider(rules: setup.rules)
        if setup.options.flags.contains("--no-model") {
            return Deciders(questions: rulesOnly, layouts: rulesOnly, usesModel: false)
        }
        do {
            let model = try await ModelDeciders.open(setup: setup)
            return Deciders(questions: model, layouts: model, usesModel: true, warmUp: { await model.warmUp() })
        } catch {
            setup.screen.notice(setup.pack.ui(.modelUnavailable, ["reason": "\(error)"]))
            return Deciders(questions: rulesOnly, layouts: rulesOnly, usesModel: false)
        }
    }
}

extension Deciders {
    /// The deciders of a model that is still loading: each decision first waits for `loading`.
    struct Waiting: QuestionDeciding, LayoutDeciding {
        let loading: Task<Deciders, Never>
        func nextQuestion(after conversation: Conversation) async -> Decision {
            await loading.value.questions.nextQuestion(after: conversation)
        }
        func layout(for sources: [Source]) async -> (Layout, LayoutSource) {
            await loading.value.layouts.layout(for: sources)
        }
    }
}
