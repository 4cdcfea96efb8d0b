import Dialogue
import DialogueCore
import Foundation
import Speech

/// `dialogue-memo demo`: the real spoken exchange on a machine with no microphone or speaker.
/// A private headless PulseAudio carries the audio; a synthetic person answers each question
/// with espeak-ng into the virtual microphone, from the language's built-in scenario (or
/// `--scenario FILE`). The note is saved (without asking) to a temporary folder or --notes-dir.
enum DemoCommand {
    static let usage = """
    Usage: dialogue-memo demo [--lang ja|en|es|fr|de] [--scenario FILE] [--notes-dir DIR] [options]

    Runs a real spoken exchange on a private headless audio server, with a synthetic person
    answering by voice. Every engine is real: espeak-ng, PulseAudio, whisper.cpp, llama.cpp.
      --scenario FILE   the person's answers: {"answers": [{"text": "…", "speech": "…"}, …]}
                        (speech optional: what espeak-ng reads, kana for Japanese)
      --audio-server ADDRESS
                        use this PulseAudio server (it needs the sinks `speaker` and `micfeed`
                        and the source `mic`, as scripts/test-audio.sh makes) instead of a
                        private one — so a test can record what the demo played
      Other options as for `dialogue-memo talk` (--silence, --llm-model, --no-model, --events …).
    """

    static func run(_ arguments: [String]) async throws -> Int32 {
        var options = try Options.command(arguments, flags: TalkCommand.flags, values: TalkCommand.valued.union(["--scenario", "--audio-server"]), usage: usage)
        options.flags.insert("--yes")
        options.flags.remove("--type")
        if options.values["--lang"] == nil { options.values["--lang"] = "en" }
        if options.values["--notes-dir"] == nil {
            options.values["--notes-dir"] = FileManager.default.temporaryDirectory
                .appendingPathComponent("dialogue-memo-demo-notes").path
        }
        let screen = Screen()
        let setup: SessionSetup
        do { setup = try SessionSetup(options: options, screen: screen) } catch { printError("\(error)"); return 1 }
        let answers: [SpokenText]
        do { answers = try options.values["--scenario"].map(loadScenario) ?? setup.pack.demoAnswers }
        catch { printError("\(error)"); return 1 }

        var privateServer: PrivateAudioServer?
        defer { privateServer?.stop() }
        let address: String
        if let given = options.values["--audio-server"] {
            address = given
        } else {
            if (try? AudioServer(timeout: 1)) != nil {
                screen.hint("An audio server is running on this machine; the demo uses its own private one instead.")
            }
            do { privateServer = try PrivateAudioServer() } catch { printError("\(error)"); return 1 }
            address = privateServer!.address
            screen.hint("Private headless audio server started (pid \(privateServer!.pid.map(String.init) ?? "?")).")
        }
        screen.hint("A synthetic person answers in \(setup.pack.name).")

        do {
            let person = try SyntheticPerson(serverAddress: address, answers: answers, voice: setup.pack.voice)
            let voice = try await VoicePorts.open(setup: setup, options: options, serverAddress: address, person: person)
            return await ExchangeSession(setup: setup, voice: voice).run()
        } catch {
            printError("\(error)")
            return 1
        }
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

/// The demo's person: speaks the next scenario answer into the virtual microphone (`micfeed`)
/// a moment after the program starts listening, like someone who heard the question.
final class SyntheticPerson: @unchecked Sendable {
    private let lock = NSLock()
    private var remaining: [PCMBuffer]
    private let voice: Speaker
    private let server: AudioServer
    /// How long after listening starts the person begins to speak.
    static let reactionTime: Duration = .milliseconds(800)

    init(serverAddress: String, answers: [SpokenText], voice name: String) throws {
        remaining = try answers.map { try SpeechSynthesizer.shared.render($0.spoken, voice: name) }
        server = try AudioServer(server: serverAddress, applicationName: "dialogue-memo synthetic person")
        voice = try Speaker(server: server, device: "micfeed")
    }

    /// The last answer (the ending) is said again, up to twice, if the program asks on: as a
    /// person would repeat "that's all" when not understood (synthetic voices are sometimes
    /// misheard, e.g. Japanese いじょう as 移動).
    private var repeatsLeft = 2

    func speakNextAnswer() async throws {
        let next = lock.withLock { () -> PCMBuffer? in
            if remaining.count > 1 { return remaining.removeFirst() }
            guard let last = remaining.first, repeatsLeft > 0 else { return nil }
            repeatsLeft -= 1
            return last
        }
        guard let answer = next else { return }
        try await Task.sleep(for: Self.reactionTime)
        try await voice.play(answer, leadingSilence: 0)
    }
}
