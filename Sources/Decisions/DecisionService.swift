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

/// The model decisions of the product. The next question, with defence in depth: ask (the
/// allowed options are scored, so only an allowed answer is possible) → validate → on a
/// failure, ask once more → else the rules' fallback. Before the labels, the ending probe may
/// end the exchange on an ending or refusal the rules missed. A blown budget goes to the
/// fallback at once. The rules are applied to whatever the model returns, so an explicit ending
/// always wins. The layout and the highlights are valid by construction: one call, else the
/// fallback. Without a model it is the rules alone.
///
/// Cancellation is task cancellation: it is checked between steps and inside the model call,
/// and a cancelled decision throws `CancellationError`, so the caller keeps the user's words
/// and stops the exchange.
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

    public func nextQuestion(_ conversation: Conversation, rules: Rules) async throws -> QuestionOutcome {
        let start = ContinuousClock.now
        func elapsed() -> Int { Self.milliseconds(ContinuousClock.now - start) }
        let options = rules.allowedChoices(conversation)
        // Only finishing is possible (explicit ending, refusal, limits): nothing to ask.
        guard let model, !options.finishOnly else {
            let choice = rules.fallbackChoice(conversation)
            let decision = Decision(choice: choice, source: model == nil ? .fallback : .rules)
            return QuestionOutcome(decision: decision, attempts: 0, failures: [], milliseconds: elapsed())
        }
        // An answer still thinking aloud ends only on a refusal, or as `ready` once the note has
        // enough by the rules' count: the model's break-off there is a misreading.
        let thinking = rules.isStillThinking(conversation)
        let rulesChoice = rules.fallbackChoice(conversation)
        let noteHasEnough = rulesChoice == .ready
        // An ending in the person's own words that no phrase list has: read from the model's
        // layers (`EndingProbe`), before the labels are scored.
        if let probe = settings.endingProbe, options.contains(.stop), let answer = conversation.lastAnswer,
           let reading = try? await model.endingReading(of: answer, probe: probe)?.with(cue: rules.endingCue(of: conversation)),
           Self.traced(reading).ends, reading.refuses || !thinking || noteHasEnough {
            try Task.checkCancellation()
            // Once the note has enough (the rules would choose `ready` themselves), an ending
            // that does not refuse closes the note rather than breaking off.
            let choice: QuestionChoice = !reading.refuses && noteHasEnough ? .ready : .stop
            let decision = Decision(choice: choice, source: .model, suggestion: choice,
                                    refusal: reading.refuses ? rules.refusalScope(of: answer) : nil)
            return QuestionOutcome(decision: decision, attempts: 1, failures: [], milliseconds: elapsed())
        }
        let prompt = QuestionPrompt.make(conversation: conversation, hints: rules.angleHints(conversation))
        let scored = !thinking ? options : ChoiceOptions(
            choices: options.choices.filter { !$0.isFinal || $0 == .ready && noteHasEnough }, finishReason: nil)
        var failures: [String] = []
        var attemptsMade = 2
        for attempt in 1...2 {
            try Task.checkCancellation()
            do {
                let suggestion = try await ask(model, prompt: prompt, options: scored,
                                               rulesChoice: rulesChoice)
                if scored.contains(suggestion) {
                    let decision = rules.apply(modelSuggestion: suggestion, to: conversation)
                    return QuestionOutcome(decision: decision, attempts: attempt, failures: failures,
                                           milliseconds: elapsed())
                }
                failures.append("\(suggestion.rawValue) is not allowed here")
            } catch LanguageModelError.cancelled {
                throw CancellationError()
            } catch LanguageModelError.overBudget(let budget) {
                // Asking again would only spend the budget twice.
                failures.append("over the budget of \(budget)")
                attemptsMade = attempt
                break
            } catch {
                failures.append("\(error)")
            }
        }
        try Task.checkCancellation()
        let decision = rules.apply(modelSuggestion: nil, to: conversation)
        return QuestionOutcome(decision: decision, attempts: attemptsMade, failures: failures, milliseconds: elapsed())
    }

    /// Reads the question prompt for `conversation` into the model's cache up to the end of its
    /// latest answer, the hints its answers give included (only the cue and the labels wait for
    /// the decision), and the answer after the ending probe's instruction. Called with the
    /// answer as drafted while the person still speaks: the decision at the pause then evaluates
    /// only the tokens from where its prompt differs from this one, the answer's last words
    /// when the hints stay the same.
    public func prepare(_ conversation: Conversation, rules: Rules) async {
        guard let model, let answer = conversation.turns.last?.answer, !answer.isEmpty else { return }
        if let probe = settings.endingProbe { _ = try? await model.endingReading(of: answer, probe: probe) }
        let prompt = QuestionPrompt.make(conversation: conversation, hints: rules.angleHints(conversation))
            .render(for: model, format: format)
        // The answer's JSON string without its closing quote.
        guard let quoted = prompt.range(of: JSONText.quoted(UserText.sanitized(answer)), options: .backwards) else { return }
        try? await model.prefill(String(prompt[..<quoted.upperBound].dropLast()))
    }

    /// One model call for the next question: each allowed label is scored after the prompt,
    /// minus its score after a conversation that says nothing (what this conversation adds to
    /// each option, so a label the model likes everywhere does not win everywhere), plus
    /// `rulesPrior` for the rules' own choice; the best one wins.
    func ask(_ model: LanguageModel, prompt: DecisionPrompt, options: ChoiceOptions,
             rulesChoice: QuestionChoice) async throws -> QuestionChoice {
        let deadline = Deadline(settings.questionBudget)
        var scores = try await scoreLabels(options.choices, prompt: prompt, model: model, deadline: deadline)
        // Computed once per service, outside the per-call budget (see `warmUp`).
        let baseline = try await contentFreeScores(model)
        for (index, choice) in options.choices.enumerated() { scores[index] -= baseline[choice] ?? 0 }
        if Self.traceScores {
            let pairs = zip(options.choices, scores).map { "\"\($0.rawValue)\":\($1)" }.joined(separator: ",")
            FileHandle.standardError.write(Data("scores {\"rules\":\"\(rulesChoice.rawValue)\",\"scores\":{\(pairs)}}\n".utf8))
        }
        if let index = options.choices.firstIndex(of: rulesChoice) { scores[index] += settings.rulesPrior }
        return try Self.best(options.choices, scores: scores, endingMargin: rulesChoice.isFinal ? 0 : settings.endingMargin)
    }

    /// The best-scored choice; an ending only when it beats the best question by
    /// `endingMargin`.
    static func best(_ choices: [QuestionChoice], scores: [Double], endingMargin: Double) throws -> QuestionChoice {
        func top(_ keep: (QuestionChoice) -> Bool) -> (QuestionChoice, Double)? {
            zip(choices, scores).filter { keep($0.0) && $0.1.isFinite }.max { $0.1 < $1.1 }
        }
        guard let overall = top({ _ in true }) else { throw DecisionError.unreadable("no finite score") }
        guard overall.0.isFinal, let question = top({ !$0.isFinal }) else { return overall.0 }
        return overall.1 > question.1 + endingMargin ? overall.0 : question.0
    }

    /// Does the one-time work before the first decision: the content-free scores for
    /// calibration and the constant instruction prefix in the KV cache. The dialogue loop
    /// can call it while the opening question is spoken; otherwise the first decision does it.
    public func warmUp() async throws {
        guard let model else { return }
        do {
            _ = try await contentFreeScores(model)
        } catch LanguageModelError.cancelled {
            throw CancellationError()
        }
    }

    /// The labels of `choices` as scored after the prompt, cut where they become distinct
    /// among all labels.
    func scoreLabels(_ choices: [QuestionChoice], prompt: DecisionPrompt, model: LanguageModel,
                     deadline: Deadline) async throws -> [Double] {
        func continuation(_ choice: QuestionChoice) -> String {
            DecisionPrompt.continuation(ChoiceLabels.label(choice), format: format)
        }
        return try await model.score(prompt: prompt.render(for: model, format: format),
                                     continuations: choices.map(continuation),
                                     cutAmong: QuestionChoice.allCases.map(continuation), deadline: deadline)
    }

    /// Each label's score after a conversation that says nothing (computed once per service).
    private var baselineScores: [QuestionChoice: Double]?

    func contentFreeScores(_ model: LanguageModel) async throws -> [QuestionChoice: Double] {
        if let baselineScores { return baselineScores }
        let empty = Conversation(turns: [Turn(question: .opening, answer: "")])
        let prompt = QuestionPrompt.make(conversation: empty, hints: AngleHints(kind: .general, angles: []))
        let scores = try await scoreLabels(QuestionChoice.allCases, prompt: prompt, model: model, deadline: .unlimited)
        let table = Dictionary(uniqueKeysWithValues: zip(QuestionChoice.allCases, scores))
        baselineScores = table
        return table
    }

    // MARK: Layout

    /// The sentences grouped in one model call. Its layout is valid by construction (every ID
    /// once, in order, in groups of at most `Layout.maxGroupSize`), so there is nothing to
    /// validate or retry: a failed call goes to the fallback.
    public func layout(_ sources: [Source]) async throws -> LayoutOutcome {
        let start = ContinuousClock.now
        func outcome(_ layout: Layout, _ source: LayoutSource, attempts: Int, failures: [String] = []) -> LayoutOutcome {
            LayoutOutcome(layout: layout, source: source, attempts: attempts, failures: failures,
                          milliseconds: Self.milliseconds(ContinuousClock.now - start))
        }
        guard let model, !sources.isEmpty else { return outcome(.fallback(sourceCount: sources.count), .fallback, attempts: 0) }
        try Task.checkCancellation()
        do {
            return outcome(try await askLayout(sources, model: model), .model, attempts: 1)
        } catch {
            let failure = try Self.failure(error)
            try Task.checkCancellation()
            return outcome(.fallback(sourceCount: sources.count), .fallback, attempts: 1, failures: [failure])
        }
    }

    /// One model call for the layout: the one-pass contrast layout (see `contrastLayout`).
    func askLayout(_ sources: [Source], model: LanguageModel) async throws -> Layout {
        let deadline = Deadline(settings.layoutBudget)
        let breaks = Set(zip(sources, sources.dropFirst()).filter { $0.answerIndex != $1.answerIndex }.map(\.0.id))
        let prompt = LayoutPrompt.make(sources: sources).render(for: model, format: format)
        return try await model.contrastLayout(prompt: prompt, format: format, sourceCount: sources.count, answerBreaks: breaks,
                                              answerPrior: settings.answerPrior,
                                              titleAllowed: NoteTitle.isShort(sources[0].text), deadline: deadline)
    }

    /// Why a model call failed, for the outcome's failures; a cancelled call throws
    /// `CancellationError` instead.
    static func failure(_ error: any Error) throws -> String {
        switch error {
        case LanguageModelError.cancelled: throw CancellationError()
        case LanguageModelError.overBudget(let budget): "over the budget of \(budget)"
        default: "\(error)"
        }
    }

    // MARK: Helpers

    /// DIALOGUE_MEMO_TRACE_SCORES=1 writes every option's score to standard error (for the
    /// evaluation write-up).
    static let traceScores = ProcessInfo.processInfo.environment["DIALOGUE_MEMO_TRACE_SCORES"] != nil

    /// The probe's reading, and the rules' cue, on standard error when scores are traced.
    static func traced(_ reading: EndingProbe.Reading) -> EndingProbe.Reading {
        if traceScores {
            let cue = reading.cue.map { "\"\($0.rawValue)\"" } ?? "null"
            FileHandle.standardError.write(Data("probe {\"whole\":\(reading.whole),\"close\":\(reading.close),\"refusal\":\(reading.refusal),\"cue\":\(cue)}\n".utf8))
        }
        return reading
    }

    static func milliseconds(_ duration: Duration) -> Int { Int(duration / .milliseconds(1)) }
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
