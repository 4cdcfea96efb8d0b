import Decisions
import DialogueCore
import Foundation

/// Random conversations for robustness runs: answers stitched from fragments in each language
/// (`Fragments`: endings, hesitations, injections, emoji and odd punctuation mixed in),
/// random cases asked, 1–7 turns. Every decision must be allowed by the rules and every
/// layout valid; a crash would end the run.
public enum DecisionFuzz {
    public struct Report: Sendable {
        public var conversations = 0
        public var modelDecisions = 0
        public var fallbacks = 0
        public var invalidChoices: [String] = []
        public var invalidLayouts: [String] = []
        public var layoutFallbacks = 0
        public var questionMilliseconds: [Int] = []
        public var layoutMilliseconds: [Int] = []
    }

    /// Answer fragments per language, from `Tests/Fixtures/fuzz-fragments.json`; a language
    /// without any uses the fallback language's.
    public struct Fragments: Sendable, Decodable {
        public let fragments: [Language: [String]]

        public static func load(from url: URL) throws -> Fragments {
            let file = try JSONDecoder().decode(Fragments.self, from: Data(contentsOf: url))
            guard file.fragments[.english]?.isEmpty == false else {
                throw SpeechSet.LoadError(description: "\(url.path): no fragments for \(Language.english), the fallback language.")
            }
            return file
        }

        func pool(_ language: Language) -> [String] {
            fragments[language].flatMap { $0.isEmpty ? nil : $0 } ?? fragments[.english] ?? []
        }

        /// The file in the source tree, for running from a checkout.
        public static let sourceTreePath = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().appendingPathComponent("../../../Tests/Fixtures/fuzz-fragments.json").standardizedFileURL.path
    }

    public static func conversation(language: Language, fragments: Fragments, random: inout SplitMix64) -> Conversation {
        let pool = fragments.pool(language)
        let cases = QuestionChoice.questions
        var turns: [Turn] = []
        let count = 1 + Int(random.next() % 7)
        for index in 0..<count {
            let parts = 1 + Int(random.next() % 4)
            let answer = (0..<parts).map { _ in pool[Int(random.next() % UInt64(pool.count))] }.joined(separator: " ")
            let question: TurnQuestion = index == 0 ? .opening : .choice(cases[Int(random.next() % UInt64(cases.count))])
            turns.append(Turn(question: question, answer: answer))
        }
        return Conversation(turns: turns)
    }

    /// `count` conversations; for each, the next question and (every third one) the layout.
    public static func run(count: Int, seed: UInt64, fragments: Fragments, service: DecisionService, rules: [Language: Rules],
                           progress: (Int) -> Void = { _ in }) async throws -> Report {
        var random = SplitMix64(seed: seed)
        var report = Report()
        let languages = LanguagePackLoader.supportedLanguages
        for index in 0..<count {
            let language = languages[Int(random.next() % UInt64(languages.count))]
            guard let languageRules = rules[language] else { continue }
            let conversation = conversation(language: language, fragments: fragments, random: &random)
            let outcome = try await service.nextQuestion(conversation, rules: languageRules)
            report.conversations += 1
            if outcome.attempts > 0 { report.questionMilliseconds.append(outcome.milliseconds) }
            switch outcome.decision.source {
            case .fallback where outcome.attempts > 0: report.fallbacks += 1
            case .model: report.modelDecisions += 1
            default: break
            }
            if !languageRules.allowedChoices(conversation).contains(outcome.decision.choice) {
                report.invalidChoices.append("\(index): \(outcome.decision.choice)")
            }
            if index % 3 == 0 {
                let sources = SentenceSplitter.sources(from: conversation.answers, language: language)
                let layout = try await service.layout(sources)
                report.layoutMilliseconds.append(layout.milliseconds)
                if layout.source == .fallback { report.layoutFallbacks += 1 }
                if !sources.isEmpty && !layout.layout.isValid(sourceCount: sources.count) {
                    report.invalidLayouts.append("\(index): \(layout.layout.json)")
                }
            }
            progress(index)
        }
        return report
    }
}

/// A small seeded generator so fuzz runs are reproducible.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
