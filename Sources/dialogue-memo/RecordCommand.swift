import DialogueCore
import Foundation
import Options
import VoiceSession

/// `dialogue-memo record`: the plain voice note of a classic voice-notes app. No questions:
/// record until the person ends it, transcribe, and the note is the person's sentences with the
/// first one as the title when the title rule allows, and the key sentence and next steps.
enum RecordCommand {
    struct Arguments: ParsableOptions {
        static let command = "dialogue-memo record"
        static let about = """
        Records until you press a key or Ctrl-C, say that you are done ("that's all"), or stay
        silent for 8 s (--silence relaxed: 10 s, aggressive: 6 s; a thinking pause never ends it),
        transcribes, and opens the note in your editor before saving. No questions are asked.

        Example:
          dialogue-memo record --lang en --keep-audio
          dialogue-memo play 3f2a      # listen to it again
        """
        var session = SessionArguments(configuration: SessionConfiguration(language: .english))
        var keepAudio = false
        static let declarations: [Declaration<Self>] = [
            .flag("--keep-audio", \.keepAudio,
                  "also keep the recording as a WAV file beside the note (without it, your voice is never written to disk)"),
        ] + SessionArguments.declarations(typing: false, dropping: [.output, .overlap])
            .within(\.session)
    }

    static func run(_ options: Arguments) async throws -> Int32 {
        let context = try options.session.context()
        let session: RecordSession
        do {
            session = try RecordSession.open(context, keepAudio: options.keepAudio)
        } catch {
            printError("\(error)\nCheck the microphone and models with `dialogue-memo doctor`; without voice, `dialogue-memo talk --type` lets you type a memo.")
            return 1
        }
        return await session.run()
    }
}

/// `dialogue-memo play ID`: plays the recording kept beside a note.
enum PlayCommand {
    struct Arguments: ParsableOptions {
        static let command = "dialogue-memo play"
        static let about = "Plays the recording of a note made with `dialogue-memo record --keep-audio`. Ctrl-C stops."
        var id = ""
        var output: String?
        var folder = NotesCommands.Folder()
        static let declarations: [Declaration<Self>] = [
            .positional("ID", \.id, "any unique prefix of the note's id (see dialogue-memo list)"),
            .value("--output NAME", \.output, "PulseAudio sink (default: the server's default)"),
        ] + NotesCommands.Folder.declarations.within(\.folder)
    }

    static func run(_ options: Arguments) async throws -> Int32 {
        let note = try options.folder.store().note(id: options.id)
        let player = try RecordingPlayer(note: note, store: options.folder.store(), output: options.output)
        print("Playing \(String(format: "%.1f", player.duration)) s from \(player.path) on \(player.deviceName)… (Ctrl-C stops)")
        let playing = Task { try await player.play() }
        Interrupts().onInterrupt { _ in playing.cancel() }
        do { try await playing.value } catch is CancellationError { print("Stopped.") }
        return 0
    }
}
