import CLlama
import DialogueCore
import Foundation

/// The packaged engines run on any x86-64 CPU: ggml's CPU code comes as one library per
/// instruction set (`libggml-cpu-haswell.so`, …) beside the engines in `<prefix>/lib/dialogue-memo`,
/// and the best one this CPU can run is loaded here, before whisper.cpp or llama.cpp look for a
/// device. Engines built for this machine (`make deps`) have their CPU code linked in already.
enum EngineBackends {
    static func loadIfSeparate() {
        guard ggml_backend_dev_count() == 0, let executable = LanguagePackLoader.currentExecutable() else { return }
        let folder = executable.deletingLastPathComponent()
            .appendingPathComponent("../lib/dialogue-memo", isDirectory: true).standardizedFileURL.path
        // ggml names the library it chose on standard error; only DIALOGUE_MEMO_DEBUG shows it,
        // as the engines' other diagnostics (they set their own log handlers when they load).
        if ProcessInfo.processInfo.environment["DIALOGUE_MEMO_DEBUG"] == nil { ggml_log_set({ _, _, _ in }, nil) }
        ggml_backend_load_all_from_path(folder)
    }
}
