@testable import DialogueCore
import Evaluation
import Foundation
import Testing

/// The project's own labelled scenarios (`Tests/Fixtures`), run through the rules and the splitter.
@Suite struct ScenarioTests {
    /// Cases our rules get wrong today, per assertion. Their expectations run inside
    /// `withKnownIssue`, so a listed case that starts passing fails the test as well (take it off
    /// the list), and so does any unlisted case that fails.
    enum KnownRuleGaps {
        /// issue 13: refusals and endings that the own-words detectors (negated record verbs,
        /// removal imperatives, keeping it private, leaving now + putting off, a clause or sentence
        /// that only takes leave; see `OwnWords.swift`, `LeaveTaking.swift`) still miss. All but
        /// four in the test split: the detectors were designed on the dev split only.
        /// de-indirectEnding-08 (dev): "I'm out of time, I have to pick up the kids" alone is also
        /// how a problem is described. de-indirectEnding-g05 (dev): "ich muss jetzt leider
        /// aufhören, …" reads like "ich muss aufhören, so viel zu essen" to a clause rule.
        /// de-refusal-g02 (dev): "das will ich nirgendwo wiederfinden": "nowhere" with an
        /// ordinary verb is as often a lost key. fr-indirectEnding-k07 (dev, blind batch k): "la
        /// sonnerie, je dois remonter en classe": going back up to one's class is one leave-taking
        /// among endless places to go back to, too narrow for a phrase. ja-refusal-l04 (dev, blind
        /// batch l): "…形に残るとまずいんで、今回のは全部忘れてください": forgetting refuses only when
        /// its sentence is nothing but the request, and this one gives its reason first.
        static let missedEndings: Set<String> = [
            "de-indirectEnding-02", "ja-refusal-04", "ja-indirectEnding-04",
            "de-indirectEnding-08", "ja-refusal-20", "ja-indirectEnding-13", "ja-indirectEnding-14",
            "ja-explicitEnding-08", "es-refusal-17", "en-refusal-12",
            "de-refusal-f03", "de-refusal-g02", "de-indirectEnding-g05", "fr-indirectEnding-k07",
            "ja-refusal-l04",
        ]
        /// issue 13: ending words used as content that the rules still take for an ending. None
        /// since the eighth batch: a record verb whose subject is someone or something else ("it
        /// shouldn't save anything", "die haben … nicht aufgenommen") is content.
        static let falseEndings: Set<String> = []
        /// issue 13: gates opened by keywords. en-refusal-12 (test): an appraisal in the past
        /// ("it went badly") still counts as a meeting ahead. en-endingWordAsContent-f01 and
        /// fr-endingWordAsContent-f02 (dev, fresh batch): a plan to launch the next project reads as
        /// a product idea ("launch", "lancer"). (en-endingWordAsContent-f02, "A timer for
        /// meetings", left once plural meetings stopped counting as one ahead.)
        /// de-refusal-g02 (dev, fifth batch, a missed refusal): "das Gespräch mit meiner Schwester",
        /// a talk already had, reads as a meeting ahead. en-injection-h09 (dev, sixth batch): "A
        /// plugin that summarises meeting notes", a product about meetings again.
        static let gating: Set<String> = [
            "en-refusal-12", "en-endingWordAsContent-f01", "fr-endingWordAsContent-f02",
            "de-refusal-g02", "en-injection-h09",
            // Seventh batch (dev): a meeting the day before a past reunion, past in the verb only.
            "ja-meetingInPassing-i10",
            // Eighth batch (dev): founding a choir ("gründen") reads as a product idea.
            "de-hesitant-j11",
            // Test split, found once it stopped being a false ending (the rules were not changed for it).
            "en-endingWordAsContent-g06",
            // Blind batch k (dev): "Après la réunion de service ce matin, une collègue m'a dit …", a
            // meeting this morning, past only in the next clause's verb.
            "fr-meetingInPassing-k15",
            // Blind batch l (dev): a plan to start something ("start a weekly board-game night",
            // "lancer un club de lecture") reads as a product idea (en-, fr-meetingInPassing-l01);
            // a meeting behind the person, past only in "del lunes", or inside a rambling story,
            // opens the meeting angles (es-meetingInPassing-l01, es-rambling-l01). In a reflection
            // it no longer does (ja-meetingInPassing-l01: the kind gates them too).
            "en-meetingInPassing-l01", "fr-meetingInPassing-l01", "es-meetingInPassing-l01",
            "es-rambling-l01",
        ]
        /// A false ending offers only finals: no acceptable question is left for the model. (A
        /// missed ending still offers `stop` and `ready`: the model sees every ending.)
        static let noAcceptableChoice = falseEndings
    }

