import Foundation

/// Where the default models are. An installed program (the package, `make install`) has them
/// in `<prefix>/share/dialogue-memo/models` beside it, the same for every user and whatever
/// is in their cache; a program run from the source tree finds them where `make deps`
/// (scripts/bootstrap.sh) put them: `$DIALOGUE_MEMO_CACHE`, else `$XDG_CACHE_HOME/dialogue-memo`,
/// else `~/.cache/dialogue-memo`, whose `models` and `current` link to the versioned folders
/// of the pinned build.
public enum DefaultModels {
    public static var cacheDirectory: String { Paths.cache }

    public static var modelsDirectory: String { installedModelsDirectory ?? cacheDirectory + "/models" }

    public static let installedModelsDirectory = installedModels(beside: LanguagePackLoader.currentExecutable())

    /// `<executable dir>/../share/dialogue-memo/models`, when it exists.
    static func installedModels(beside executable: URL?) -> String? {
        guard let executable else { return nil }
        let folder = executable.deletingLastPathComponent()
            .appendingPathComponent("../share/dialogue-memo/models", isDirectory: true).standardizedFileURL.path
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue ? folder : nil
    }
    public static var enginesDirectory: String { cacheDirectory + "/current" }

    /// whisper base (multilingual), converted from CTranslate2 and quantized to q8_0.
    public static var whisper: String { modelsDirectory + "/ggml-base-q8_0.bin" }
    /// SmolLM2-135M-Instruct, Q4_1 (instruction-tuned, has a chat template).
    public static var smolLM2: String { modelsDirectory + "/SmolLM2-135M-Instruct.Q4_1.gguf" }
    /// gemma-3-270m, Q4_K_M (a base model: plain completion prompts).
    public static var gemma3: String { modelsDirectory + "/gemma-3-270m-q4_k_m.gguf" }
    /// The language model used when none is given: gemma-3 scored best on the scenario sets, and
    /// lays out notes faster.
    public static var languageModel: String { gemma3 }
    /// whisper.cpp's sample recording (JFK), copied by the bootstrap for tests and benchmarks.
    public static var jfkSample: String { enginesDirectory + "/share/dialogue-memo/samples/jfk.wav" }
}
