import DialogueCore
import Foundation
import Synchronization
import Testing
@testable import Dialogue

/// A final pass whose text is set by the test (or never comes, until cancelled).
final class ScriptedPass: FinalPassing, @unchecked Sendable {
    private let lock = NSLock()
    private var result: String??
    private var waiters: [CheckedContinuation<String?, Never>] = []
    private(set) var cancelled = false

    init(_ text: String?? = .none) { result = text }

    func finish(_ text: String?) {
        let waiting = lock.withLock { () -> [CheckedContinuation<String?, Never>] in
            guard result == nil else { return [] }
            result = .some(text)
            defer { waiters = [] }
            return waiters
        }
        waiting.forEach { $0.resume(returning: text) }
    }

    func text() async -> String? {
        await withCheckedContinuation { continuation in
            let now = lock.withLock { () -> String?? in
                if let result { return .some(result) }
                waiters.append(continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }
    var isDone: Bool { lock.withLock { result != nil } }
    func cancel() {
        lock.withLock { cancelled = true }
        finish(nil)
    }
}

/// Scripted answers, each with the final pass the test gives it.
final class FinalScript: FinalTranscribing, @unchecked Sendable {
    let script: Script
    private let lock = NSLock()
    private var passes: [ScriptedPass?]
    private var latest: ScriptedPass?

    init(_ replies: [(AnswerOutcome, ScriptedPass?)]) {
        script = Script(replies.map(\.0))
        passes = replies.map(\.1)
    }

    func answer(to question: TurnQuestion) async throws -> AnswerOutcome {
        let reply = try await script.answer(to: question)
        lock.withLock { latest = passes.isEmpty ? nil : passes.removeFirst() }
        return reply
    }
    func finalPassOfLatestAnswer() -> (any FinalPassing)? { lock.withLock { latest } }
}

@Suite("Final transcripts: the note holds each answer's final pass, the journal keeps it")
struct FinalTranscriptTests {
    func exchange(_ answers: FinalScript) throws -> Exchange {
        let pack = try LanguagePackLoader().load("en")
        let rules = RulesOnlyDecider(rules: Rules(pack: pack))
        return Exchange(rules: Rules(pack: pack), speaker: answers.script, answers: answers, questions: rules,
                        layouts: rules, journal: answers.script)
    }

    @Test func theNoteTakesEachFinalTextAndTheJournalRecordsIt() async throws {
        let first = ScriptedPass("A new app for plant care, it reads soil photos.")
        let second = ScriptedPass("People who forget to water their plants.")
        let answers = FinalScript([(.answer("A new app for plant cur. It reads soil fotos."), first),
                                   (.answer("People who forget to water there plants."), second),
                                   (.answer("That's all for now."), nil)])
        try answers.script.append(.started(id: "f1", created: Date(), timeZone: "UTC", language: "en"))
        let outcome = try await exchange(answers).run()
        #expect(outcome.endReason == .finished)
        #expect(outcome.conversation.answers == ["A new app for plant care, it reads soil photos.",
                                                 "People who forget to water their plants.", "That's all for now."])
        #expect(outcome.sources.map(\.text).contains("People who forget to water their plants."))
        // A kill after this point: recover rebuilds the final texts from the journal.
        let replay = try JournalReplay(Journal.read(answers.script.journalText).events)
        #expect(replay.conversation.answers == outcome.conversation.answers)
    }

    @Test func aFinalTextThatLostWordsIsNotUsed() async throws {
        let short = ScriptedPass("A new app.")
        let answers = FinalScript([(.answer("A new app for plant care. It reads soil photos and tells you when to water."), short),
                                   (.answer("That's all."), nil)])
        let outcome = try await exchange(answers).run()
        #expect(outcome.conversation.answers.first == "A new app for plant care. It reads soil photos and tells you when to water.")
        #expect(!FinalTranscripts.keepsWords(of: "one two three four", in: ""))
        #expect(FinalTranscripts.keepsWords(of: "one two three four", in: "one, two, three and four"))
    }

    @Test func aNormalEndingWaitsForThePassesAndReportsProgress() async throws {
        let slow = ScriptedPass()
        let answers = FinalScript([(.answer("We could share tools between neighbours."), slow), (.answer("That's all."), nil)])
        let progress = Mutex<[String]>([])
        let pack = try LanguagePackLoader().load("en")
        let rules = RulesOnlyDecider(rules: Rules(pack: pack))
        let exchange = Exchange(rules: Rules(pack: pack), speaker: answers.script, answers: answers, questions: rules,
                                layouts: rules, journal: answers.script) { event in
            if case .finishingTranscript(let done, let total) = event {
                progress.withLock { $0.append("\(done)/\(total)") }
                if done == 0 { slow.finish("We could share tools between neighbors.") }
            }
        }
        let outcome = await exchange.run()
        #expect(outcome.conversation.answers.first == "We could share tools between neighbors.")
        #expect(progress.withLock { $0 } == ["0/1", "1/1"])
    }

    /// The last answer only ends the exchange ("That's all for now."): none of it goes in the
    /// note, so its pass is not waited for (the person would wait for nothing).
    @Test(.timeLimit(.minutes(1))) func anAnswerWithNothingForTheNoteIsNotWaitedFor() async throws {
        let first = ScriptedPass("We could share tools between neighbors.")
        let ending = ScriptedPass()
        let answers = FinalScript([(.answer("We could share tools between neighbours."), first),
                                   (.answer("That's all for now."), ending)])
        let outcome = try await exchange(answers).run()
        #expect(ending.cancelled, "the ending's pass was waited for")
        #expect(outcome.conversation.answers == ["We could share tools between neighbors.", "That's all for now."])
    }

    /// The ending's pass is done already and words the ending otherwise (the voices bench, fr:
    /// "Voilà, c'est tout." read again as "Voilà, pétou."): the answer keeps its live text, so the
    /// ending stays out of the note's body.
    @Test func anEndingReadOtherwiseByItsFinalPassStaysAnEnding() async throws {
        let answers = FinalScript([(.answer("We could share tools between neighbours."), ScriptedPass("We could share tools between neighbors.")),
                                   (.answer("That's all for now."), ScriptedPass("That's Paul for now."))])
        let outcome = try await exchange(answers).run()
        #expect(outcome.conversation.answers == ["We could share tools between neighbors.", "That's all for now."])
        #expect(!outcome.sources.contains { $0.text.contains("Paul") }, "\(outcome.sources)")
    }

    @Test func aKeyGivesTheWordsAtOnceWithWhatIsDone() async throws {
        let done = ScriptedPass("First answer, final.")
        let pending = ScriptedPass()
        let answers = FinalScript([(.answer("First answer, live."), done), (.answer("Second answer, live."), pending),
                                   (.ended(partial: nil), nil)])
        let outcome = try await exchange(answers).run()
        #expect(outcome.endReason == .interrupted)
        #expect(outcome.conversation.answers == ["First answer, final.", "Second answer, live."])
        #expect(pending.cancelled)
    }

    @Test func aRefusalStopsThePassesAndJournalsNoFinalText() async throws {
        let pass = ScriptedPass()
        let answers = FinalScript([(.answer("My secret plan is a bakery."), pass),
                                   (.answer("Please don't record any of this."), nil)])
        let outcome = try await exchange(answers).run()
        #expect(outcome.refusal == .everything)
        pass.finish("My secret plan is a bakery, final.")
        try await Task.sleep(for: .milliseconds(50))
        #expect(!answers.script.journalText.contains("bakery"))
        #expect(pass.cancelled)
    }

    @Test func theReplayTakesAFinalTextOnlyForTheAnswerItWasMadeFor() throws {
        let events: [JournalEvent] = [
            .started(id: "r1", created: Date(), timeZone: "UTC", language: "en"),
            .asked(.opening), .answered("Live one."),
            .asked(.choice(.moreDetails)), .answered("Live two."),
            .continued("Live two, and more."),
            .final(turn: 1, live: "Live two.", text: "Stale final two."),   // made for the answer before it went on
            .final(turn: 0, live: "Live one.", text: "Final one."),
            .final(turn: 7, live: "Nothing.", text: "No such turn."),
        ]
        let replay = try JournalReplay(events)
        #expect(replay.conversation.answers == ["Final one.", "Live two, and more."])
        let line = Journal.line(.final(turn: 1, live: "a", text: "b"))
        #expect(line == #"{"event":"final","live":"a","text":"b","turn":1}"# + "\n")
    }
}
