import DialogueCore
import Foundation
import Options
import Transcription

/// `dialogue-memo eval speech [FOLDER]`: the real-speech set (scripts/fetch-speech.sh) through
/// our transcription and whisper-cli of the same build, side by side (`SpeechEvaluation`).
public enum SpeechEvaluationCommand {
    public struct Arguments: ParsableOptions {
        public static let command = "dialogue-memo eval speech"
        public static let about = """
        Transcribes every clip of the real-speech set our two ways (transcribe's settings, and
        the dialogue's) and with whisper-cli of the same whisper.cpp build and model, and prints
        the error rates (WER; CER for Japanese) per clip, then per language and split.
        """
        var folder = ""
        var whisperModel: String?
        var noWhisperCLI = false
        var promptWithQuestion = false
        public init() {}
        public static let declarations: [Declaration<Self>] = [
            .positional("[FOLDER]", \.folder, SpeechEvaluationCommand.folderHelp, SpeechEvaluationCommand.folderParser),
            .value("--whisper-model PATH", \.whisperModel, "another whisper.cpp ggml model (whisper-cli uses it too)"),
            .flag("--no-whisper-cli", \.noWhisperCLI, "ours only"),
            .flag("--prompt-with-question", \.promptWithQuestion,
                  "also the dialogue's settings with the language's opening question as whisper's initial prompt"),
        ]
    }

    public static func run(_ options: Arguments) async throws -> Int32 {
        let folder = try clipFolder(options.folder)
        let set = try SpeechSet(folder: folder)
        let model = options.whisperModel ?? DefaultModels.whisper
        let cli = DefaultModels.enginesDirectory + "/bin/whisper-cli"
        let compared = !options.noWhisperCLI && FileManager.default.isExecutableFile(atPath: cli)
        if !options.noWhisperCLI, !compared { printToStandardError("whisper-cli not found at \(cli) (make deps builds it): ours only.") }
        printToStandardError("\(set.clips.count) clips in \(folder)")
        // The opening question as it is shown (its text, not the kana speech form).
        let prompts = options.promptWithQuestion
            ? Dictionary(uniqueKeysWithValues: try LanguagePackLoader().loadAll().map { ($0.whisperLanguage, $0.opening.text) }) : [:]
        let evaluation = SpeechEvaluation(transcriber: try Transcriber(modelPath: model), whisperCLI: compared ? (cli, model) : nil,
                                          prompts: prompts)
        let results = try await evaluation.run(set) { print($0.line) }
        print(SpeechSummary(results).text)
        return 0
    }

    static let folderHelp = "the clips and their manifest.json, as scripts/fetch-speech.sh builds them"
    static let folderParser = ValueParser<String>("needs a folder", describe: { $0.isEmpty ? "the newest speech-* under the cache" : $0 }) { $0 }

    /// The clips' folder named on the command line, or the newest one fetch-speech built.
    static func clipFolder(_ named: String) throws -> String {
        guard let folder = named.isEmpty ? SpeechSet.newestFolder(in: DefaultModels.cacheDirectory) : named else {
            throw SpeechSet.LoadError(description: "no real-speech clips under \(DefaultModels.cacheDirectory): build them with scripts/fetch-speech.sh, or name their folder.")
        }
        return folder
    }

    static func printToStandardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
