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
    /// The answer being spoken: it goes on after the program stopped listening (a person who
    /// paused and talks over the next question), until the next answer begins. (Awaiting it
    /// instead left the next answer waiting on a slow drain under load: it came too late.)
    private let speaking = Mutex<Task<Void, Error>?>(nil)
    /// How long after listening starts the person begins to speak.
    static let reactionTime: Duration = .milliseconds(800)

    public init(serverAddress: String, script: DemoScript, voice name: String) throws {
        self.script = script
        voiceName = name
        // Rendered once here: a voice that cannot speak fails before the first question.
        if let idea = script.answers.first { _ = try Self.render(idea.spoken, voice: name) }
        let server = try AudioServer(server: serverAddress, applicationName: "dialogue-memo synthetic person")
        voice = try Speaker(server: server, device: "micfeed")
    }

    func speakAnswer(to question: TurnQuestion) async throws {
        let next = turn.withLock { turn in
            defer { turn += 1 }
            return script.answer(to: question, turn: turn)
        }
        guard let answer = next else { return }
        let rendered = try Self.render(answer.spoken, voice: voiceName)
        let voice = self.voice
        let task = speaking.withLock { speaking in
            speaking?.cancel()
            let task = Task {
                try await Task.sleep(for: Self.reactionTime)
                try await voice.play(rendered, leadingSilence: 0)
            }
            speaking = task
            return task
        }
        try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
    }

    /// The program heard sound but no words (`AnswerOutcome.unclear`) and asks the same
    /// question again: a person says the same thing again, not their next line.
    func sayItAgain() { turn.withLock { $0 = max(0, $0 - 1) } }

    /// `spoken` as one buffer; a "[pause 1.5s]" in it is that much silence, so the person can
    /// pause mid-thought as people do (espeak-ng never does).
    static func render(_ spoken: String, voice: String) throws -> PCMBuffer {
        var pieces: [PCMBuffer] = []
        var rest = Substring(spoken)
        while let marker = rest.firstMatch(of: /\[pause ([0-9]+(?:\.[0-9]+)?) ?s\]/) {
            let before = rest[..<marker.range.lowerBound].trimmingCharacters(in: .whitespaces)
            if !before.isEmpty { pieces.append(try SpeechSynthesizer.shared.render(before, voice: voice)) }
            let rate = pieces.last?.sampleRate ?? 22_050
            pieces.append(PCMBuffer(sampleRate: rate, samples: []).withLeadingSilence(seconds: Double(marker.1) ?? 0))
            rest = rest[marker.range.upperBound...]
        }
        let last = rest.trimmingCharacters(in: .whitespaces)
        if !last.isEmpty { pieces.append(try SpeechSynthesizer.shared.render(last, voice: voice)) }
        let rate = pieces.first?.sampleRate ?? 22_050
        return PCMBuffer(sampleRate: rate, samples: pieces.flatMap(\.samples))
    }
}
