import DialogueCore
import Foundation
import Testing
@testable import Dialogue

/// A refusal in the person's words, in every language: the exchange stops at once, the
/// refusing answer is in no journal line and not in the note, and "none of this" drops all.
@Suite("Refusals (test doubles, rules-only decisions)")
struct RefusalTests {
    static let cases: [(language: Language, first: String, refusal: String, everything: String)] = [
        ("en", "A tool library for my street.", "Please don't record this.", "Don't record any of this."),
        ("es", "Una biblioteca de herramientas para mi calle.", "No grabes esto, por favor.", "No grabes nada de esto."),
        ("fr", "Une bibliothèque d'outils pour ma rue.", "N'enregistre pas ça.", "N'enregistre rien de tout ça."),
        ("de", "Eine Werkzeugbibliothek für meine Straße.", "Nimm das nicht auf.", "Nimm das nicht auf, nichts davon."),
        ("ja", "近所で道具を貸し借りするアプリです。", "これは記録しないでください。", "全部記録しないでください。"),
    ]

    func run(_ language: Language, _ answers: [String]) async throws -> (Exchange.Outcome, Script) {
        let pack = try LanguagePackLoader().load(language)
        let rules = Rules(pack: pack)
        let decider = RulesOnlyDecider(rules: rules)
        let script = Script(answers.map(AnswerOutcome.answer))
        try script.append(.started(id: "r", created: Date(), timeZone: "UTC", language: language))
        let exchange = Exchange(rules: rules, speaker: script, answers: script, questions: decider, layouts: decider, journal: script)
        return (await exchange.run(), script)
    }

    @Test(arguments: 0..<5)
    func aRefusalDropsItsAnswerAndTheJournal(index: Int) async throws {
        let (language, first, refusal, _) = Self.cases[index]
        let (outcome, script) = try await run(language, [first, refusal, "Never asked."])
        #expect(outcome.endReason == .refused, "\(language)")
        #expect(outcome.refusal == .answer)
        #expect(outcome.conversation.answers == [first], "\(language): only what came before is left")
        #expect(script.journalText.isEmpty, "\(language): the journal is deleted")
        #expect(!outcome.sources.map(\.text).joined().contains(refusal))
        #expect(script.said.last == .closing(.stop))
        // Held in memory only, for a person at the terminal to take the refusal back.
        #expect(outcome.asSaid?.answers == [first, refusal], "\(language)")
        let takenBack = try #require(outcome.takingBackTheRefusal(rules: Rules(pack: LanguagePackLoader().load(language))))
        #expect(takenBack.conversation.answers == [first, refusal] && takenBack.refusal == nil && takenBack.endReason == .refused)
        #expect(takenBack.sources.map(\.text).joined(separator: " ").contains(refusal), "\(language): the refusing words come back too")
        #expect(script.journalText.isEmpty, "taking it back is the session's to journal, not the exchange's")
    }

    @Test(arguments: 0..<5)
    func aRefusalOfEverythingKeepsNothing(index: Int) async throws {
        let (language, first, _, everything) = Self.cases[index]
        let (outcome, script) = try await run(language, [first, everything])
        #expect(outcome.refusal == .everything, "\(language)")
        #expect(outcome.conversation.answers.isEmpty)
        #expect(outcome.sources.isEmpty)
        #expect(script.journalText.isEmpty)
        #expect(outcome.asSaid?.answers == [first, everything], "\(language)")
        let rules = Rules(pack: try LanguagePackLoader().load(language))
        #expect(outcome.takingBackTheRefusal(rules: rules)?.sources.first?.text == first)
    }

    @Test func nothingRefusedHasNothingToTakeBack() async throws {
        let (outcome, _) = try await run("en", ["A tool library for my street.", "That's all."])
        #expect(outcome.refusal == nil && outcome.asSaid == nil)
        #expect(outcome.takingBackTheRefusal(rules: Rules(pack: try LanguagePackLoader().load("en"))) == nil)
    }

