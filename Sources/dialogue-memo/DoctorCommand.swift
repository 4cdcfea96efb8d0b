import DialogueCore
import Foundation
import Options
import VoiceSession

/// `dialogue-memo doctor`: checks every component a voice dialogue needs and says how to fix
/// what is missing. Exit 0 only when a voice dialogue can run.
enum DoctorCommand {
    struct Arguments: ParsableOptions {
        static let command = "dialogue-memo doctor"
        static let about = """
        Checks the engines, the models, the audio server and its default devices, and the
        espeak-ng voices. Exits 0 when a voice dialogue can run; otherwise says what still works.
        """
        var whisperModel: String?
        var llmModel: String?
        static let declarations: [Declaration<Self>] = [
            .value("--whisper-model PATH", \.whisperModel, "the speech model to check (default: the built-in whisper base)"),
            .value("--llm-model PATH", \.llmModel, "the language model to check (default: both built-in ones)"),
        ]
    }

    static func run(_ options: Arguments) async throws -> Int32 {
        var checks: [SystemCheck.Check] = []
        func report(_ check: SystemCheck.Check) {
            checks.append(check)
            print("\(check.ok ? "✓" : "✗") \(check.label): \(check.detail)")
            fflush(nil)
        }

        report(await SystemCheck.whisperCheck(options.whisperModel ?? DefaultModels.whisper))
        let llmPaths = options.llmModel.map { [$0] } ?? [DefaultModels.smolLM2, DefaultModels.gemma3]
        for path in llmPaths { report(await SystemCheck.languageModelCheck(path)) }
        report(SystemCheck.voicesCheck())
        for check in SystemCheck.audioChecks() { report(check) }

        let verdict = SystemCheck.verdict(checks)
        print("\n" + verdict.text)
        return verdict.canTalk ? 0 : 1
    }
}
