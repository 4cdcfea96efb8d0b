import DialogueCore
import Foundation

/// A private, headless PulseAudio server with virtual devices, for the demo on a machine with
/// no sound card: sink `speaker` (the program's output), sink `micfeed` with source `mic` on
/// its monitor (the synthetic person speaks into `micfeed`, the program listens on `mic`).
/// Started with its own folders, stopped by its PID, nothing left behind.
/// (`scripts/test-audio.sh` sets up the same devices for the tests.)
public final class PrivateAudioServer {
    public let folder: String
    public var address: String { "unix:\(folder)/runtime/pulse/native" }

    public struct StartFailed: Error, CustomStringConvertible {
        public let reason: String
        /// Whether the desktop's sound server is PipeWire's: installing the PulseAudio daemon
        /// there would replace it (Debian's pipewire-audio conflicts with pulseaudio).
        public var pipewireDesktop = Editor.onPath("pipewire-pulse", environment: ProcessInfo.processInfo.environment)
        public var description: String {
            let head = "could not start a private PulseAudio server: \(reason)."
            guard pipewireDesktop else { return head + " Install it with: apt-get install pulseaudio" }
            return head + " This desktop plays sound through PipeWire, which installing pulseaudio would replace."
                + " Run the demo on a private PipeWire from the source tree instead:"
                + " scripts/test-audio.sh run --pipewire sh -c 'dialogue-memo demo --audio-server \"$PULSE_SERVER\"'"
        }
    }

    public init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("dialogue-memo-demo-\(UUID().uuidString.prefix(8))").path
        let runtime = folder + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime + "/pulse", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/home", withIntermediateDirectories: true)
        chmod(runtime, 0o700)
        guard let template = Self.configuration() else {
            throw StartFailed(reason: "its configuration private-server.pa was not found beside the program")
        }
        let script = template.replacingOccurrences(of: "@RUNTIME@", with: runtime)
        try script.write(toFile: folder + "/server.pa", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pulseaudio", "--daemonize=yes", "--use-pid-file=yes", "-n", "-F", folder + "/server.pa",
                             "--exit-idle-time=-1", "--realtime=no", "--high-priority=no",
                             "--log-target=file:\(folder)/server.log"]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = folder + "/home"
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["PULSE_COOKIE"] = folder + "/cookie"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { throw StartFailed(reason: "pulseaudio not found") }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let log = (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
            stop()
            throw StartFailed(reason: log.split(separator: "\n").last.map(String.init) ?? "exit \(process.terminationStatus)")
        }
        for _ in 0..<50 where !FileManager.default.fileExists(atPath: runtime + "/pulse/native") {
            usleep(100_000)
        }
        // Clients of this process find the server and never touch ~/.config/pulse.
        setenv("PULSE_SERVER", address, 1)
        setenv("PULSE_COOKIE", folder + "/cookie", 1)
    }

    /// `private-server.pa`: installed in `share/dialogue-memo` beside the program, or the source
    /// tree's `scripts/` (the test audio script starts the same devices from it).
    static func configuration() -> String? {
        var candidates: [URL] = []
        if let executable = LanguagePackLoader.currentExecutable()?.deletingLastPathComponent() {
            candidates.append(executable.appendingPathComponent("../share/dialogue-memo/private-server.pa").standardizedFileURL)
        }
        var source = URL(fileURLWithPath: #filePath)
        while source.pathComponents.count > 1, source.lastPathComponent != "Sources" { source.deleteLastPathComponent() }
        candidates.append(source.deletingLastPathComponent().appendingPathComponent("scripts/private-server.pa"))
        return candidates.lazy.compactMap { try? String(contentsOf: $0, encoding: .utf8) }.first
    }

    public var pid: pid_t? {
        (try? String(contentsOfFile: folder + "/runtime/pulse/pid", encoding: .utf8))
            .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    public func stop() {
        if let pid, kill(pid, 0) == 0 {
            kill(pid, SIGTERM)
            for _ in 0..<50 where kill(pid, 0) == 0 { usleep(100_000) }
            if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
        }
        try? FileManager.default.removeItem(atPath: folder)
    }
}
