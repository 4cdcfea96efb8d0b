import Foundation
import Testing
@testable import DialogueCore

/// The public labelled scenarios (`shared/eval`), run through the rules and the splitter.
@Suite struct ScenarioTests {
    @Test func everyMustEndCaseEndsAndNoOtherDoes() throws {
        let scenarios = try Fixtures.choiceScenarios()
        #expect(scenarios.count >= 60)
        for scenario in scenarios {
            let rules = try Fixtures.rules(scenario.language)
            let options = rules.allowedChoices(scenario.conversation)
            if scenario.mustEnd {
                #expect(options.finishOnly, "\(scenario.id) must end")
                #expect(scenario.acceptable.contains(rules.fallbackChoice(scenario.conversation)), "\(scenario.id)")
                for suggestion in QuestionChoice.allCases {
                    #expect(scenario.acceptable.contains(rules.apply(modelSuggestion: suggestion, to: scenario.conversation).choice),
                            "\(scenario.id): \(suggestion) must become an acceptable finish")
                }
            } else {
                #expect(rules.endSignal(of: scenario.conversation) == nil, "\(scenario.id) is not an ending")
            }
        }
    }

    @Test func allowedChoicesNeverViolateGating() throws {
        for scenario in try Fixtures.choiceScenarios() {
            let rules = try Fixtures.rules(scenario.language)
            let options = rules.allowedChoices(scenario.conversation)
            let asked = Set(scenario.conversation.askedChoices)
            if options.contains(.audience) {
                #expect(scenario.kind == "product", "\(scenario.id): audience allowed for a \(scenario.kind) note")
            }
            let meetingEvidence = scenario.kind == "meeting"
                || !Set(scenario.acceptable).union(asked).isDisjoint(with: [.decision, .meetingFocus])
            if options.contains(.decision) || options.contains(.meetingFocus) {
                #expect(meetingEvidence, "\(scenario.id): decision/meetingFocus allowed without a meeting")
            }
            for choice in asked { #expect(!options.contains(choice), "\(scenario.id): \(choice) allowed twice") }
        }
    }

    @Test func theGrammarCanAlwaysOfferAnAcceptableChoice() throws {
        for scenario in try Fixtures.choiceScenarios() {
            let options = try Fixtures.rules(scenario.language).allowedChoices(scenario.conversation)
            #expect(scenario.acceptable.contains(where: options.contains), "\(scenario.id): nothing acceptable is allowed")
        }
    }

    /// The floor without a model. Printed for the report; the threshold only catches regressions.
    @Test func fallbackOnlyAcceptableRate() throws {
        let scenarios = try Fixtures.choiceScenarios()
        let packs = try LanguagePackLoader.supportedLanguages.map(Fixtures.pack)
        let report = FallbackEvaluation.evaluate(scenarios, packs: packs)
        print(report.summary)
        for miss in report.misses {
            print("  fallback miss \(miss.id): chose \(miss.chosen.rawValue), acceptable \(miss.acceptable.map(\.rawValue))")
        }
        #expect(report.overall.total == scenarios.count)
        #expect(report.overall.rate >= 0.75, "\(report.summary)")
        for rate in report.perLanguage { #expect(rate.rate >= 0.6, "\(rate.language): \(report.summary)") }
    }

    @Test func scenarioTurnsRoundTripThroughConversationJSON() throws {
        for scenario in try Fixtures.choiceScenarios() {
            let json = ConversationJSON.encode(scenario.conversation)
            #expect(try ConversationJSON.decode(json) == scenario.conversation, "\(scenario.id)")
        }
    }

    // MARK: Grouping scenarios

    struct GroupingCase: Decodable {
        let id: String
        let language: String
        let answers: [String]
        let paragraphs: [[String]]
        let titleFromFirstSentence: Bool
    }

    struct GroupingSet: Decodable { let cases: [GroupingCase] }

    static func groupingCases() throws -> [GroupingCase] {
        try JSONDecoder().decode(GroupingSet.self, from: Data(contentsOf: Fixtures.evalFile("grouping-scenarios.json"))).cases
    }

    @Test func icuSplitsTheGroupingAnswersAsLabelled() throws {
        for scenario in try Self.groupingCases() {
            let sources = SentenceSplitter.sources(from: scenario.answers, language: scenario.language)
            #expect(sources.map(\.text) == scenario.paragraphs.flatMap { $0 }, "\(scenario.id)")
            #expect(sources.map(\.id) == Array(1...sources.count))
        }
    }

    @Test func titleRuleAgreesWithTheLabels() throws {
        for scenario in try Self.groupingCases() {
            let pack = try Fixtures.pack(scenario.language)
            let sources = SentenceSplitter.sources(from: scenario.answers, language: scenario.language)
            // Even when the model claims a title, our rule decides on shortness and filler.
            let claimed = Layout(firstSourceIsTitle: true, groups: [Array(1...sources.count)])
            let accepted = NoteTitle.firstSentenceIsTitle(sources, layout: claimed, book: PhraseBook(pack.phrases))
            #expect(accepted == scenario.titleFromFirstSentence, "\(scenario.id): \(sources.first?.text ?? "")")
        }
    }

    @Test func labelledLayoutsRenderAsTheLabelledParagraphs() throws {
        for scenario in try Self.groupingCases() {
            let pack = try Fixtures.pack(scenario.language)
            let sources = SentenceSplitter.sources(from: scenario.answers, language: scenario.language)
            var next = 1
            let groups = scenario.paragraphs.map { paragraph in
                defer { next += paragraph.count }
                return Array(next..<(next + paragraph.count))
            }
            let layout = Layout(firstSourceIsTitle: scenario.titleFromFirstSentence, groups: groups)
            #expect(layout.isValid(sourceCount: sources.count))
            let metadata = NoteMetadata(id: scenario.id, created: Date(timeIntervalSince1970: 0), timeZone: TimeZone(secondsFromGMT: 0)!,
                                        language: scenario.language, questions: [], layoutSource: .model)
            let note = try ReadNote(NoteRenderer(pack: pack).render(sources: sources, layout: layout, metadata: metadata))
            var paragraphs = scenario.paragraphs
            if scenario.titleFromFirstSentence {
                #expect(note.title == paragraphs.removeFirst().joined(), "\(scenario.id)")
            }
            #expect(note.blocks.count == paragraphs.count, "\(scenario.id)")
            for (block, paragraph) in zip(note.blocks, paragraphs) {
                #expect(block.count == 1)
                #expect(withoutWhitespace(MarkdownEscaping.unescape(block[0])) == withoutWhitespace(paragraph.joined()), "\(scenario.id)")
            }
        }
    }
}
