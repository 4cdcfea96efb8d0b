import DialogueCore
import Foundation
import Speech
import Synchronization

/// The demo's person: speaks the answer to the question asked (`DemoScript`) into the virtual
/// microphone (`micfeed`) a moment after the program starts listening, like someone who heard
/// the question.
public final class SyntheticPerson: Sendable {
    /// Answers given so far.
    private let turn = Mutex(0)
    private let script: DemoScript
    private let voiceName: String
    private let voice: Speaker
    /// How long after listening starts the person begins to speak.
    static let reactionTime: Duration = .milliseconds(800)

    public init(serverAddress: String, script: DemoScript, voice name: String) throws {
        self.script = script
        voiceName = name
        // Rendered once here: a voice that cannot speak fails before the first question.
        if let idea = script.answers.first { _ = try SpeechSynthesizer.shared.render(idea.spoken, voice: name) }
        let server = try AudioServer(server: serverAddress, applicationName: "dialogue-memo synthetic person")
        voice = try Speaker(server: server, device: "micfeed")
    }

    func speakAnswer(to question: TurnQuestion) async throws {
        let next = turn.withLock { turn in
            defer { turn += 1 }
            return script.answer(to: question, turn: turn)
        }
        guard let answer = next else { return }
        let rendered = try SpeechSynthesizer.shared.render(answer.spoken, voice: voiceName)
        try await Task.sleep(for: Self.reactionTime)
        try await voice.play(rendered, leadingSilence: 0)
    }
}
