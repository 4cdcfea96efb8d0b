import Decisions
import DialogueCore
import Foundation
import Options
import VoiceSession

/// `dialogue-memo eval choices|grouping|fuzz|prompts|speech|turns|actions|people`: runs scenario cases through the real
/// decision path (model, rules, retry, fallback) and measures it, or prints the prompts it scores.
public enum EvalCommand {
    public static let commands = Subcommands(
        "dialogue-memo eval", usage: "dialogue-memo eval KIND … [options]",
        about: """
        Measures the model decisions on scenario files (the format of shared/eval/) or on random
        conversations.
        """,
        footer: "`dialogue-memo eval KIND --help` shows the arguments and options of each.",
        [
            Subcommand(Choices.self, "the next-question choices: acceptable rate next to the rules alone", run: choices),
            Subcommand(Grouping.self, "the note layouts: paragraph-boundary precision, recall and F1", run: grouping),
            Subcommand(Fuzz.self, "random conversations, hostile answers included: anything invalid?", run: fuzz),
            Subcommand(Prompts.self, "the prompt and the labels the product scores for each case", run: prompts),
            Subcommand(SpeechEvaluationCommand.Arguments.self, "real recordings: error rates per language next to whisper-cli", run: SpeechEvaluationCommand.run),
            Subcommand(TurnEvaluationCommand.Arguments.self, "real speech at its pauses: cut-offs and waits of every end-of-turn preset", run: TurnEvaluationCommand.run),
            Subcommand(Actions.self, "the next steps: precision and recall of model, cue rules and both", run: actions),
            Subcommand(People.self, "the people a memo names: precision and recall per set, split and language", run: people),
        ])

    typealias Decider = EvaluationDecider

    struct Choices: ParsableOptions {
        static let command = "dialogue-memo eval choices"
        static let about = """
        Prints, per case, the chosen question, whether it came from the model, the rules or the
        fallback, and the latency; then the acceptable rate per language and overall next to the
        rules-only rate.
        """
        var file = ""
        var json = false
        var split: String?
        var decider = Decider()
        static let declarations: [Declaration<Self>] = [
            .positional("FILE.json", \.file, "choice scenarios", .existingFile),
            .flag("--json", \.json, "one JSON object per case, then one summary object"),
            .value("--split", \.split, "only the cases of this split (dev: tuned on; test: reported only)", .oneOf(["dev", "test"])),
        ] + (Decider.model + [Decider.rulesPriorOption, Decider.endingMarginOption] + Decider.endingProbeOptions).within(\.decider)
    }

    struct Grouping: ParsableOptions {
        static let command = "dialogue-memo eval grouping"
        static let about = """
        Prints, per case, the layout and where it came from, and the latency; then the
        paragraph-boundary precision, recall and F1 next to the one-paragraph-per-answer baseline.
        """
        var file = ""
        var json = false
        var decider = Decider()
        static let declarations: [Declaration<Self>] = [
            .positional("FILE.json", \.file, "grouping scenarios", .existingFile),
            .flag("--json", \.json, "one JSON object per case, then one summary object"),
        ] + (Decider.model + [Decider.answerPriorOption]).within(\.decider)
    }

    struct Actions: ParsableOptions {
        static let command = "dialogue-memo eval actions"
        static let about = "Prints, per note, the next steps and key picked; then precision and recall per split and language."
        var file = ""
        var decider = Decider()
        static let declarations: [Declaration<Self>] = [.positional("FILE.json", \.file, "next-step scenarios", .existingFile)]
            + Decider.model.within(\.decider)
    }

    static func actions(_ options: Actions) async throws -> Int32 {
        let service = try options.decider.service()
        let results = try await ActionEvaluation.run(try ActionScenarioSet.load(from: URL(fileURLWithPath: options.file)).cases,
                                                     service: service) { print($0.line) }
        print(ActionSummary(results, settings: service.settings, model: service.model?.path).text)
        return 0
    }

    struct People: ParsableOptions {
        static let command = "dialogue-memo eval people"
        static let about = """
        Runs the rule-based name finder on labelled memos and prints, per memo, the names it found
        that are not labelled and those it missed; then precision and recall per file, split and
        language, and the finder's time per memo. No model is used.
        """
        var file = ""
        var blind: String?
        var split: String?
        static let declarations: [Declaration<Self>] = [
            .positional("FILE.json", \.file, "a people set (Tests/Fixtures/people-scenarios.json)", .existingFile),
            .value("--blind FILE.json", \.blind, "a blind batch too, reported apart (Tests/Fixtures/people-blind-batch.json)", .existingFile),
            .value("--split", \.split, "only the memos of this split (dev: tuned on; test: reported only)", .oneOf(["dev", "test"])),
        ]
    }

