import DialogueCore
import Foundation

/// The next question as decided, with how it was reached (for the screen and the journal).
public struct QuestionOutcome: Sendable, Hashable {
    public let decision: Decision
    /// Model calls made (0 when only finishing was possible or no model is loaded).
    public let attempts: Int
    /// Why attempts failed, in order (empty when the first attempt was used).
    public let failures: [String]
    public let milliseconds: Int
}

/// The note layout as decided, with where it came from.
public struct LayoutOutcome: Sendable, Hashable {
    public let layout: Layout
    public let source: LayoutSource
    public let attempts: Int
    public let failures: [String]
    public let milliseconds: Int
}

/// The two model decisions of the product, with defence in depth: ask (grammar-constrained
/// or scored, so only allowed output is possible) → validate → on invalid output or a
/// decoding failure, ask once more with a precise reminder → else the rules' fallback. A
/// blown budget goes to the fallback at once. The rules are applied to whatever the model
/// returns, so an explicit ending always wins. Without a model it is the rules alone.
///
/// Cancellation (`Task.cancel()` or the `cancel` closure) is checked between steps and
/// between tokens; a cancelled decision throws `CancellationError`, so the caller keeps the
/// user's words and stops the exchange.
public actor DecisionService {
    public nonisolated let model: LanguageModel?
    public nonisolated let settings: DecisionSettings
    public nonisolated let format: PromptFormat

    public init(model: LanguageModel?, settings: DecisionSettings = DecisionSettings()) {
        self.model = model
        self.settings = settings
        self.format = settings.format ?? (model?.chatTemplate == nil ? .completion : .chat)
    }

    /// Loads the GGUF at `path` (any model llama.cpp reads; an instruction model with a chat
    /// template is driven through it, a base model with completion prompts).
    public init(modelPath: String, settings: DecisionSettings = DecisionSettings(), threads: Int32 = 2) throws {
        self.init(model: try LanguageModel(path: modelPath, contextSize: 4096, threads: threads), settings: settings)
    }

    // MARK: Next question

    public func nextQuestion(_ conversation: Conversation, rules: Rules,
                             cancel: (@Sendable () -> Bool)? = nil) async throws -> QuestionOutcome {
        let start = ContinuousClock.now
        func elapsed() -> Int { Self.milliseconds(ContinuousClock.now - start) }
        let options = rules.allowedChoices(conversation)
        // Only finishing is possible (explicit ending, refusal, limits): nothing to ask.
        if options.finishOnly || model == nil {
            let choice = rules.fallbackChoice(conversation)
            let decision = Decision(choice: choice, source: model == nil ? .fallback : .rules)
            return QuestionOutcome(decision: decision, attempts: 0, failures: [], milliseconds: elapsed())
        }
        let hints = rules.angleHints(conversation)
        var failures: [String] = []
        var attemptsMade = 2
        for attempt in 1...2 {
            try checkCancelled(cancel)
            let prompt = QuestionPrompt.make(conversation: conversation, options: options, hints: hints,
                                             style: settings.labels,
                                             listOptions: settings.questionMethod == .generate,
                                             reminder: attempt == 2 ? QuestionPrompt.reminder : nil)
            do {
                let suggestion = try await ask(prompt, options: options, rulesChoice: rules.fallbackChoice(conversation),
                                               cancel: cancel)
                if options.contains(suggestion) {
                    let decision = rules.apply(modelSuggestion: suggestion, to: conversation)
                    return QuestionOutcome(decision: decision, attempts: attempt, failures: failures,
                                           milliseconds: elapsed())
                }
                failures.append("\(suggestion.rawValue) is not allowed here")
            } catch LanguageModelError.cancelled {
                // The user's cancel stops the exchange; a blown budget goes straight to the
                // rules (asking again would only spend the budget twice).
                try checkCancelled(cancel)
                failures.append("over the budget of \(settings.questionBudget)")
                attemptsMade = attempt
                break
            } catch {
                failures.append("\(error)")
            }
        }
        try checkCancelled(cancel)
        let decision = rules.apply(modelSuggestion: nil, to: conversation)
        return QuestionOutcome(decision: decision, attempts: attemptsMade, failures: failures, milliseconds: elapsed())
    }

    /// One model call for the next question: the suggested case.
    func ask(_ prompt: DecisionPrompt, options: ChoiceOptions, rulesChoice: QuestionChoice,
             cancel: (@Sendable () -> Bool)?) async throws -> QuestionChoice {
        guard let model else { throw LanguageModelError.cancelled }
        let deadline = ContinuousClock.now + settings.questionBudget
        let stop: @Sendable () -> Bool = { cancel?() == true || Task.isCancelled || ContinuousClock.now > deadline }
        let text = prompt.render(for: model, format: format)
        switch settings.questionMethod {
        case .generate:
            let output = try await model.complete(prompt: text, grammar: QuestionGrammar.gbnf(for: options, style: settings.labels),
                                                  maxTokens: 32, cancel: stop)
            guard let choice = ChoiceLabels.choice(forLabel: output, style: settings.labels) else {
                throw DecisionError.unreadable(output)
            }
            return choice
        case .score, .scoreMean, .scoreCalibrated:
            let labels = options.choices.map {
                DecisionPrompt.continuation(ChoiceLabels.label($0, style: settings.labels), format: format)
            }
            var scores = try await scoreLabels(model, prompt: text, labels: labels, cancel: stop)
            if settings.questionMethod == .scoreMean {
                for (index, label) in labels.enumerated() {
                    scores[index] /= Double(max(1, await model.tokenize(label, addSpecial: false).count))
                }
            }
            if settings.questionMethod == .scoreCalibrated {
                // Computed once per service, outside the per-call budget (see `warmUp`).
                let baseline = try await contentFreeScores(cancel: { cancel?() == true || Task.isCancelled })
                for (index, choice) in options.choices.enumerated() { scores[index] -= baseline[choice] ?? 0 }
            }
            if Self.traceScores {
                let pairs = zip(options.choices, scores).map { "\"\($0.rawValue)\":\($1)" }.joined(separator: ",")
                FileHandle.standardError.write(Data("scores {\"rules\":\"\(rulesChoice.rawValue)\",\"scores\":{\(pairs)}}\n".utf8))
            }
            if let index = options.choices.firstIndex(of: rulesChoice) { scores[index] += settings.rulesPrior }
            guard let best = scores.indices.max(by: { scores[$0] < scores[$1] }), scores[best].isFinite else {
                throw DecisionError.unreadable("no finite score")
            }
            return options.choices[best]
        }
    }

    /// Does the one-time work before the first decision: the content-free scores for
    /// calibration and the constant instruction prefix in the KV cache. The dialogue loop
    /// can call it while the opening question is spoken; otherwise the first decision does it.
    public func warmUp() async throws {
        guard model != nil else { return }
        if settings.questionMethod == .scoreCalibrated { _ = try await contentFreeScores(cancel: nil) }
    }

    /// Scores the labels after the prompt, whole or cut where they become distinct.
    func scoreLabels(_ model: LanguageModel, prompt: String, labels: [String],
                     cancel: (@Sendable () -> Bool)?) async throws -> [Double] {
        guard settings.cutLabels else { return try await model.score(prompt: prompt, continuations: labels, cancel: cancel) }
        let all = QuestionChoice.allCases.map { DecisionPrompt.continuation(ChoiceLabels.label($0, style: settings.labels), format: format) }
        return try await model.score(prompt: prompt, continuations: labels, cutAmong: all, extra: 0,
                                     amongAllowed: settings.amongAllowedTokens, cancel: cancel)
    }

    /// Each label's score after a conversation that says nothing (computed once per service).
    private var baselineScores: [QuestionChoice: Double]?

    func contentFreeScores(cancel: (@Sendable () -> Bool)?) async throws -> [QuestionChoice: Double] {
        if let baselineScores { return baselineScores }
        guard let model else { return [:] }
        let empty = Conversation(turns: [Turn(question: .opening, answer: "")])
        let all = ChoiceOptions(choices: QuestionChoice.allCases, finishReason: nil)
        let prompt = QuestionPrompt.make(conversation: empty, options: all, hints: AngleHints(kind: .general, angles: []),
                                         style: settings.labels, listOptions: false)
        let labels = all.choices.map { DecisionPrompt.continuation(ChoiceLabels.label($0, style: settings.labels), format: format) }
        let scores = try await scoreLabels(model, prompt: prompt.render(for: model, format: format), labels: labels, cancel: cancel)
        let table = Dictionary(uniqueKeysWithValues: zip(all.choices, scores))
        baselineScores = table
        return table
    }

    // MARK: Layout

    public func layout(_ sources: [Source], cancel: (@Sendable () -> Bool)? = nil) async throws -> LayoutOutcome {
        let start = ContinuousClock.now
        func elapsed() -> Int { Self.milliseconds(ContinuousClock.now - start) }
        let count = sources.count
        guard let model, count > 0 else {
            return LayoutOutcome(layout: .fallback(sourceCount: count), source: .fallback, attempts: 0,
                                 failures: [], milliseconds: elapsed())
        }
        var attempts: [Layout?] = []
        var failures: [String] = []
        var reminder: String? = nil
        for _ in 1...2 {
            try checkCancelled(cancel)
            let prompt = LayoutPrompt.make(sources: sources, reminder: reminder)
            do {
                let output = try await writeLayout(prompt, model: model, sources: sources, cancel: cancel)
                guard let layout = Layout.parse(output) else {
                    attempts.append(nil)
                    failures.append("not a layout: \(output.prefix(80))")
                    reminder = LayoutReminder.text(problems: [], sourceCount: count)
                    continue
                }
                let problems = layout.problems(sourceCount: count)
                attempts.append(layout)
                if problems.isEmpty { break }
                failures.append(problems.map(\.description).joined(separator: "; "))
                reminder = LayoutReminder.text(problems: problems, sourceCount: count)
            } catch LanguageModelError.cancelled {
                try checkCancelled(cancel)
                attempts.append(nil)
                failures.append("over the budget of \(settings.layoutBudget)")
                break
            } catch {
                attempts.append(nil)
                failures.append("\(error)")
                reminder = LayoutReminder.text(problems: [], sourceCount: count)
            }
        }
        try checkCancelled(cancel)
        let resolved = Layout.resolve(attempts: attempts, sourceCount: count)
        return LayoutOutcome(layout: resolved.layout, source: resolved.source, attempts: attempts.count,
                             failures: failures, milliseconds: elapsed())
    }

    func writeLayout(_ prompt: DecisionPrompt, model: LanguageModel, sources: [Source],
                     cancel: (@Sendable () -> Bool)?) async throws -> String {
        let sourceCount = sources.count
        let deadline = ContinuousClock.now + settings.layoutBudget
        let stop: @Sendable () -> Bool = { cancel?() == true || Task.isCancelled || ContinuousClock.now > deadline }
        let text = prompt.render(for: model, format: format)
        switch settings.layoutMethod {
        case .generate:
            return try await model.complete(prompt: text, grammar: LayoutGrammar.gbnf(sourceCount: sourceCount),
                                            maxTokens: 8 * sourceCount + 32, cancel: stop)
        case .contrast:
            let breaks = Set(zip(sources, sources.dropFirst()).filter { $0.answerIndex != $1.answerIndex }.map(\.0.id))
            return try await model.contrastLayout(prompt: text, format: format, sourceCount: sourceCount,
                                                  answerBreaks: breaks, answerPrior: settings.answerPrior,
                                                  titleAllowed: NoteTitle.isShort(sources[0].text), cancel: stop)
        case .branch:
            return try await model.branchLayout(prompt: text, format: format, sourceCount: sourceCount, cancel: stop)
        }
    }

    // MARK: Helpers

    /// DIALOGUE_MEMO_TRACE_SCORES=1 writes every option's score to standard error (for the
    /// evaluation write-up).
    static let traceScores = ProcessInfo.processInfo.environment["DIALOGUE_MEMO_TRACE_SCORES"] != nil

    private nonisolated func isUserCancelled(_ cancel: (@Sendable () -> Bool)?) -> Bool {
        Task.isCancelled || cancel?() == true
    }

    private nonisolated func checkCancelled(_ cancel: (@Sendable () -> Bool)?) throws {
        if isUserCancelled(cancel) { throw CancellationError() }
    }

    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}

/// A model answer that could not be used.
public enum DecisionError: Error, CustomStringConvertible, Equatable {
    case unreadable(String)

    public var description: String {
        switch self {
        case .unreadable(let output): "the model's answer could not be read: \(output.prefix(80))"
        }
    }
}
