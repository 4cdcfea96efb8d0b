import Dialogue
import DialogueCore
import Foundation
import Testing
@testable import VoiceSession

/// The front matter's `ended` says what happened: a completion ("that's all", falling silent, an
/// empty typed line, a closing choice) is never recorded as a break-off (a key, Ctrl-C, a
/// failure, "let's stop here, I have to go"), and each kind has its own value.
@Suite struct EndedTests {
    static let first = "A tool library for my street. People could borrow a drill for a day."

    /// A model that picks `choice`, or with none the first question it may ask, then a finish.
    struct Chooses: QuestionDeciding {
        let rules: Rules
        let choice: QuestionChoice?
        func nextQuestion(after conversation: Conversation) async -> Decision {
            let allowed = rules.allowedChoices(conversation).choices
            return rules.apply(modelSuggestion: choice ?? allowed.first { !$0.isFinal } ?? .ready, to: conversation)
        }
    }

    /// The model's choice for `ended`: none (the rules alone), or what `Chooses` picks.
    enum Model { case none, chooses(QuestionChoice?) }

    /// Answers the opening, then fails (the microphone died) or is stopped by Ctrl-C (which
    /// cancels the exchange's task).
    struct Stops: AnswerSource {
        struct MicrophoneDied: Error {}
        let byCtrlC: Bool
        let answered = Log()
        func answer(to question: TurnQuestion) async throws -> AnswerOutcome {
            if answered.withLock({ log in defer { log.append("x") }; return log.isEmpty }) { return .answer(EndedTests.first) }
            guard byCtrlC else { throw MicrophoneDied() }
            withUnsafeCurrentTask { $0?.cancel() }
            throw CancellationError()
        }
    }

    /// The exchange's outcome and the `ended` its note gets.
    func ended(_ answers: any AnswerSource, model: Model = .none) async throws -> (String, Exchange.Outcome) {
        let rules = Rules(pack: try LanguagePackLoader().load("en"))
        let rulesOnly = RulesOnlyDecider(rules: rules)
        let questions: any QuestionDeciding = switch model {
        case .none: rulesOnly
        case .chooses(let choice): Chooses(rules: rules, choice: choice)
        }
        let exchange = Exchange(rules: rules, speaker: SilentSpeaker(), answers: answers, questions: questions, layouts: rulesOnly,
                                journal: NoJournal())
        // In a task of its own, as in a session: Ctrl-C cancels that task, not the test's.
        let outcome = await Task { await exchange.run() }.value
        return (ExchangeSession.ending(of: outcome, rules: rules), outcome)
    }

    func scripted(_ replies: AnswerOutcome...) -> ScriptedAnswers { ScriptedAnswers([.answer(Self.first)] + replies) }

    @Test func completionsAreRecordedAsCompletions() async throws {
        let talk = (0..<8).map { AnswerOutcome.answer("Answer number \($0) about the idea.") }
        let completions: [(String, any AnswerSource, Model, String)] = [
            ("that's all", scripted(.answer("That's all.")), .none, "userEnded"),
            ("that about covers it for now", scripted(.answer("Right, that about covers it for now.")), .none, "userEnded"),
            ("falling silent", scripted(.noAnswer), .none, "noAnswer"),
            ("an empty typed line", TypedAnswers(pack: try LanguagePackLoader().load("en"), display: RecordingDisplay(),
                                                 input: pipedInput(Self.first + "\n\n")), .none, "noAnswer"),
            ("the model's ready", scripted(), .chooses(.ready), "modelChoseReady"),
            ("the model's stop", scripted(), .chooses(.stop), "modelChoseStop"),
            ("the rules' ready once the note has enough", ScriptedAnswers(talk), .none, "rulesChoseReady"),
            ("six questions", ScriptedAnswers(talk), .chooses(nil), "questionLimit"),
        ]
        for (name, answers, model, expected) in completions {
            let (ended, outcome) = try await ended(answers, model: model)
            #expect(ended == expected, "\(name)")
            #expect(outcome.endReason.isNormal, "\(name) is a normal ending: the model's layout and next steps")
        }
    }

    @Test func breakOffsAreRecordedAsBreakOffs() async throws {
        let spoken = try await ended(scripted(.answer("Let's stop here, I have to go.")))
        #expect(spoken.0 == "userInterrupted", "a spoken break-off")
        let stopped: [(String, any AnswerSource, String)] = [
            ("a key", scripted(.ended(partial: nil)), "interrupted"),
            ("a key mid-answer", scripted(.ended(partial: "And also")), "interrupted"),
            ("Ctrl-C", Stops(byCtrlC: true), "interrupted"),
            ("a failure", Stops(byCtrlC: false), "failed"),
        ]
        for (name, answers, expected) in stopped {
            let (ended, outcome) = try await ended(answers)
            #expect(ended == expected, "\(name)")
            #expect(!outcome.endReason.isNormal, "\(name): the words now, one sentence per bullet")
        }
        let (refused, _) = try await ended(scripted(.answer("Don't record any of this.")))
        #expect(refused == "refused")
    }
}
