// swift-tools-version: 6.0
import Foundation
import PackageDescription

/// whisper.cpp and llama.cpp (with their one shared ggml) are built by `make deps` into a cache
/// folder outside the repo: `$DIALOGUE_MEMO_CACHE`, else `$XDG_CACHE_HOME/dialogue-memo`, else
/// `~/.cache/dialogue-memo` (the same rule as `DefaultModels`). Its link `current` points at the
/// prefix of the pinned versions. Headers come in with `-I`, and the binary gets an rpath to the
/// prefix so it runs without `LD_LIBRARY_PATH`.
let enginePrefix: String = {
    let env = ProcessInfo.processInfo.environment
    func nonEmpty(_ key: String) -> String? { env[key].flatMap { $0.isEmpty ? nil : $0 } }
    let cache = nonEmpty("DIALOGUE_MEMO_CACHE")
        ?? nonEmpty("XDG_CACHE_HOME").map { $0 + "/dialogue-memo" }
        ?? (nonEmpty("HOME") ?? NSHomeDirectory()) + "/.cache/dialogue-memo"
    return cache + "/current"
}()

let engineHeaders: [SwiftSetting] = [.unsafeFlags(["-Xcc", "-I\(enginePrefix)/include"])]
let engineLinking: [LinkerSetting] = [
    .unsafeFlags(["-L\(enginePrefix)/lib", "-Xlinker", "-rpath", "-Xlinker", "\(enginePrefix)/lib"]),
]

let package = Package(
    name: "DialogueMemo",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "dialogue-memo", targets: ["dialogue-memo"]),
    ],
    targets: [
        // C libraries: module maps only.
        .systemLibrary(name: "CICU", path: "Sources/CICU"),
        .systemLibrary(name: "CEspeakNG", path: "Sources/CEspeakNG"),
        .systemLibrary(name: "CPulse", path: "Sources/CPulse", pkgConfig: "libpulse"),
        .systemLibrary(name: "CWhisper", path: "Sources/CWhisper"),
        .systemLibrary(name: "CLlama", path: "Sources/CLlama"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3"),
        // speexdsp: the echo canceller and the resampler for the played reference.
        .systemLibrary(name: "CSpeexDSP", path: "Sources/CSpeexDSP", pkgConfig: "speexdsp"),
        // glibc's malloc tuning, for the executable's memory (see main.swift).
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // Catches llama.cpp's C++ exceptions before they can reach (and abort) Swift.
        .target(name: "CLlamaGuard", cxxSettings: [.unsafeFlags(["-I\(enginePrefix)/include"])],
                linkerSettings: engineLinking + [.linkedLibrary("llama"), .linkedLibrary("ggml-base")]),

        // Pure Swift + ICU: questions, locales, rules, sentences, layout, renderer, journal.
        .target(name: "DialogueCore", dependencies: ["CICU"]),
        // espeak-ng synthesis, PulseAudio playback / capture, cancelling the program's own echo.
        .target(name: "Speech", dependencies: ["CEspeakNG", "CPulse", "CSpeexDSP"]),
        // whisper.cpp in process.
        .target(name: "Transcription", dependencies: ["CWhisper"],
                swiftSettings: engineHeaders, linkerSettings: engineLinking),
        // llama.cpp in process: grammar-constrained decisions.
        .target(name: "Decisions", dependencies: ["CLlama", "CLlamaGuard", "DialogueCore"],
                swiftSettings: engineHeaders, linkerSettings: engineLinking),
        // The exchange as a loop over protocols (speaking, answering, deciding, journaling).
        .target(name: "Dialogue", dependencies: ["DialogueCore"]),
        // The notes folder: atomic saves; list, search and tasks through an SQLite index.
        .target(name: "Notes", dependencies: ["DialogueCore", "CSQLite"]),
        // A session with the real parts: voice answers (speculation, the early decision), the
        // engine gate, the exchange, record, recovery and the finishing step (review, save).
        .target(name: "VoiceSession",
                dependencies: ["DialogueCore", "Dialogue", "Speech", "Transcription", "Decisions", "Notes", "Options"],
                swiftSettings: engineHeaders, linkerSettings: engineLinking),
        // Declarative command-line options: typed structs filled from declarations, help generated.
        .target(name: "Options"),
        // `dialogue-memo eval`: the labelled sets read, the product measured on them, the ending
        // probe trained. Depends on the product; nothing in the product depends on it.
        .target(name: "Evaluation",
                dependencies: ["DialogueCore", "Speech", "Transcription", "Decisions", "VoiceSession", "Options"],
                swiftSettings: engineHeaders, linkerSettings: engineLinking),
        // The command-line program: option parsing, the screen, main.
        .executableTarget(name: "dialogue-memo",
                          dependencies: ["DialogueCore", "Dialogue", "Speech", "Transcription", "Decisions", "Notes",
                                         "VoiceSession", "Evaluation", "Options", "CMalloc"],
                          swiftSettings: engineHeaders, linkerSettings: engineLinking),

        // The rules' tests read the labelled scenario sets through Evaluation.
        .testTarget(name: "DialogueCoreTests", dependencies: ["DialogueCore", "Evaluation"],
                    swiftSettings: engineHeaders, linkerSettings: engineLinking),
        .testTarget(name: "SpeechTests", dependencies: ["Speech"]),
        .testTarget(name: "NotesTests", dependencies: ["Notes"]),
        .testTarget(name: "OptionsTests", dependencies: ["Options"]),
        .testTarget(name: "DialogueTests", dependencies: ["Dialogue", "DialogueCore"]),
        .testTarget(name: "VoiceSessionTests", dependencies: ["VoiceSession", "Dialogue", "DialogueCore", "Notes", "Options", "Speech", "Transcription"],
                    swiftSettings: engineHeaders, linkerSettings: engineLinking),
        .testTarget(name: "TranscriptionTests", dependencies: ["Transcription", "DialogueCore"],
                    swiftSettings: engineHeaders, linkerSettings: engineLinking),
        // The real stack without audio devices: espeak-ng renders, whisper.cpp transcribes, the rules judge.
        .testTarget(name: "EndToEndTests", dependencies: ["DialogueCore", "Speech", "Transcription"],
                    swiftSettings: engineHeaders, linkerSettings: engineLinking),
        .testTarget(name: "DecisionsTests", dependencies: ["Decisions", "DialogueCore", "Evaluation"],
                    swiftSettings: engineHeaders, linkerSettings: engineLinking),
        .testTarget(name: "EvaluationTests", dependencies: ["Evaluation", "Decisions", "DialogueCore", "Speech", "Transcription", "VoiceSession"],
                    swiftSettings: engineHeaders, linkerSettings: engineLinking),
        // Runs the built binary; depends on nothing so it tests the program as a person uses it.
        .testTarget(name: "CLITests"),
    ]
)