    static func people(_ options: People) throws -> Int32 {
        var sets: [(name: String, results: [PeopleCaseResult])] = []
        for file in [options.file] + (options.blind.map { [$0] } ?? []) {
            let memos = try PeopleScenarioSet.load(from: URL(fileURLWithPath: file)).memos
                .filter { options.split == nil || $0.split == options.split }
            let results = PeopleEvaluation.run(memos)
            for line in results.compactMap(\.errorLine) { print(line) }
            sets.append((URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent, results))
        }
        print(PeopleSummary(sets).text)
        return 0
    }

    struct Fuzz: ParsableOptions {
        static let command = "dialogue-memo eval fuzz"
        static let about = """
        Runs COUNT random conversations in five languages (hostile answers included) through the
        decision path and counts choices outside the rules' allowed set, invalid layouts and
        fallbacks. Exits 1 if anything was invalid.
        """
        var count = 1000
        var seed: UInt64 = 1
        var fragments = DecisionFuzz.Fragments.sourceTreePath
        var decider = Decider()
        static let declarations: [Declaration<Self>] = [
            .positional("[COUNT]", \.count, "how many conversations", .wholeNumber(atLeast: 1)),
            .value("--seed N", \.seed, "the random conversations' seed", .wholeNumber()),
            .value("--fragments FILE", \.fragments, "the answers' fragments per language",
                   ValueParser("needs an existing file", describe: { _ in "Tests/Fixtures/fuzz-fragments.json of the source tree" },
                               parse: ValueParser.existingFile.parse)),
        ] + (Decider.model + [Decider.rulesPriorOption, Decider.answerPriorOption]).within(\.decider)
    }

    struct Prompts: ParsableOptions {
        static let command = "dialogue-memo eval prompts"
        static let about = """
        Prints, per case of a choice scenario file, the prompt the product scores the options after
        and each allowed option's label as it is scored, so a benchmark uses the product's own text.
        Without a model (--no-model) the prompt is in the completion format.
        """
        var file = ""
        var json = false
        var decider = Decider()
        static let declarations: [Declaration<Self>] = [
            .positional("FILE.json", \.file, "choice scenarios", .existingFile),
            .flag("--json", \.json, #"one JSON object per case: {"finishOnly", "format", "id", "language", "options": [{"choice", "label"}], "prompt"}"#),
        ] + Decider.model.within(\.decider)
    }

    /// Random conversations through the decision path; exit 1 if anything was invalid.
    static func fuzz(_ options: Fuzz) async throws -> Int32 {
        let start = Date(), count = options.count
        let fragments = try DecisionFuzz.Fragments.load(from: URL(fileURLWithPath: options.fragments))
        let report = try await DecisionFuzz.run(count: count, seed: options.seed, fragments: fragments, service: try options.decider.service(),
                                                rules: try Rules.byLanguage()) { index in
            if (index + 1) % 50 == 0 {
                SpeechEvaluationCommand.printToStandardError(String(format: "dialogue-memo: fuzz: %d/%d conversations, %.0f s", index + 1, count, Date().timeIntervalSince(start)))
            }
        }
        print(report.text(seed: options.seed))
        return report.isClean ? 0 : 1
    }

    static func choices(_ options: Choices) async throws -> Int32 {
        let cases = try ChoiceScenarioSet.load(from: URL(fileURLWithPath: options.file)).cases
            .filter { options.split == nil || $0.split == options.split }
        if options.decider.trainEndingProbe != nil { return try await options.decider.trainProbe(on: cases, file: options.file, arguments: Array(CommandLine.arguments.dropFirst())) }
        let (service, rules) = (try options.decider.service(), try Rules.byLanguage())
        let results = try await ChoiceEvaluation.run(cases, rules: rules, service: service) { result in
            print(options.json ? result.jsonLine : result.line)
        }
        let summary = ChoiceSummary(results, cases: cases, rules: rules, model: service.model?.path)
        print(options.json ? EvaluationJSON.line(summary) : summary.text)
        return 0
    }

    static func grouping(_ options: Grouping) async throws -> Int32 {
        let set = try GroupingScenarioSet.load(from: URL(fileURLWithPath: options.file))
        let service = try options.decider.service()
        let results = try await GroupingEvaluation.run(set.cases, service: service) { result in
            print(options.json ? result.jsonLine : result.line)
        }
        let summary = GroupingSummary(results, model: service.model?.path)
        print(options.json ? EvaluationJSON.line(summary) : summary.text)
        return 0
    }

    static func prompts(_ options: Prompts) async throws -> Int32 {
        if options.decider.noModel, options.decider.format == .chat {
            throw Prompts.usageError("--format chat needs a model (its chat template), not --no-model")
        }
        let set = try ChoiceScenarioSet.load(from: URL(fileURLWithPath: options.file))
        let service = try options.decider.service()
        let rules = try Rules.byLanguage()
        for scenario in set.cases {
            guard let rules = rules[scenario.language] else { continue }
            let prompt = ScoredPrompt(scenario, rules: rules, model: service.model, format: service.format)
            print(options.json ? EvaluationJSON.line(prompt) : prompt.text)
        }
        return 0
    }
}
