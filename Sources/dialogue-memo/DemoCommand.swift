import DialogueCore
import Foundation
import Options
import Speech
import VoiceSession

/// `dialogue-memo demo`: the real spoken exchange on a machine with no microphone or speaker.
/// A private headless PulseAudio carries the audio; a synthetic person answers each question
/// with espeak-ng into the virtual microphone, from the language's built-in scenario (or
/// `--scenario FILE`). The note is saved (without asking) to a temporary folder or --notes-dir.
enum DemoCommand {
    struct Arguments: ParsableOptions {
        static let command = "dialogue-memo demo"
        static let about = """
        Runs a real spoken exchange on a private headless audio server, with a synthetic person
        answering by voice. Every engine is real: espeak-ng, PulseAudio, whisper.cpp, llama.cpp.
        The note is saved without asking, to a temporary folder unless --notes-dir says otherwise.
        """
        var session = SessionArguments()
        var scenario: String?
        var audioServer: String?
        static let declarations: [Declaration<Self>] = [
            .value("--scenario FILE", \.scenario,
                   #"the person's answers: {"answers": [{"text": "…", "speech": "…"}, …]} (speech optional: what espeak-ng reads, kana for Japanese)"#,
                   .existingFile),
            .value("--audio-server ADDRESS", \.audioServer,
                   "use this PulseAudio server (it needs the sinks speaker and micfeed and the source mic, as scripts/test-audio.sh makes) instead of a private one"),
        ] + SessionArguments.declarations.filter { !["--type", "--yes"].contains($0.name) }.within(\.session)
    }

    static func run(_ options: Arguments) async throws -> Int32 {
        var session = options.session
        session.configuration.saveWithoutAsking = true
        // The demo's server has its own devices: a configured microphone is not there.
        session.pinned = ["input", "output"]
        if session.lang == nil { session.lang = "en" }
        if session.notesDirectory == nil {
            session.notesDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("dialogue-memo-demo-notes").path
        }
        let context = try session.context()
        let display = context.display
        let answers = try options.scenario.map(loadScenario) ?? context.pack.demoAnswers

        var privateServer: PrivateAudioServer?
        defer { privateServer?.stop() }
        let address: String
        if let given = options.audioServer {
            address = given
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
        let person = try SyntheticPerson(serverAddress: address, answers: answers, voice: voiced.pack.voice)
        let voice = try await VoicePorts.open(voiced, person: person)
        return await ExchangeSession(context: voiced, voice: voice).run()
    }

    struct ScenarioError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "\(path): \(reason). Expected {\"answers\": [{\"text\": \"…\", \"speech\": \"…\"}, …]}." }
    }

    static func loadScenario(_ path: String) throws -> [SpokenText] {
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

