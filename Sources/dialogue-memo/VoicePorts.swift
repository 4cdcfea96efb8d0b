import Dialogue
import DialogueCore
import Foundation

/// The voice half of an exchange: questions spoken through PulseAudio, answers heard and
/// transcribed. (Wired to Speech and Transcription.)
struct VoicePorts {
    let speaker: any PromptSpeaking
    let answers: any AnswerSource

    struct Unavailable: Error, CustomStringConvertible { var description: String }

    static func open(setup: SessionSetup, options: Options) async throws -> VoicePorts {
        throw Unavailable(description: "voice is not wired yet")
    }

    func close() async {}
}
