import Foundation

/// Where `make deps` (scripts/bootstrap.sh) puts the engines and the default models:
/// `$DIALOGUE_MEMO_CACHE`, else `$XDG_CACHE_HOME/dialogue-memo`, else `~/.cache/dialogue-memo`.
/// `models` and `current` are links to the versioned folders of the pinned build.
public enum DefaultModels {
    public static var cacheDirectory: String { Paths.cache }

    public static var modelsDirectory: String { cacheDirectory + "/models" }
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
