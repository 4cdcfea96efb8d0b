import DialogueCore
import Foundation
import Speech
import VoiceSession

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
        let options = try Options.command(arguments, flags: TalkCommand.flags, values: TalkCommand.valued.union(["--scenario", "--audio-server"]), usage: usage)
        var rest = options
        rest.values["--scenario"] = nil
        rest.values["--audio-server"] = nil
        let context = try SessionConfiguration.command(rest, usage: usage) { configuration in
            configuration.saveWithoutAsking = true
            configuration.typing = false
            if options.values["--lang"] == nil { configuration.language = "en" }
            if options.values["--notes-dir"] == nil {
                configuration.notesDirectory = FileManager.default.temporaryDirectory
                    .appendingPathComponent("dialogue-memo-demo-notes").path
            }
        }
        let display = context.display
        let answers: [SpokenText]
        do { answers = try options.values["--scenario"].map(loadScenario) ?? context.pack.demoAnswers }
        catch { printError("\(error)"); return 1 }

        var privateServer: PrivateAudioServer?
        defer { privateServer?.stop() }
        let address: String
        if let given = options.values["--audio-server"] {
            address = given
        } else {
            if (try? AudioServer(timeout: 1)) != nil {
                display.hint("An audio server is running on this machine; the demo uses its own private one instead.")
            }
            do { privateServer = try PrivateAudioServer() } catch { printError("\(error)"); return 1 }
            address = privateServer!.address
            display.hint("Private headless audio server started (pid \(privateServer!.pid.map(String.init) ?? "?")).")
        }
        display.hint("A synthetic person answers in \(context.pack.name).")

        do {
            let session = context.with { $0.audioServer = address }
            let person = try SyntheticPerson(serverAddress: address, answers: answers, voice: session.pack.voice)
            let voice = try await VoicePorts.open(session, person: person)
            return await ExchangeSession(context: session, voice: voice).run()
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

