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
                   #"the person's answers: {"answers": [{"text": "…", "speech": "…"}, …]} (speech optional: what espeak-ng reads, kana for Japanese; "[pause 1.5s]" in it pauses)"#,
                   .existingFile),
            .value("--audio-server ADDRESS", \.audioServer,
                   "use this PulseAudio server (it needs the sinks speaker and micfeed and the source mic, as scripts/test-audio.sh makes) instead of a private one"),
        ] + SessionArguments.declarations(typing: false, saving: false).within(\.session)
    }

    static func run(_ options: Arguments) async throws -> Int32 {
        var session = options.session
        session.configuration.saveWithoutAsking = true
        // The demo's server has its own devices: a configured microphone is not there.
        session.pinned = [SessionSetting.input.key, SessionSetting.output.key]
        if session[.language] == nil { session[.language] = Language.english.code }
        if session[.notesDirectory] == nil {
            session[.notesDirectory] = FileManager.default.temporaryDirectory.appendingPathComponent("dialogue-memo-demo-notes").path
        }
        let context = try session.context()
        let script = try options.scenario.map { DemoScript(answers: try SyntheticPerson.scenario($0)) } ?? context.pack.demo
        return try await DemoSession.run(context, script: script, audioServer: options.audioServer)
    }
}
