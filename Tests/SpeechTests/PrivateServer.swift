import Foundation

/// A second private server (scripts/test-audio.sh start/stop): PulseAudio, which a test may stop
/// while streams are open to see how the code takes a server going away, or PipeWire.
enum PrivateServer {
    static var script: String {
        // Tests/SpeechTests/PrivateServer.swift → scripts/test-audio.sh
        URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/test-audio.sh").path
    }

    /// Starts one; returns its folder and the server string to connect to.
    static func start(pipewire: Bool = false) throws -> (directory: String, server: String) {
        let output = try TestAudio.run("/bin/bash", [script, "start"] + (pipewire ? ["--pipewire"] : []))
        guard let line = output.split(separator: "\n").last,
              let directory = line.split(separator: " ").first(where: { $0.hasPrefix("DIALOGUE_MEMO_TEST_AUDIO=") })?
                .dropFirst("DIALOGUE_MEMO_TEST_AUDIO=".count) else {
            throw TestAudioError("test-audio.sh start printed no environment: \(output)")
        }
        return (String(directory), "unix:\(directory)/runtime/pulse/native")
    }

    static func stop(_ directory: String) {
        _ = try? TestAudio.run("/bin/bash", [script, "stop", directory])
    }
}