    /// Words heard before a key that refuse are held back the same way.
    @Test func aRefusalCutShortByAKeyIsHeldBackToo() async throws {
        let rules = Rules(pack: try LanguagePackLoader().load("en"))
        let script = Script([.answer("A tool library for my street."), .ended(partial: "Don't record any of this")])
        let exchange = Exchange(rules: rules, speaker: script, answers: script, questions: RulesOnlyDecider(rules: rules),
                                layouts: RulesOnlyDecider(rules: rules), journal: script)
        let outcome = await exchange.run()
        #expect(outcome.refusal == .everything && outcome.conversation.answers.isEmpty)
        #expect(outcome.asSaid?.answers == ["A tool library for my street.", "Don't record any of this"])
    }

    @Test(arguments: [("en", "It's for my neighbours. That's all, thanks."), ("es", "Es para mis vecinos. Eso es todo."),
                      ("fr", "C'est pour mes voisins. C'est tout."), ("de", "Es ist für meine Nachbarn. Das ist alles."),
                      ("ja", "近所の人のためです。以上です。")])
    func anEndingPhraseIsNotANoteSentenceButWhatCameBeforeIs(language: Language, answer: String) async throws {
        let (outcome, script) = try await run(language, [Self.cases.first { $0.language == language }!.first, answer])
        #expect(outcome.endReason == .finished)
        #expect(outcome.sources.count == 2, "\(language): \(outcome.sources.map(\.text))")
        #expect(outcome.sources.last.map { answer.hasPrefix($0.text) } == true)
        #expect(script.journalText.contains(answer.replacingOccurrences(of: "'", with: "'")), "the journal keeps the whole answer")
    }

    /// "Any of it", however it is said, covers everything said so far.
    @Test(arguments: [("en", "I don't want any of it saved."), ("en", "Please don't keep anything I said."),
                      ("es", "No quiero que se guarde nada de lo que dije."), ("es", "No guardes nada, por favor."),
                      ("fr", "Je ne veux pas que quoi que ce soit soit enregistré."), ("fr", "N'enregistre rien du tout."),
                      ("de", "Ich will nicht, dass irgendetwas davon gespeichert wird."), ("de", "Speicher bloß nichts davon."),
                      ("de", "Ich will nicht, dass irgendwas hiervon aufgenommen wird."),
                      ("ja", "何も残さないでください。"), ("ja", "今まで話したことは全部消してください。")])
    func anyOfItInOwnWordsCoversEverything(language: Language, refusal: String) async throws {
        let first = Self.cases.first { $0.language == language }!.first
        let (outcome, _) = try await run(language, [first, refusal])
        #expect(outcome.endReason == .refused, "\(language): \(refusal)")
        #expect(outcome.refusal == .everything, "\(language): \(refusal)")
        #expect(outcome.sources.isEmpty)
    }

    /// Reads a refusal in the second answer, as the model's ending probe does when no phrase
    /// list has the words.
    struct ReadsARefusal: QuestionDeciding {
        let rules: Rules
        func nextQuestion(after conversation: Conversation) async -> Decision {
            conversation.turns.count == 2 ? Decision(choice: .stop, source: .model, suggestion: .stop, refusal: .answer)
                : rules.apply(modelSuggestion: nil, to: conversation)
        }
    }

    @Test func aRefusalTheModelReadsDropsItsAnswerAndTheJournalToo() async throws {
        let rules = Rules(pack: try LanguagePackLoader().load("en"))
        let own = "Honestly, I would rather that last bit stayed between us and the wall."
        let script = Script([.answer("A tool library for my street."), .answer(own), .answer("Never asked.")])
        try script.append(.started(id: "r", created: Date(), timeZone: "UTC", language: "en"))
        #expect(rules.refusal(in: own, answering: .opening) == nil, "the rules must miss it for this test to mean anything")
        let exchange = Exchange(rules: rules, speaker: script, answers: script, questions: ReadsARefusal(rules: rules),
                                layouts: RulesOnlyDecider(rules: rules), journal: script)
        let outcome = await exchange.run()
        #expect(outcome.endReason == .refused)
        #expect(outcome.refusal == .answer)
        #expect(outcome.conversation.answers == ["A tool library for my street."])
        #expect(script.journalText.isEmpty, "the journal is deleted")
        #expect(script.said.last == .closing(.stop))
        #expect(outcome.decisions.allSatisfy { $0.refusal == nil }, "the refusing decision is not kept either")
        #expect(outcome.asSaid?.answers == ["A tool library for my street.", own], "the model's reading can be taken back too")
    }
}
