@testable import DialogueCore
import Evaluation
import Foundation
import Testing

/// The decision sets kept beside the rules' own scenarios: batches m, o and v (extra training
/// data for the ending probe) and blind batches n, p, q, r, s, t, u, w and x (each written blind and
/// measured before anything was tuned on it; n to t are training data since). None is run through
/// the rules here, on purpose; they only have to keep the labelling conventions, so a slip in a
/// label cannot train the probe wrong or score it wrong.
@Suite struct SideScenarioSetTests {
    static let endings: Set = ["refusal", "indirectEnding", "explicitEnding"]
    static let goingOn: Set = ["endingWordAsContent", "injection", "hesitant", "meetingInPassing", "rambling"]

    /// Each side set and its cases per language.
    static let sets = [
        ("batch-m.json", 20), ("batch-o.json", 30), ("blind-batch-n.json", 16), ("blind-batch-p.json", 16), ("blind-batch-q.json", 16),
        ("blind-batch-r.json", 16), ("blind-batch-s.json", 16), ("blind-batch-t.json", 16), ("blind-batch-u.json", 16),
        ("batch-v.json", 30), ("blind-batch-w.json", 16), ("blind-batch-x.json", 16),
    ]

    @Test(arguments: sets)
    func keepsTheConventions(file: String, perLanguage: Int) throws {
        let scenarios = try ChoiceScenarioSet.load(from: Fixtures.fixture(file)).cases
        #expect(Set(scenarios.map(\.id)).count == scenarios.count, "\(file): case IDs are unique")
        for language in LanguagePackLoader.supportedLanguages {
            let cases = scenarios.filter { $0.language == language }
            #expect(cases.count == perLanguage, "\(file) \(language)")
            let categories = Set(cases.compactMap(\.category))
            #expect(categories == Self.endings.union(Self.goingOn), "\(file) \(language): \(categories)")
        }
        for scenario in scenarios {
            #expect(scenario.split == "dev", "\(scenario.id)")
            let category = scenario.category ?? "none"
            #expect(Self.endings.union(Self.goingOn).contains(category), "\(scenario.id)")
            #expect(scenario.mustEnd == Self.endings.contains(category), "\(scenario.id)")
            #expect(scenario.mustEnd == scenario.acceptable.contains(.stop), "\(scenario.id): stop only for an ending")
            if scenario.mustEnd {
                #expect(scenario.acceptable.allSatisfy { $0.isFinal }, "\(scenario.id)")
            } else {
                // After enough questions the note may close: `ready` is the program's own wind-down
                // (as in the rules' set), so it is acceptable there and nowhere else.
                let windsDown = scenario.conversation.questionCount >= Rules.enoughQuestions
                #expect(scenario.acceptable.contains { !$0.isFinal }, "\(scenario.id)")
                #expect(scenario.acceptable.filter(\.isFinal) == (windsDown ? [.ready] : []), "\(scenario.id)")
            }
            #expect(Set(scenario.acceptable).isDisjoint(with: scenario.conversation.askedChoices), "\(scenario.id): an asked case is acceptable")
            #expect(!scenario.acceptable.contains(.audience) || scenario.kind == "product", "\(scenario.id)")
            #expect((1...6).contains(scenario.turns.count) && scenario.turns.first?.question == .opening, "\(scenario.id)")
        }
    }

    /// Kept apart from the rules' scenarios: no shared case, and no labelled (last) answer copied
    /// from them (a first answer like "I want to learn Spanish." may well recur).
    @Test func sharesNoCaseWithTheRulesScenarios() throws {
        let own = try Fixtures.choiceScenarios()
        let ownAnswers = Set(own.compactMap(\.turns.last?.answer))
        for (file, _) in Self.sets {
            let side = try ChoiceScenarioSet.load(from: Fixtures.fixture(file)).cases
            #expect(Set(side.map(\.id)).isDisjoint(with: own.map(\.id)), "\(file)")
            let copied = side.filter { ownAnswers.contains($0.turns.last?.answer ?? "") }.map(\.id)
            #expect(copied.isEmpty, "\(file): \(copied) copy a labelled answer of choice-scenarios.json")
        }
    }

