import Foundation
import Testing
@testable import Speech

/// The private headless PulseAudio of scripts/test-audio.sh and its virtual devices: `speaker`
/// (default sink; `speaker.monitor` hears exactly what was played), `micfeed` (play the "user"
/// into it) heard on `mic` (default source), `deadmic` (opens, never delivers) and `stallmic`
/// (a pipe source fed through a FIFO the test controls).
enum TestAudio {
    /// The server's folder; fails the test with a hint when not run under the script.
    static func directory() throws -> String {
        try #require(ProcessInfo.processInfo.environment["DIALOGUE_MEMO_TEST_AUDIO"],
                     "run under scripts/test-audio.sh (make test does): it starts the private PulseAudio these tests need")
    }

    /// Plays `buffer` into `sink` after `delay`, on a connection of its own (as another program
    /// would). Returns when the injected audio has been played.
    static func inject(_ buffer: PCMBuffer, after delay: Duration, into sink: String = "micfeed",
                       leadingSilence: Double = Speaker.firstPromptSilence) -> Task<Injection, Error> {
        // Opened before the delay, so the delay is the only wait before the audio starts.
        let speaker = Result { try Speaker(server: AudioServer(applicationName: "test user"), device: sink,
                                           sampleRate: buffer.sampleRate) }
        return Task {
            let speaker = try speaker.get()
            try await Task.sleep(for: delay)
            let started = ContinuousClock.now
            let timing = try await speaker.play(buffer, leadingSilence: leadingSilence)
            return Injection(startedAt: started, endedAt: .now, timing: timing)
        }
    }

    struct Injection: Sendable {
        var startedAt: ContinuousClock.Instant
        var endedAt: ContinuousClock.Instant
        var timing: PlaybackTiming
    }

    /// Plays a WAV file into `sink` after `delay` with `paplay` (any rate or channel count).
    static func injectWAV(_ path: String, after delay: Duration, into sink: String = "micfeed") -> Task<Void, Error> {
        Task {
            try await Task.sleep(for: delay)
            try run("/usr/bin/paplay", ["-d", sink, path])
        }
    }

    /// Runs `pactl` against the private server and returns its output.
    @discardableResult
    static func pactl(_ arguments: String...) throws -> String {
        try run("/usr/bin/pactl", arguments)
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestAudioError("\(tool) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Renders `text` (espeak-ng, in memory).
    static func speech(_ text: String, voice: String = "en-us") throws -> PCMBuffer {
        try SpeechSynthesizer.shared.render(text, voice: voice)
    }
}

struct TestAudioError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
