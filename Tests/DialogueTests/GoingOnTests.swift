import DialogueCore
import Foundation
import Testing
@testable import Dialogue

/// A voice whose person goes on with an answer after it seemed over: scripted per answer, with
/// the question they talk over never allowed to finish (a speaker that waits to be cancelled).
final class GoingOnVoice: ResumableAnswers, PromptSpeaking, JournalWriting, @unchecked Sendable {
    private let lock = NSLock()
    /// Per answer: the words before the pause, and those said over the next question (nil: none).
    private var answers: [(String, String?)]
    private var current: (String, String?)?
    private(set) var said: [SpokenPrompt] = []
    private(set) var stopped: [SpokenPrompt] = []
    private(set) var lines: [String] = []

    init(_ answers: [(String, String?)]) { self.answers = answers }

    private var goesOn: Bool { lock.withLock { current?.1 != nil } }

    func say(_ prompt: SpokenPrompt) async throws {
        // Talked over (the answer before it goes on): this question plays until it is stopped.
        // Decided when the answer was given, so it does not depend on when this task runs.
        let talkedOver = lock.withLock {
            said.append(prompt)
            defer { talkOver = false }
            guard case .question(.choice) = prompt else { return false }
            return talkOver
        }
        guard talkedOver else { return }
        do { try await Task.sleep(for: .seconds(60)) } catch {
            lock.withLock { stopped.append(prompt) }
            throw error
        }
    }

    /// The next question is talked over.
    private var talkOver = false

    func answer(to question: TurnQuestion) async throws -> AnswerOutcome {
        lock.withLock {
            current = answers.isEmpty ? nil : answers.removeFirst()
            talkOver = current?.1 != nil
            return current.map { .answer($0.0) } ?? .noAnswer
        }
    }

    func speechOverQuestion() async -> TalkOver? {
        if goesOn { return .goesOn }
        // Not going on: wait until the question has been played (the exchange cancels this).
        while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
        return nil
    }

    /// The reading of the answer heard on leaves its earlier part out (whisper on a long answer).
    var dropsEarlierPart = false

    func continueAnswer(to question: TurnQuestion,
                        early: @escaping @Sendable (AnswerSoFar) -> Task<Void, Never>) async throws -> AnswerOutcome {
        lock.withLock {
            guard let (before, after) = current, let after else { return .noAnswer }
            current = (before + " " + after, nil)
            return .answer(dropsEarlierPart ? after : before + " " + after)
        }
    }

    func append(_ event: JournalEvent) throws { lock.withLock { lines.append(Journal.line(event)) } }
    func remove() { lock.withLock { lines.removeAll() } }
    var journalText: String { lock.withLock { lines.joined() } }
}

@Suite("Exchange: the person goes on over the next question")
struct GoingOnTests {
    func run(_ voice: GoingOnVoice) async throws -> Exchange.Outcome {
        let pack = try LanguagePackLoader().load("en")
        let rules = RulesOnlyDecider(rules: Rules(pack: pack))
        try voice.append(.started(id: "g1", created: Date(), timeZone: "UTC", language: "en"))
        return await Exchange(rules: Rules(pack: pack), speaker: voice, answers: voice, questions: rules,
                              layouts: rules, journal: voice).run()
    }

