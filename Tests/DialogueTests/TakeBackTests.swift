import DialogueCore
import Foundation
import Testing
@testable import Dialogue

/// A voice whose person may go on after the exchange seemed to end: per answer, the words they
/// add after the closing line (`after`) or over it (`over`, which then plays until stopped).
final class TakeBackVoice: ResumableAnswers, PromptSpeaking, JournalWriting, @unchecked Sendable {
    struct Answer { var text: String, after: String? = nil, over: String? = nil }
    private let lock = NSLock()
    private var answers: [Answer]
    private var current: Answer?
    private var playing: SpokenPrompt?
    private(set) var said: [SpokenPrompt] = []
    private(set) var stopped: [SpokenPrompt] = []
    private(set) var windows: [Duration] = []
    private(set) var lines: [String] = []
    /// A key or Ctrl-C in the window (it cancels the exchange's task).
    var keyInWindow = false

    init(_ answers: [Answer]) { self.answers = answers }

    func say(_ prompt: SpokenPrompt) async throws {
        let talkedOver = lock.withLock {
            said.append(prompt)
            playing = prompt
            if case .closing = prompt { return current?.over != nil }
            return false
        }
        defer { lock.withLock { playing = nil } }
        guard talkedOver else { return }
        do { try await Task.sleep(for: .seconds(60)) } catch {
            lock.withLock { stopped.append(prompt) }
            throw error
        }
    }

    func answer(to question: TurnQuestion) async throws -> AnswerOutcome {
        lock.withLock {
            current = answers.isEmpty ? nil : answers.removeFirst()
            return current.map { .answer($0.text) } ?? .noAnswer
        }
    }

    /// Speaks over a closing line only (as soon as it plays); nothing over questions.
    func speechOverQuestion() async -> TalkOver? {
        while !Task.isCancelled {
            let over = lock.withLock { () -> Bool in
                guard case .closing = playing else { return false }
                return current?.over != nil
            }
            if over { return .answers }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }

    func goesOn(within window: Duration) async -> Bool {
        if keyInWindow { withUnsafeCurrentTask { $0?.cancel() } }
        return lock.withLock {
            windows.append(window)
            return current?.after != nil
        }
    }

    func continueAnswer(to question: TurnQuestion,
                        early: @escaping @Sendable (AnswerSoFar) -> Task<Void, Never>) async throws -> AnswerOutcome {
        lock.withLock {
            guard let answer = current, let more = answer.after ?? answer.over else { return .noAnswer }
            current = Answer(text: answer.text + " " + more)
            return .answer(answer.text + " " + more)
        }
    }

    func append(_ event: JournalEvent) throws { lock.withLock { lines.append(Journal.line(event)) } }
    func remove() { lock.withLock { lines.removeAll() } }
    var journalText: String { lock.withLock { lines.joined() } }
}

/// The model's choices, in order (the rules are not asked); and a layout and highlights that
/// say they are the model's, counting the calls.
final class ScriptedModel: QuestionDeciding, LayoutDeciding, @unchecked Sendable {
    private let lock = NSLock()
    private var choices: [QuestionChoice]
    private(set) var laidOut: [[Source]] = []
    private(set) var highlighted = 0

    init(_ choices: [QuestionChoice]) { self.choices = choices }

    func nextQuestion(after conversation: Conversation) async -> Decision {
        lock.withLock { Decision(choice: choices.isEmpty ? .stop : choices.removeFirst(), source: .model) }
    }
    func layout(for sources: [Source]) async -> (Layout, LayoutSource) {
        lock.withLock { laidOut.append(sources) }
        return (.fallback(sourceCount: sources.count), .model)
    }
    func highlights(for sources: [Source], language: Language) async -> (Highlights, HighlightsSource) {
        lock.withLock { highlighted += 1 }
        return (Highlights(nextSteps: [sources.count], key: 1), .model)
    }
}

@Suite("Exchange: an ending that no rule forced can be taken back")
struct TakeBackTests {
    func run(_ voice: TakeBackVoice, _ model: ScriptedModel, events: EventList = EventList()) async throws -> Exchange.Outcome {
        let pack = try LanguagePackLoader().load("en")
        try voice.append(.started(id: "b1", created: Date(), timeZone: "UTC", language: "en"))
        return await Exchange(rules: Rules(pack: pack), speaker: voice, answers: voice, questions: model, layouts: model,
                              journal: voice, onEvent: { events.append($0) }).run()
    }

    final class EventList: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [ExchangeEvent] = []
        func append(_ event: ExchangeEvent) { lock.withLock { list.append(event) } }
        var all: [ExchangeEvent] { lock.withLock { list } }
    }

    var closings: (TakeBackVoice) -> [SpokenPrompt] {
        { voice in voice.said.filter { if case .closing = $0 { true } else { false } } }
    }

