import Dialogue
import DialogueCore
import Foundation
import Synchronization
@testable import VoiceSession

/// Everything a session showed, as "kind: text" lines.
final class RecordingDisplay: SessionDisplay {
    private let shown = Mutex<[String]>([])
    var lines: [String] { shown.withLock { $0 } }
    private func add(_ kind: String, _ text: String) { shown.withLock { $0.append("\(kind): \(text)") } }
    func line(_ text: String) { add("line", text) }
    func question(_ text: String, number: Int, total: Int) { add("question", "\(text) (\(number)/\(total))") }
    func answer(_ text: String) { add("answer", text) }
    func notice(_ text: String) { add("notice", text) }
    func hint(_ text: String) { add("hint", text) }
    func error(_ text: String) { add("error", text) }
    func status(_ state: String, level: Float?, partial: String?) {
        add("status", state + (level.map { " \($0)" } ?? "") + (partial.map { " " + $0 } ?? ""))
    }
}

/// A private folder per test, removed afterwards by the caller.
struct Scratch {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("voice-session-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
    var notes: String { path + "/notes" }
    var journals: String { path + "/journals" }
    var events: String { path + "/events.jsonl" }

    /// The events file's lines, each parsed; a line that does not parse fails the caller.
    func eventLines() throws -> [[String: Any]] {
        let text = try String(contentsOfFile: events, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw CocoaError(.coderReadCorrupt)
            }
            return object
        }
    }

    func files(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }
}

/// Standard input for a session: `text` through a pipe, then the end of input.
func pipedInput(_ text: String) -> LineInput {
    var ends: [Int32] = [0, 0]
    precondition(pipe(&ends) == 0)
    let bytes = Array(text.utf8)
    precondition(write(ends[1], bytes, bytes.count) == bytes.count)
    close(ends[1])
    return LineInput(descriptor: ends[0])
}

/// A session context on scratch folders, rules only, with a recording display. `terminal`: a
/// person is taken to be at a terminal (the lines still come from `input`, or `lines`).
func makeContext(_ scratch: Scratch, language: Language = .english, yes: Bool = true, input: String = "",
                 display: RecordingDisplay = RecordingDisplay(), terminal: Bool = false,
                 lines: LineInput? = nil) throws -> SessionContext {
    var configuration = SessionConfiguration(language: language)
    configuration.languageModel = nil
    configuration.notesDirectory = scratch.notes
    configuration.journalDirectory = scratch.journals
    configuration.events = scratch.events
    configuration.saveWithoutAsking = yes
    return try SessionContext(configuration: configuration, display: display, input: lines ?? pipedInput(input), atTerminal: terminal)
}

/// Standard input that stays open until `close()`: lines are written to it as a person would
/// type them, and a prompt waiting on it can be ended only by an interrupt.
final class OpenInput: Sendable {
    let lines: LineInput
    private let writeEnd: Int32
    init() {
        var ends: [Int32] = [0, 0]
        precondition(pipe(&ends) == 0)
        lines = LineInput(descriptor: ends[0])
        writeEnd = ends[1]
    }
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        precondition(write(writeEnd, bytes, bytes.count) == bytes.count)
    }
    func close() { _ = Glibc.close(writeEnd) }
}

/// Says nothing.
struct SilentSpeaker: PromptSpeaking {
    func say(_ prompt: SpokenPrompt) async throws {}
}

/// Speaks every prompt at once but the second, on which it hangs until cancelled: the question
/// a person talks over (`GoingOnAnswers`).
final class SecondPromptHangs: PromptSpeaking {
    private let count = Mutex(0)
    func say(_ prompt: SpokenPrompt) async throws {
        let index = count.withLock { count in defer { count += 1 }; return count }
        if index == 1 { try await Task.sleep(for: .seconds(60)) }
    }
}

/// A person who answers the opening, goes on over the next question once, then says nothing.
final class GoingOnAnswers: ResumableAnswers {
    private let answered = Mutex(false), resumed = Mutex(false)
    func answer(to question: TurnQuestion) async throws -> AnswerOutcome {
        answered.withLock { answered in defer { answered = true }; return answered } ? .ended(partial: nil) : .answer("A tool library.")
    }
    func speechOverQuestion() async -> TalkOver? {
        // Over the question after the first answer, once.
        if answered.withLock({ $0 }), !resumed.withLock({ resumed in defer { resumed = true }; return resumed }) { return .goesOn }
        try? await Task.sleep(for: .seconds(60))
        return nil
    }
    func continueAnswer(to question: TurnQuestion,
                        early: @escaping @Sendable (AnswerSoFar) -> Task<Void, Never>) async throws -> AnswerOutcome {
        .answer("A tool library for my street.")
    }
}

/// Answers from a script; `onAnswer` runs before each (with the answer's index).
final class ScriptedAnswers: AnswerSource {
    private let script: Mutex<[AnswerOutcome]>
    let onAnswer: @Sendable (Int) -> Void
    private let count = Mutex(0)
    init(_ script: [AnswerOutcome], onAnswer: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.script = Mutex(script)
        self.onAnswer = onAnswer
    }
    func answer(to question: TurnQuestion) async throws -> AnswerOutcome {
        let index = count.withLock { count in defer { count += 1 }; return count }
        onAnswer(index)
        return script.withLock { $0.isEmpty ? .ended(partial: nil) : $0.removeFirst() }
    }
}

/// Strings appended from any task, in order.
final class Log: Sendable {
    private let entries = Mutex<[String]>([])
    func withLock<T>(_ body: (inout [String]) -> T) -> T { entries.withLock { body(&$0) } }
}