    @Test func theQuestionStopsAndTheAnswerIsHeardOnWhole() async throws {
        let voice = GoingOnVoice([("I want an app for sharing tools", "with my neighbors in the building."),
                                  ("People buy drills they use once.", nil),
                                  ("That's all for now.", nil)])
        let outcome = try await run(voice)
        #expect(outcome.endReason == .finished)
        #expect(outcome.conversation.answers == ["I want an app for sharing tools with my neighbors in the building.",
                                                 "People buy drills they use once.", "That's all for now."])
        // The question talked over was stopped, then asked again after the whole answer.
        #expect(voice.stopped.count == 1)
        let questions = voice.said.filter { if case .question = $0 { return true } else { return false } }
        #expect(questions.count == 4, "\(voice.said)")
        #expect(questions[1] == voice.stopped.first)
        // The journal holds the answer whole, once: a kill or a crash rebuilds it so.
        let replay = try JournalReplay(Journal.read(voice.journalText).events)
        #expect(replay.conversation.answers == outcome.conversation.answers)
        #expect(replay.conversation.turns.first?.question == .opening)
        #expect(voice.journalText.components(separatedBy: "\"asked\"").count - 1 == 3, "the stopped question is not journaled as asked")
    }

    /// The answer heard on, read again whole, came back as its last sentence alone (whisper on a
    /// real Spanish answer): the earlier words stay, before it. A reading that keeps them (with
    /// its own small changes) is taken as it is.
    @Test func anAnswerHeardOnNeverLosesItsEarlierWords() {
        let earlier = "Por favor, deje su mensaje después del tono. Al terminar, cuelgue o presione la tecla de número."
        let later = "Este tanque M3 Bradley no sólo te lleva a la batalla."
        #expect(ExchangeRun.heardOn(later, after: earlier, language: Language("es")) == earlier + " " + later)
        let whole = "Por favor, déjese su mensaje después del tono. Al terminar, cuelgue opresione la tecla de número. " + later
        #expect(ExchangeRun.heardOn(whole, after: earlier, language: Language("es")) == whole)
        #expect(ExchangeRun.heardOn("毎日、電話で予約を受けるのは大変です。", after: "予約の電話が多いです。", language: Language("ja"))
                    == "予約の電話が多いです。 毎日、電話で予約を受けるのは大変です。")
    }

    /// Heard on twice (real voices, Spanish, three recordings spoken over two questions): the
    /// second reading kept the second recording and the third and left the first out. Most of
    /// the earlier text was in it, yet a sentence of it was not: that sentence stays, before it.
    @Test func anAnswerHeardOnTwiceKeepsEverySentence() {
        let first = "Por favor, deje su mensaje después del tono."
        let second = "Este tanque M3 Bradley no solo te lleva a la batalla sino que también se une a la acción."
        let reading = "Este tanque M3 Bradley no solo te lleva a la batalla sino que también sea una la acción. La letra A en el lenguaje de señas americanos."
        #expect(ExchangeRun.heardOn(reading, after: first + " " + second, language: Language("es")) == first + " " + reading)
        // Every sentence read again (with whisper's own small changes): nothing is added.
        let again = "Por favor, déjese su mensaje después del tono. " + reading
        #expect(ExchangeRun.heardOn(again, after: first + " " + second, language: Language("es")) == again)
    }

    @Test func aContinuedAnswerThatDropsTheEarlierPartKeepsIt() async throws {
        let voice = GoingOnVoice([("I want an app for sharing tools", "with my neighbors in the building."),
                                  ("That's all for now.", nil)])
        voice.dropsEarlierPart = true
        let outcome = try await run(voice)
        #expect(outcome.conversation.answers.first == "I want an app for sharing tools with my neighbors in the building.")
    }

    @Test func withoutGoingOnEveryQuestionPlaysWhole() async throws {
        let voice = GoingOnVoice([("A tool library for the building.", nil), ("That's all.", nil)])
        let outcome = try await run(voice)
        #expect(voice.stopped.isEmpty)
        #expect(outcome.conversation.answers == ["A tool library for the building.", "That's all."])
    }

    @Test func aRefusalSaidWhileGoingOnDropsTheWholeAnswer() async throws {
        let voice = GoingOnVoice([("A tool library for the building.", nil),
                                  ("My landlord is", "actually, don't record this."), ("more", nil)])
        let outcome = try await run(voice)
        #expect(outcome.endReason == .refused)
        #expect(outcome.conversation.answers == ["A tool library for the building."])
        #expect(voice.journalText.isEmpty)
    }
}

/// A person who answers the second question while it plays: it is stopped, and their answer is
/// that question's (not the first answer going on).
final class AnsweringOverVoice: ResumableAnswers, PromptSpeaking, JournalWriting, @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [String]
    private var questions = 0
    private(set) var said: [SpokenPrompt] = []
    private(set) var stopped: [SpokenPrompt] = []
    private(set) var lines: [String] = []

    init(_ answers: [String]) { self.answers = answers }

    /// The second question is talked over.
    private var talkedOver: Bool { lock.withLock { questions == 2 } }

    func say(_ prompt: SpokenPrompt) async throws {
        lock.withLock {
            said.append(prompt)
            if case .question = prompt { questions += 1 }
        }
        guard talkedOver else { return }
        do { try await Task.sleep(for: .seconds(60)) } catch {
            lock.withLock { stopped.append(prompt) }
            throw error
        }
    }

    func speechOverQuestion() async -> TalkOver? {
        while !talkedOver, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
        return talkedOver ? .answers : nil
    }

    func answer(to question: TurnQuestion) async throws -> AnswerOutcome {
        lock.withLock { answers.isEmpty ? .noAnswer : .answer(answers.removeFirst()) }
    }

    func continueAnswer(to question: TurnQuestion,
                        early: @escaping @Sendable (AnswerSoFar) -> Task<Void, Never>) async throws -> AnswerOutcome {
        Issue.record("an answer over a question is not the one before it going on")
        return .noAnswer
    }

    func append(_ event: JournalEvent) throws { lock.withLock { lines.append(Journal.line(event)) } }
    func remove() { lock.withLock { lines.removeAll() } }
    var journalText: String { lock.withLock { lines.joined() } }
}

extension GoingOnTests {
    @Test func aQuestionAnsweredWhileItPlaysStopsAndTheAnswerIsItsOwn() async throws {
        let voice = AnsweringOverVoice(["A tool library for the building.", "People buy drills they use once.", "That's all for now."])
        let pack = try LanguagePackLoader().load("en")
        let rules = RulesOnlyDecider(rules: Rules(pack: pack))
        try voice.append(.started(id: "g2", created: Date(), timeZone: "UTC", language: "en"))
        let outcome = await Exchange(rules: Rules(pack: pack), speaker: voice, answers: voice, questions: rules,
                                     layouts: rules, journal: voice).run()
        #expect(outcome.conversation.answers == ["A tool library for the building.", "People buy drills they use once.", "That's all for now."])
        #expect(voice.stopped.count == 1)
        // The stopped question is the one the second answer answers, and it is journaled as asked.
        let stopped = try #require(voice.stopped.first)
        #expect(outcome.conversation.turns.count == 3)
        #expect(SpokenPrompt.question(outcome.conversation.turns[1].question) == stopped)
        let replay = try JournalReplay(Journal.read(voice.journalText).events)
        #expect(replay.conversation.answers == outcome.conversation.answers)
    }
}