    /// Blind batch y (issue 43), written before that issue changed any rule and never tuned on:
    /// all test, 20 cases a language, in its own categories; a break-off may be `ready` or `stop`.
    @Test func blindBatchYKeepsItsConventions() throws {
        let scenarios = try ChoiceScenarioSet.load(from: Fixtures.fixture("blind-batch-y.json")).cases
        let endings: Set = ["refusal", "ownWordsEnding", "shortDone"]
        let goingOn: Set = ["falseRefusal", "endingWordAsContent", "hesitantApology"]
        #expect(Set(scenarios.map(\.id)).count == scenarios.count)
        for language in LanguagePackLoader.supportedLanguages {
            #expect(scenarios.filter { $0.language == language }.count == 20, "\(language)")
        }
        for scenario in scenarios {
            let category = scenario.category ?? "none"
            #expect(scenario.split == "test" && endings.union(goingOn).contains(category), "\(scenario.id)")
            #expect(scenario.mustEnd == endings.contains(category), "\(scenario.id)")
            #expect(scenario.mustEnd ? scenario.acceptable.allSatisfy(\.isFinal) : !scenario.acceptable.contains { $0.isFinal },
                    "\(scenario.id)")
            #expect(category != "refusal" || scenario.acceptable == [.stop], "\(scenario.id)")
            #expect(scenario.turns.first?.question == .opening, "\(scenario.id)")
        }
    }

    /// The blind batches written for issue 43, each before the rules changed for it and never
    /// tuned on: all test, 20 cases a language; a final category's cases accept exactly its
    /// finals, the others go on. z: the four phrasing families (pretending nothing was said is a
    /// refusal, a wrap-up a completion). aa, ab and ac: endings (ready or stop), break-offs and
    /// refusals, against ending words as content, hesitant and plain answers.
    @Test(arguments: [
        ("blind-batch-z.json", ["refusal": [QuestionChoice.stop], "wrapUp": [.ready]],
         ["storageRequirement", "allWeHave", "trap"]),
        ("blind-batch-aa.json", ["ending": [.ready, .stop], "breakOff": [.stop], "refusal": [.stop]],
         ["endingWordsAsContent", "hesitant", "plain"]),
        ("blind-batch-ab.json", ["ending": [.ready, .stop], "breakOff": [.stop], "refusal": [.stop]],
         ["endingWordsAsContent", "hesitant", "plain"]),
        ("blind-batch-ac.json", ["ending": [.ready, .stop], "breakOff": [.stop], "refusal": [.stop]],
         ["endingWordsAsContent", "hesitant", "plain"]),
    ] as [(String, [String: Set<QuestionChoice>], Set<String>)])
    func blindBatchKeepsItsConventions(file: String, finals: [String: Set<QuestionChoice>], goingOn: Set<String>) throws {
        let scenarios = try ChoiceScenarioSet.load(from: Fixtures.fixture(file)).cases
        #expect(Set(scenarios.map(\.id)).count == scenarios.count)
        for language in LanguagePackLoader.supportedLanguages {
            #expect(scenarios.filter { $0.language == language }.count == 20, "\(language)")
        }
        for scenario in scenarios {
            let category = scenario.category ?? "none"
            #expect(scenario.split == "test" && (finals[category] != nil || goingOn.contains(category)), "\(scenario.id)")
            #expect(scenario.mustEnd == (finals[category] != nil), "\(scenario.id)")
            #expect(finals[category].map { Set(scenario.acceptable) == $0 } ?? !scenario.acceptable.contains { $0.isFinal }, "\(scenario.id)")
            #expect(Set(scenario.acceptable).isDisjoint(with: scenario.conversation.askedChoices), "\(scenario.id)")
            #expect(!scenario.acceptable.contains(.audience) || scenario.kind == "product", "\(scenario.id)")
            #expect(scenario.turns.first?.question == .opening, "\(scenario.id)")
        }
    }
}
