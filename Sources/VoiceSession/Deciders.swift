import Decisions
import Dialogue
import DialogueCore
import Foundation

/// The question and layout deciders for a session: the language model when it loads, else the
/// rules alone (with a one-line notice saying why; one too when the ending probe does not fit it).
struct Deciders: Sendable {
    let questions: any QuestionDeciding
    let layouts: any LayoutDeciding
    let usesModel: Bool
    /// The model's one-time preparation, run while the opening question plays.
    var warmUp: @Sendable () async -> Void = {}
    /// The next steps and key sentence of a finished exchange (the fallback without a model).
    var highlights: @Sendable ([Source], Language) async -> (Highlights, HighlightsSource) = { _, _ in (.fallback, .fallback) }

    static func make(_ context: SessionContext) async -> Deciders {
        let rulesOnly = RulesOnlyDecider(rules: context.rules)
        guard let path = context.configuration.languageModel else {
            return Deciders(questions: rulesOnly, layouts: rulesOnly, usesModel: false)
        }
        do {
            let service = try DecisionService(modelPath: path)
            if let model = service.model, let notice = InstalledEndingProbe.standard.notice(for: model.fingerprint, modelPath: path) {
                context.display.notice(notice)
            }
            let model = ModelDeciders(rules: context.rules, service: service, events: context.events)
            return Deciders(questions: model, layouts: model, usesModel: true, warmUp: { await model.warmUp() },
                            highlights: { await model.highlights(for: $0, language: $1) })
        } catch {
            context.display.notice(context.pack.ui(.modelUnavailable, ["reason": "\(error)"]))
            return Deciders(questions: rulesOnly, layouts: rulesOnly, usesModel: false)
        }
    }

    /// The deciders of a model that is still loading: each decision first waits for `loading`.
    /// The model's work has the cores first: a final pass stops for it (`EngineArbiter`).
    struct Waiting: QuestionDeciding, LayoutDeciding {
        let loading: Task<Deciders, Never>
        let arbiter: EngineArbiter
        func nextQuestion(after conversation: Conversation) async -> Decision {
            await arbiter.foreground { await loading.value.questions.nextQuestion(after: conversation) }
        }
        /// Reading ahead only saves time: it gives way to a final pass under way.
        func prepare(after conversation: Conversation) async {
            await arbiter.unlessBackground { await loading.value.questions.prepare(after: conversation) }
        }
        func layout(for sources: [Source]) async -> (Layout, LayoutSource) {
            await arbiter.foreground { await loading.value.layouts.layout(for: sources) }
        }
        func highlights(for sources: [Source], language: Language) async -> (Highlights, HighlightsSource) {
            await arbiter.foreground { await loading.value.highlights(sources, language) }
        }
        func warmUp() async { await arbiter.foreground { await loading.value.warmUp() } }
    }
}

/// The language model behind the `QuestionDeciding` and `LayoutDeciding` ports: the decision
/// service asks, validates, retries once and falls back to the rules on its own; here a
/// cancelled exchange (Ctrl-C) also ends in the rules' choice rather than an error.
struct ModelDeciders: QuestionDeciding, LayoutDeciding {
    let rules: Rules
    let service: DecisionService
    let events: EventLog

    /// The one-time work (prompt prefix, calibration) done before the first question is needed.
    func warmUp() async { try? await service.warmUp() }

    func prepare(after conversation: Conversation) async { await service.prepare(conversation, rules: rules) }

    func nextQuestion(after conversation: Conversation) async -> Decision {
        do {
            let outcome = try await service.nextQuestion(conversation, rules: rules)
            events.emit(.decided(milliseconds: outcome.milliseconds, attempts: outcome.attempts))
            return outcome.decision
        } catch {
            return rules.apply(modelSuggestion: nil, to: conversation)
        }
    }

    func highlights(for sources: [Source], language: Language) async -> (Highlights, HighlightsSource) {
        do {
            let outcome = try await service.highlights(sources, language: language)
            events.emit(.highlighted(milliseconds: outcome.milliseconds, attempts: outcome.attempts))
            return (outcome.highlights, outcome.source)
        } catch {
            return (.fallback, .fallback)
        }
    }

    func layout(for sources: [Source]) async -> (Layout, LayoutSource) {
        do {
            let outcome = try await service.layout(sources)
            events.emit(.laidOut(milliseconds: outcome.milliseconds, attempts: outcome.attempts))
            return (outcome.layout, outcome.source)
        } catch {
            return (.fallback(sourceCount: sources.count), .fallback)
        }
    }
}
