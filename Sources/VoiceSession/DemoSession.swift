import DialogueCore
import Foundation
import Speech

/// `demo`: the real spoken exchange on a machine with no microphone or speaker. A private
/// headless PulseAudio carries the audio (or the one given, so a test can record what the demo
/// played); a synthetic person answers each question with espeak-ng into its microphone.
public enum DemoSession {
    public static func run(_ context: SessionContext, script: DemoScript, audioServer: String?) async throws -> Int32 {
        let display = context.display
        var privateServer: PrivateAudioServer?
        defer { privateServer?.stop() }
        let address: String
        if let audioServer {
            address = audioServer
        } else {
            if (try? AudioServer(timeout: 1)) != nil {
                display.hint("An audio server is running on this machine; the demo uses its own private one instead.")
            }
            let server = try PrivateAudioServer()
            privateServer = server
            address = server.address
            display.hint("Private headless audio server started (pid \(server.pid.map(String.init) ?? "?")).")
        }
        display.hint("A synthetic person answers in \(context.pack.name).")
        let voiced = context.with { $0.audioServer = address }
        let person = try SyntheticPerson(serverAddress: address, script: script, voice: voiced.pack.voice)
        let voice = try await VoicePorts.open(voiced, person: person)
        return await ExchangeSession(context: voiced, voice: voice).run()
    }
}

extension SyntheticPerson {
    public struct ScenarioError: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason). Expected {\"answers\": [{\"text\": \"…\", \"speech\": \"…\"}, …]}." }
    }

    /// The answers of a scenario file (`demo --scenario`).
    public static func scenario(_ path: String) throws -> [SpokenText] {
        struct File: Decodable { let answers: [SpokenText] }
        guard let data = FileManager.default.contents(atPath: path) else { throw ScenarioError(path: path, reason: "no such file") }
        do {
            let answers = try JSONDecoder().decode(File.self, from: data).answers
            guard !answers.isEmpty else { throw ScenarioError(path: path, reason: "no answers") }
            return answers
        } catch let error as ScenarioError { throw error } catch {
            throw ScenarioError(path: path, reason: "not valid JSON of the expected shape")
        }
    }
}