    /// Runs `body`, expecting it to fail when `id` is a known gap.
    func check(_ id: String, knownGaps: Set<String>, _ body: () throws -> Void) rethrows {
        if knownGaps.contains(id) {
            withKnownIssue("issue 13: \(id) is a known rule gap") { try body() }
        } else {
            try body()
        }
    }

    @Test func everyMustEndCaseEndsAndNoOtherDoes() throws {
        let scenarios = try Fixtures.choiceScenarios()
        #expect(scenarios.count >= 200)
        for scenario in scenarios {
            let rules = try Fixtures.rules(scenario.language)
            let options = rules.allowedChoices(scenario.conversation)
            if scenario.mustEnd {
                check(scenario.id, knownGaps: KnownRuleGaps.missedEndings) {
                    #expect(options.finishOnly, "\(scenario.id) must end")
                    #expect(scenario.acceptable.contains(rules.fallbackChoice(scenario.conversation)), "\(scenario.id)")
                    for suggestion in QuestionChoice.allCases {
                        #expect(scenario.acceptable.contains(rules.apply(modelSuggestion: suggestion, to: scenario.conversation).choice),
                                "\(scenario.id): \(suggestion) must become an acceptable finish")
                    }
                }
            } else {
                check(scenario.id, knownGaps: KnownRuleGaps.falseEndings) {
                    #expect(rules.endSignal(of: scenario.conversation) == nil, "\(scenario.id) is not an ending")
                }
            }
        }
    }

    @Test func allowedChoicesNeverViolateGating() throws {
        for scenario in try Fixtures.choiceScenarios() {
            let rules = try Fixtures.rules(scenario.language)
            let options = rules.allowedChoices(scenario.conversation)
            let asked = Set(scenario.conversation.askedChoices)
            check(scenario.id, knownGaps: KnownRuleGaps.gating) {
                if options.contains(.audience) {
                    #expect(scenario.kind == "product", "\(scenario.id): audience allowed for a \(scenario.kind) note")
                }
                let meetingEvidence = scenario.kind == "meeting"
                    || !Set(scenario.acceptable).union(asked).isDisjoint(with: [.decision, .meetingFocus])
                if options.contains(.decision) || options.contains(.meetingFocus) {
                    #expect(meetingEvidence, "\(scenario.id): decision/meetingFocus allowed without a meeting")
                }
            }
            for choice in asked { #expect(!options.contains(choice), "\(scenario.id): \(choice) allowed twice") }
        }
    }

    @Test func theGrammarCanAlwaysOfferAnAcceptableChoice() throws {
        for scenario in try Fixtures.choiceScenarios() {
            let options = try Fixtures.rules(scenario.language).allowedChoices(scenario.conversation)
            check(scenario.id, knownGaps: KnownRuleGaps.noAcceptableChoice) {
                #expect(scenario.acceptable.contains(where: options.contains), "\(scenario.id): nothing acceptable is allowed")
            }
        }
    }

    /// The floor without a model, measured on this set (92.2 % overall, 90.8 % in the weakest
    /// language, Japanese, after issue 13's blind batch l joined the dev split; dev 92.7 %, test
    /// 90.4 %). Printed for the report, per language, split and category; the
    /// thresholds only catch regressions.
    @Test func fallbackOnlyAcceptableRate() throws {
        let scenarios = try Fixtures.choiceScenarios()
        let report = FallbackEvaluation.evaluate(scenarios, rules: Fixtures.allRules)
        print(report.summary)
        let labels = try Self.labels()
        let missed = Set(report.misses.map(\.id))
        for (name, key) in [("split", \CaseLabel.split), ("category", \CaseLabel.category)] {
            let groups = Dictionary(grouping: scenarios) { labels[$0.id]?[keyPath: key] ?? "?" }
            let rates = groups.keys.sorted().map { group in
                let cases = groups[group]!
                return "\(group) \(cases.count - cases.filter { missed.contains($0.id) }.count)/\(cases.count)"
            }
            print("fallback-only acceptable per \(name): \(rates.joined(separator: ", "))")
        }
        for miss in report.misses {
            print("  fallback miss \(miss.id): chose \(miss.chosen.rawValue), acceptable \(miss.acceptable.map(\.rawValue))")
        }
        #expect(report.overall.total == scenarios.count)
        #expect(report.overall.rate >= 0.92, "\(report.summary)")
        for rate in report.perLanguage { #expect(rate.rate >= 0.89, "\(rate.language): \(report.summary)") }
    }

    /// The fields the product's decoder does not read.
    struct CaseLabel: Decodable {
        let id: String
        let split: String
        let category: String
    }

    struct LabelSet: Decodable { let cases: [CaseLabel] }

    static func labels() throws -> [String: CaseLabel] {
        let set = try JSONDecoder().decode(LabelSet.self, from: Data(contentsOf: Fixtures.fixture("choice-scenarios.json")))
        return Dictionary(set.cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The set keeps its own promises: size, every trap in every language, both splits, and the
    /// labelling conventions of its description (so an edit that breaks them fails here).
    @Test func theChoiceSetKeepsItsConventions() throws {
        let scenarios = try Fixtures.choiceScenarios()
        let labels = try Self.labels()
        #expect(Set(scenarios.map(\.id)).count == scenarios.count, "case IDs are unique")
        let categories: Set = ["ordinary", "refusal", "indirectEnding", "explicitEnding", "endingWordAsContent",
                               "injection", "hesitant", "meetingInPassing", "rambling"]
        for language in LanguagePackLoader.supportedLanguages {
            let cases = scenarios.filter { $0.language == language }
            #expect(cases.count >= 40, "\(language)")
            for category in categories {
                let splits = Set(cases.compactMap { labels[$0.id] }.filter { $0.category == category }.map(\.split))
                #expect(splits == ["dev", "test"], "\(language) \(category): \(splits)")
            }
        }
        for scenario in scenarios {
            let label = try #require(labels[scenario.id])
            #expect(categories.contains(label.category), "\(scenario.id)")
            let asked = Set(scenario.conversation.askedChoices)
            #expect(Set(scenario.acceptable).isDisjoint(with: asked), "\(scenario.id): an asked case is acceptable")
            #expect(!scenario.acceptable.contains(.audience) || scenario.kind == "product", "\(scenario.id)")
            #expect(scenario.mustEnd == ["refusal", "indirectEnding", "explicitEnding"].contains(label.category), "\(scenario.id)")
            #expect(scenario.mustEnd == scenario.acceptable.contains(.stop), "\(scenario.id): stop only for an ending")
            if scenario.mustEnd { #expect(scenario.acceptable.allSatisfy { $0.isFinal }, "\(scenario.id)") }
            #expect((1...6).contains(scenario.turns.count) && scenario.turns.first?.question == .opening, "\(scenario.id)")
            // Japanese packs a word into one to three characters, so its rambling is shorter to count.
            let rambles = scenario.language == "ja" ? 200 : 300
            if label.category == "rambling" { #expect(scenario.turns.last!.answer.count >= rambles, "\(scenario.id)") }
        }
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
        let language: Language
        let answers: [String]
        let paragraphs: [[String]]
        let titleFromFirstSentence: Bool
    }

    struct GroupingSet: Decodable { let cases: [GroupingCase] }

    static func groupingCases() throws -> [GroupingCase] {
        let cases = try JSONDecoder().decode(GroupingSet.self, from: Data(contentsOf: Fixtures.fixture("grouping-scenarios.json"))).cases
        try #require(cases.count >= 35)
        return cases
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
            let note = try ReadNote(NoteRenderer(pack: pack).render(sources: sources, layout: layout, metadata: metadata).markdown)
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
