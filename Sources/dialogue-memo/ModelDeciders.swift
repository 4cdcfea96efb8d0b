import Decisions
import Dialogue
import DialogueCore
import Foundation

/// The language model behind the `QuestionDeciding` and `LayoutDeciding` ports: the decision
/// service asks, validates, retries once and falls back to the rules on its own; here a
/// cancelled exchange (Ctrl-C) also ends in the rules' choice rather than an error.
struct ModelDeciders: QuestionDeciding, LayoutDeciding {
    let rules: Rules
    let service: DecisionService
    let events: EventLog

    static func open(setup: SessionSetup) async throws -> ModelDeciders {
        let path = setup.options.values["--llm-model"] ?? DefaultModels.languageModel
        let service = try DecisionService(modelPath: path)
        return ModelDeciders(rules: setup.rules, service: service, events: setup.events)
    }

    /// The one-time work (prompt prefix, calibration) done before the first question is needed.
    func warmUp() async { try? await service.warmUp() }

    func nextQuestion(after conversation: Conversation) async -> Decision {
        do {
            let outcome = try await service.nextQuestion(conversation, rules: rules)
            events.emit("decided", ["ms": outcome.milliseconds, "attempts": outcome.attempts])
            return outcome.decision
        } catch {
            return rules.apply(modelSuggestion: nil, to: conversation)
        }
    }

    func layout(for sources: [Source]) async -> (Layout, LayoutSource) {
        do {
            let outcome = try await service.layout(sources)
            events.emit("laidOut", ["ms": outcome.milliseconds, "attempts": outcome.attempts])
            return (outcome.layout, outcome.source)
        } catch {
            return (.fallback(sourceCount: sources.count), .fallback)
        }
    }
}
