import DialogueCore
import Foundation
import Testing
@testable import Decisions

/// The generated grammars against llama.cpp's own grammar parser and engine (no decoding:
/// walks offer tokens to the grammar sampler directly).
@Suite("Grammars (llama.cpp parser)", .serialized)
struct GrammarTests {
    /// Every subset of size 1, 2, 18, 19 and 20, plus 3,000 seeded random subsets. All 2^20
    /// subsets parse too but take minutes; the grammar's shape does not depend on which
    /// cases are in it, only on how many.
    static func choiceSubsets() -> [[QuestionChoice]] {
        let all = QuestionChoice.allCases
        var subsets: [[QuestionChoice]] = all.map { [$0] }
        for i in all.indices { for j in all.indices where j > i { subsets.append([all[i], all[j]]) } }
        for i in all.indices { subsets.append(all.enumerated().filter { $0.offset != i }.map(\.element)) }
        for i in all.indices { for j in all.indices where j > i {
            subsets.append(all.enumerated().filter { $0.offset != i && $0.offset != j }.map(\.element))
        } }
        subsets.append(all)
        var random = SplitMix64(seed: 20)
        for _ in 0..<3_000 {
            let mask = random.next() & 0xFFFFF
            let subset = all.enumerated().filter { mask & (1 << UInt64($0.offset)) != 0 }.map(\.element)
            if !subset.isEmpty { subsets.append(subset) }
        }
        return subsets
    }

    @Test func questionGrammarParsesForEverySampledSubsetAndOffersExactlyIt() async throws {
        let model = try DecisionFixtures.model()
        for style in LabelStyle.allCases {
            for subset in Self.choiceSubsets() {
                let grammar = QuestionGrammar.gbnf(for: subset, style: style)
                #expect(await model.grammarParses(grammar), "does not parse: \(grammar)")
                // The alternatives are exactly the subset's labels, in contract order.
                let body = grammar.dropFirst("root ::= ".count).trimmingCharacters(in: .newlines)
                let alternatives = body.components(separatedBy: " | ").map { String($0.dropFirst().dropLast()) }
                #expect(alternatives == subset.map { ChoiceLabels.label($0, style: style) })
            }
        }
    }

    @Test(arguments: LabelStyle.allCases)
    func questionGrammarAcceptsAllowedLabelsAndRejectsOthers(style: LabelStyle) async throws {
        let model = try DecisionFixtures.model()
        var random = SplitMix64(seed: 7)
        for _ in 0..<40 {
            let subset = QuestionChoice.allCases.filter { _ in random.next() % 2 == 0 }
            guard !subset.isEmpty else { continue }
            let grammar = QuestionGrammar.gbnf(for: subset, style: style)
            for choice in QuestionChoice.allCases {
                let accepted = try await model.grammarAccepts(grammar, text: ChoiceLabels.label(choice, style: style))
                #expect(accepted == subset.contains(choice), "\(choice) in \(subset)")
            }
        }
    }

    @Test func labelsAreDistinctAndMapBack() {
        for style in LabelStyle.allCases {
            let labels = QuestionChoice.allCases.map { ChoiceLabels.label($0, style: style) }
            #expect(Set(labels).count == labels.count)
            for choice in QuestionChoice.allCases {
                #expect(ChoiceLabels.choice(forLabel: ChoiceLabels.label(choice, style: style), style: style) == choice)
            }
        }
    }

    @Test func layoutGrammarParsesForEveryCountUpTo48AndBeyond() async throws {
        let model = try DecisionFixtures.model()
        for n in Array(1...48) + [49, 60, 97, 150] {
            #expect(await model.grammarParses(LayoutGrammar.gbnf(sourceCount: n)), "N = \(n)")
        }
    }

    @Test func layoutGrammarAdmitsTheCanonicalLayouts() async throws {
        let model = try DecisionFixtures.model()
        for n in 1...48 {
            let grammar = LayoutGrammar.gbnf(sourceCount: n)
            #expect(try await model.grammarAccepts(grammar, text: Layout.fallback(sourceCount: n).json), "N = \(n)")
            let one = Layout(firstSourceIsTitle: false, groups: [Array(1...n)])
            #expect(try await model.grammarAccepts(grammar, text: one.json), "N = \(n)")
            if n >= 2 {
                let titled = Layout(firstSourceIsTitle: true, groups: [[1], Array(2...n)])
                #expect(try await model.grammarAccepts(grammar, text: titled.json), "N = \(n)")
            }
            // Invalid ones are refused: a missing ID, a repeat, a title for a lone sentence.
            if n >= 2 {
                #expect(try await !model.grammarAccepts(grammar, text: Layout(firstSourceIsTitle: false, groups: [Array(2...n)]).json))
                #expect(try await !model.grammarAccepts(grammar, text: Layout(firstSourceIsTitle: false, groups: [[1], Array(1...n)]).json))
            } else {
                #expect(try await !model.grammarAccepts(grammar, text: Layout(firstSourceIsTitle: true, groups: [[1]]).json))
            }
        }
    }

    @Test func layoutGrammarRefusesAGroupOfMoreThan48() async throws {
        let model = try DecisionFixtures.model()
        let grammar = LayoutGrammar.gbnf(sourceCount: 50)
        #expect(try await !model.grammarAccepts(grammar, text: Layout(firstSourceIsTitle: false, groups: [Array(1...50)]).json))
        #expect(try await model.grammarAccepts(grammar, text: Layout(firstSourceIsTitle: false, groups: [Array(1...48), [49, 50]]).json))
    }

    /// Random walks through llama.cpp's grammar engine: whatever the grammar lets through
    /// must parse as a valid layout. One walk for every N in 1…48 plus a counted grammar
    /// (N = 50); the benchmark (`probe walks`) does 20 per N.
    @Test func everyWalkThroughTheLayoutGrammarIsAValidLayout() async throws {
        let model = try DecisionFixtures.model()
        let pool = await model.grammarWalkPool()
        for n in Array(1...48) + [50] {
            let grammar = LayoutGrammar.gbnf(sourceCount: n)
            for seed in 0..<1 {
                let text = try await model.walkGrammar(grammar, seed: UInt64(n * 100 + seed), pool: pool)
                let layout = try #require(Layout.parse(text), "N = \(n): \(text)")
                #expect(layout.isValid(sourceCount: n), "N = \(n): \(text)")
            }
        }
    }
}
