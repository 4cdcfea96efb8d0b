import Decisions
import DialogueCore
import Foundation
import Options
import Transcription
import VoiceSession

/// `dialogue-memo eval turns [FOLDER]`: the turn-taking set on the real-speech clips
/// (`TurnEvaluation`), every fixed and adaptive preset side by side.
public enum TurnEvaluationCommand {
    public struct Arguments: ParsableOptions {
        public static let command = "dialogue-memo eval turns"
        public static let about = """
        Transcribes the answer up to every pause of the turn-taking set as the listener does (the
        dialogue's settings), reads how finished it sounds, and prints per language and split, for
        the fixed silences and the adaptive waits side by side: the cut-offs at silences inside
        answers and the wait after a true end, with and without whisper's time, and as the person
        hears them (the next question starting only once it is decided).
        """
        var folder = ""
        var set = TurnSet.sourceTreePath
        var whisperModel: String?
        var transcripts: String?
        var tail: Double?
        var withModel = false
        var incremental = false
        var tailVerdict = false
        var draft: Double?
        var decision = 0.35
        var json = false
        public init() {}
        public static let declarations: [Declaration<Self>] = [
            .positional("[FOLDER]", \.folder, SpeechEvaluationCommand.folderHelp, SpeechEvaluationCommand.folderParser),
            .value("--set FILE", \.set, "the turn-taking set (scripts/turn_taking_set.py writes it)",
                   ValueParser("needs an existing file", describe: { _ in "Tests/Fixtures/turn-taking.json of the source tree" },
                               parse: ValueParser.existingFile.parse)),
            .value("--whisper-model PATH", \.whisperModel, "another whisper.cpp ggml model"),
            .value("--transcripts FILE", \.transcripts, "reuse the transcripts and times of an earlier --json run (no whisper)", .existingFile),
            .value("--tail SECONDS", \.tail, "transcribe only the last SECONDS before each pause (what a shorter clip does to T)", .number(atLeast: 0.5)),
            .flag("--with-model", \.withModel, "also the language model's probability that the turn is complete (its time included)"),
            .flag("--incremental", \.incremental, "also each answer's final transcript in pieces between its pauses, each prompted with the text before it, against the whole"),
            .flag("--tail-verdict", \.tailVerdict, "also read the verdict from the answer's last 1, 1.5, 2 and 3 s alone, in a fitted window and in 256 frames: times, AUC, and the waits with the tail read first"),
            .value("--draft LAG", \.draft, "also transcribe each pause with a draft, whisper's tokens for the answer up to LAG seconds before it (0: the whole answer), against the plain run: time and same text", .number(atLeast: 0)),
            .value("--decision SECONDS", \.decision, "the time from the transcript at a pause to the next question audible, for the table as heard (make bench's breakdown: decision + audible − transcribed; 0: leave that table out)", .number(atLeast: 0)),
            .flag("--json", \.json, "one JSON line per pause (answer, at, text, seconds, completion, cue, mark), then the summary"),
        ]
    }

    public static func run(_ options: Arguments) async throws -> Int32 {
        let folder = try SpeechEvaluationCommand.clipFolder(options.folder)
        let set = try TurnSet(contentsOf: options.set)
        let heard = try options.transcripts.map { try TurnEvaluation.Heard.load(String(contentsOfFile: $0, encoding: .utf8)) } ?? [:]
        let loader = LanguagePackLoader()
        let phrases = try Dictionary(uniqueKeysWithValues: LanguagePackLoader.supportedLanguages.map { ($0, try loader.load($0).phrases) })
        let transcriber = options.transcripts == nil ? try Transcriber(modelPath: options.whisperModel ?? DefaultModels.whisper) : nil
        SpeechEvaluationCommand.printToStandardError("\(set.answers.count) answers, \(set.moments.count) pauses, clips in \(folder)")
        let evaluation = TurnEvaluation(transcriber: transcriber, phrases: phrases, heard: heard, tail: options.tail,
                                        model: options.withModel ? try LanguageModel(path: DefaultModels.languageModel) : nil,
                                        incremental: options.incremental,
                                        tails: options.tailVerdict ? TurnEvaluation.tailCandidates : [], draftLag: options.draft)
        let results = try await evaluation.run(set, speech: try SpeechSet(folder: folder)) { print(options.json ? $0.jsonLine : $0.line) }
        print(TurnSummary(results, decisionSeconds: options.decision > 0 ? options.decision : nil).text)
        return 0
    }
}
