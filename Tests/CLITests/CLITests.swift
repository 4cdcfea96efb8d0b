import Foundation
import Testing

/// Runs the built `dialogue-memo` binary (from the same build folder as the tests) as a
/// person would.
enum CLI {
    static var binary: String {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = testBinary.deletingLastPathComponent()
        // On Linux the test bundle is `<build>/DialogueMemoPackageTests.xctest` (a file).
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("dialogue-memo").path),
              dir.path != "/" {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("dialogue-memo").path
    }

    struct Result { var status: Int32; var stdout: String; var stderr: String }

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}

@Suite("dialogue-memo command line", .serialized)
struct CLITests {
    @Test func doctorReportsEveryComponentReadyUnderTheTestServer() throws {
        try #require(ProcessInfo.processInfo.environment["DIALOGUE_MEMO_TEST_AUDIO"] != nil,
                     "run under scripts/test-audio.sh (make test does)")
        let result = try CLI.run(["doctor"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("✗"))
        for label in ["speech model", "language model", "espeak-ng voices", "audio server", "default output", "default input"] {
            #expect(result.stdout.contains("✓ \(label)"), "missing ✓ \(label) in:\n\(result.stdout)")
        }
    }

    @Test func doctorFailsAndSaysTypingWorksWithoutAudio() throws {
        let result = try CLI.run(["doctor"], environment: ["PULSE_SERVER": "unix:/nonexistent/native"])
        #expect(result.status != 0)
        #expect(result.stdout.contains("✗ audio server"))
        #expect(result.stdout.contains("Typing still works"))
    }

    @Test func transcribePrintsTheJFKSentence() throws {
        let result = try CLI.run(["transcribe", Self.jfk])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ==
                "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.")
    }

    @Test func transcribeJSONHasSegments() throws {
        let result = try CLI.run(["transcribe", Self.jfk, "--json"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object?["language"] as? String == "en")
        let segments = object?["segments"] as? [[String: Any]] ?? []
        #expect(!segments.isEmpty)
        #expect(segments.allSatisfy { ($0["start"] as? Double ?? -1) >= 0 && $0["text"] is String })
    }

    @Test func transcribeASilentFileSaysSoAndPrintsNothing() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("silent-\(UUID()).wav").path
        var wav = Data("RIFF".utf8)
        func put32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { wav.append(contentsOf: $0) } }
        func put16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { wav.append(contentsOf: $0) } }
        put32(36 + 64_000); wav.append(contentsOf: Array("WAVEfmt ".utf8)); put32(16)
        put16(1); put16(1); put32(16_000); put32(32_000); put16(2); put16(16)
        wav.append(contentsOf: Array("data".utf8)); put32(64_000)
        wav.append(Data(count: 64_000))
        try wav.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLI.run(["transcribe", path])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("silent"))
    }

    @Test func badInputsGiveClearErrors() throws {
        let missing = try CLI.run(["transcribe", "/no/such/file.wav"])
        #expect(missing.status == 1 && missing.stderr.contains("/no/such/file.wav: no such file"))
        let unknown = try CLI.run(["frobnicate"])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown command"))
        let badFlag = try CLI.run(["transcribe", "--nope"])
        #expect(badFlag.status == 2 && badFlag.stderr.contains("unknown option --nope"))
        let help = try CLI.run(["--help"])
        #expect(help.status == 0 && help.stdout.contains("Usage:"))
    }

    /// The licences and terms of what runs inside travel with the program.
    @Test func theVersionNamesTheLicencesOfTheEnginesAndModels() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("dialogue-memo 0.1.0 (MIT License)\n"))
        for name in ["whisper.cpp, llama.cpp and ggml (MIT License)", "Whisper base by OpenAI (MIT License)",
                     "Gemma 3 270M by Google (Gemma Terms of Use", "SmolLM2-135M-Instruct by Hugging Face (Apache License 2.0)",
                     "Licences and terms in full: LICENSE and packaging/copyright"] {
            #expect(result.stdout.contains(name), "\(name) missing from\n\(result.stdout)")
        }
    }

    static var jfk: String {
        let env = ProcessInfo.processInfo.environment
        let cache = env["DIALOGUE_MEMO_CACHE"] ?? (env["XDG_CACHE_HOME"].map { $0 + "/dialogue-memo" }
            ?? NSHomeDirectory() + "/.cache/dialogue-memo")
        return cache + "/current/share/dialogue-memo/samples/jfk.wav"
    }
}
