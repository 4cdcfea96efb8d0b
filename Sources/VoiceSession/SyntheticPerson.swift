import DialogueCore
import Foundation
import Speech
import Synchronization

/// The demo's person: speaks the next scenario answer into the virtual microphone (`micfeed`)
/// a moment after the program starts listening, like someone who heard the question.
public final class SyntheticPerson: Sendable {
    private struct Queue {
        var remaining: [PCMBuffer]
        /// The last answer (the ending) is said again, up to twice, if the program asks on: as
        /// a person would repeat "that's all" when not understood (synthetic voices are
        /// sometimes misheard, e.g. Japanese いじょう as 移動).
        var repeatsLeft = 2
    }
    private let queue: Mutex<Queue>
    private let voice: Speaker
    /// How long after listening starts the person begins to speak.
    static let reactionTime: Duration = .milliseconds(800)

    public init(serverAddress: String, answers: [SpokenText], voice name: String) throws {
        queue = Mutex(Queue(remaining: try answers.map { try SpeechSynthesizer.shared.render($0.spoken, voice: name) }))
        let server = try AudioServer(server: serverAddress, applicationName: "dialogue-memo synthetic person")
        voice = try Speaker(server: server, device: "micfeed")
    }

    func speakNextAnswer() async throws {
        let next = queue.withLock { queue -> PCMBuffer? in
            if queue.remaining.count > 1 { return queue.remaining.removeFirst() }
            guard let last = queue.remaining.first, queue.repeatsLeft > 0 else { return nil }
            queue.repeatsLeft -= 1
            return last
        }
        guard let answer = next else { return }
        try await Task.sleep(for: Self.reactionTime)
        try await voice.play(answer, leadingSilence: 0)
    }
}
