import DialogueCore
import Foundation
import Notes
import Speech
import Transcription

/// `play ID`: the recording `record --keep-audio` kept beside a note, played as it was saved.
public struct RecordingPlayer: Sendable {
    public let path: String
    public let duration: Double
    let speaker: Speaker
    let buffer: PCMBuffer

    public struct NoRecording: Error, CustomStringConvertible {
        public let note: NoteFile
        public var description: String {
            "“\(UserText.terminalLine(note.title))” (\(note.id)) has no recording: only `dialogue-memo record --keep-audio` keeps one."
        }
    }

    /// Reads the note's WAV and opens the output (`output` nil: the server's default).
    public init(note: NoteFile, store: NotesStore, output: String?) throws {
        guard let path = store.audioPath(of: note) else { throw NoRecording(note: note) }
        let wav = try WAVFile(contentsOf: path)
        self.path = path
        duration = wav.duration
        buffer = PCMBuffer(sampleRate: wav.sampleRate,
                           samples: wav.monoSamples(at: wav.sampleRate).map { Int16(max(-1, min(1, $0)) * 32767) })
        speaker = try Speaker(server: try AudioServer(), device: output, sampleRate: wav.sampleRate)
    }

    public var deviceName: String { speaker.deviceName }

    /// Plays it to the end; cancelling the task stops the sound at once.
    public func play() async throws {
        try await speaker.play(buffer, leadingSilence: 0.1)
    }
}
