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

    /// Whether the test server is a private PipeWire (where the PulseAudio daemon is not
    /// installed, scripts/test-audio.sh starts one).
    static var isPipeWire: Bool { ProcessInfo.processInfo.environment["DIALOGUE_MEMO_TEST_AUDIO_SERVER"] == "pipewire" }
    static let pipeSourcePlaysSilence: Comment = "the test server is PipeWire, whose pipe source (0.3.65) plays silence while nobody writes its FIFO: no microphone there goes dead or stalls"

    /// Plays `buffer` into `sink` after `delay`, on a connection of its own (as another program
    /// would). Returns when the injected audio has been played.
    static func inject(_ buffer: PCMBuffer, after delay: Duration, into sink: String = "micfeed",
                       leadingSilence: Double = Speaker.firstPromptSilence) -> Task<Injection, Error> {
        inject(buffer, when: { try await Task.sleep(for: delay) }, into: sink, leadingSilence: leadingSilence)
    }

    /// Plays `buffer` into `sink` once `ready` returns (for instance, once the listener has
    /// reported that it listens), so the audio's timing depends on no sleep. `server` nil: the
    /// one PULSE_SERVER names.
    static func inject(_ buffer: PCMBuffer, when ready: @escaping @Sendable () async throws -> Void,
                       into sink: String = "micfeed", leadingSilence: Double = Speaker.firstPromptSilence,
                       server: String? = nil) -> Task<Injection, Error> {
        // Opened before the wait, so the wait is the only delay before the audio starts.
        let speaker = Result { try Speaker(server: AudioServer(server: server, applicationName: "test user"), device: sink,
                                           sampleRate: buffer.sampleRate) }
        return Task {
            let speaker = try speaker.get()
            try await ready()
            return Injection(timing: try await speaker.play(buffer, leadingSilence: leadingSilence))
        }
    }

    struct Injection: Sendable {
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

    /// A loud 1 kHz tone, 30 ms: louder than any speech espeak-ng renders, so it marks a moment
    /// in a capture (played on a stream of its own once something else has happened).
    static func marker(sampleRate: Int = 22_050) -> PCMBuffer {
        let count = sampleRate * 3 / 100
        return PCMBuffer(sampleRate: sampleRate, samples: (0..<count).map {
            Int16((sin(2 * Double.pi * 1_000 * Double($0) / Double(sampleRate)) * 0.95 * 32_767).rounded())
        })
    }
    static let markerLevel: Float = 0.8

    /// Samples from a marker's start (`markers`) to past its end: its length, and 2 ms for the
    /// edge the server's resampling softens, so what follows is not taken to start inside it.
    static func markerSpan(sampleRate: Int = 22_050) -> Int {
        marker(sampleRate: sampleRate).samples.count + sampleRate / 500
    }

    /// Plays the marker into `sink` now and returns once it has been played.
    static func playMarker(into sink: String = "speaker") async throws {
        _ = try await inject(marker(), when: {}, into: sink, leadingSilence: 0).value
    }

    /// Where markers start in `samples`: one is found at a sample above `markerLevel` (the
    /// next at least 0.1 s later, and so on) and starts a little before it (`markerStart`).
    static func markers(in samples: [Float], sampleRate: Int) -> [Int] {
        var onsets: [Int] = []
        var index = 0
        while index < samples.count {
            if abs(samples[index]) > markerLevel {
                onsets.append(markerStart(before: index, in: samples, sampleRate: sampleRate))
                index += sampleRate / 10
            } else {
                index += 1
            }
        }
        return onsets
    }

    /// Where the marker first louder than `markerLevel` at `index` begins. Its first samples are
    /// quieter (a sine starts at 0, and the server's resampling softens the edge), and a 10 ms
    /// window that took them in counted them as the sound before the marker (the speaker's
    /// cancel test failed 3 times in 17 so). Walks back at most 2 ms, to where the 16 samples
    /// before are quiet, so speech right before a marker is not taken for it.
    static func markerStart(before index: Int, in samples: [Float], sampleRate: Int) -> Int {
        var start = index
        while start > max(16, index - sampleRate / 500), samples[(start - 16)..<start].contains(where: { abs($0) > 0.01 }) {
            start -= 1
        }
        return start
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