    /// The model ended on the second answer; the person went on after the closing line: the
    /// exchange continues with that answer whole, and the ending is neither kept nor journaled.
    @Test func goingOnAfterTheClosingLineContinuesTheAnswer() async throws {
        let voice = TakeBackVoice([.init(text: "A tool library for the building."),
                                   .init(text: "People buy drills they use once.", after: "And then they sit in a drawer for years."),
                                   .init(text: "That's all.")])
        let model = ScriptedModel([.problem, .ready, .example, .ready])
        let events = EventList()
        let outcome = try await run(voice, model, events: events)
        #expect(outcome.endReason == .finished)
        #expect(outcome.conversation.answers == ["A tool library for the building.",
                                                 "People buy drills they use once. And then they sit in a drawer for years.",
                                                 "That's all."])
        #expect(outcome.decisions.map(\.choice) == [.problem, .example, .ready], "the ending taken back was kept")
        #expect(voice.windows == [Exchange.takeBackWindow], "\"That's all.\" forced its ending: nothing to listen for")
        #expect(closings(voice) == [.closing(.ready), .closing(.ready)])
        #expect(events.all.contains(.tookBack))
        #expect(outcome.sources.map(\.text).contains("And then they sit in a drawer for years."))
        // The journal holds the answer whole and no trace of the ending taken back.
        let replay = try JournalReplay(Journal.read(voice.journalText).events)
        #expect(replay.conversation.answers == outcome.conversation.answers)
        #expect(voice.journalText.components(separatedBy: "\"decided\"").count - 1 == 3, "\(voice.journalText)")
        // The note for the ending that was taken back was dropped: the one used is the whole conversation's.
        #expect(model.laidOut.last?.map(\.text).contains("And then they sit in a drawer for years.") == true)
    }

    /// The person speaks over the closing line: it stops at once, and their answer goes on.
    @Test func speakingOverTheClosingLineStopsItAndContinues() async throws {
        let voice = TakeBackVoice([.init(text: "A tool library for the building.", over: "Oh, and it should be free."),
                                   .init(text: "That's all.")])
        let model = ScriptedModel([.ready, .problem, .ready])
        let outcome = try await run(voice, model)
        #expect(voice.stopped == [.closing(.ready)])
        #expect(voice.windows.isEmpty, "heard over the line: no window after it")
        #expect(outcome.conversation.answers == ["A tool library for the building. Oh, and it should be free.", "That's all."])
        #expect(outcome.decisions.map(\.choice) == [.problem, .ready])
    }

    /// Nobody goes on: the ending stands, is journaled, and the note was made while the closing
    /// line and the window ran: the model's layout and highlights, each asked once.
    @Test func anEndingNotTakenBackStands() async throws {
        let voice = TakeBackVoice([.init(text: "A tool library for the building."), .init(text: "People buy drills they use once.")])
        let model = ScriptedModel([.problem, .ready])
        let outcome = try await run(voice, model)
        #expect(outcome.endReason == .finished)
        #expect(outcome.decisions.map(\.choice) == [.problem, .ready])
        #expect(voice.windows == [Exchange.takeBackWindow])
        #expect(voice.journalText.components(separatedBy: "\"decided\"").count - 1 == 2)
        #expect(outcome.layoutSource == .model && model.laidOut.count == 1)
        #expect(outcome.highlightsSource == .model && model.highlighted == 1)
        #expect(outcome.highlights.nextSteps == [outcome.sources.count])
        #expect(outcome.closing == nil, "the closing line is over once the window is")
    }

    /// A key in the window wants the words now: the ending stands, the note is one sentence
    /// per bullet with every word, whatever the note's work under the line had done.
    @Test func aKeyInTheWindowGivesTheWordsNow() async throws {
        let voice = TakeBackVoice([.init(text: "A tool library for the building."), .init(text: "People buy drills they use once.")])
        voice.keyInWindow = true
        let model = ScriptedModel([.problem, .ready])
        let outcome = try await Task { try await run(voice, model) }.value
        #expect(outcome.endReason == .finished)
        #expect(outcome.layoutSource == .fallback && outcome.highlightsSource == .fallback)
        #expect(outcome.sources.map(\.text) == ["A tool library for the building.", "People buy drills they use once."])
    }

    /// An ending the person's own words forced ("That's all.") is not listened for after.
    @Test func aForcedEndingIsNotListenedFor() async throws {
        let voice = TakeBackVoice([.init(text: "A tool library for the building."), .init(text: "That's all.", after: "never heard")])
        let outcome = try await run(voice, ScriptedModel([.problem, .ready]))
        #expect(voice.windows.isEmpty)
        #expect(outcome.conversation.answers == ["A tool library for the building.", "That's all."])
    }
}
