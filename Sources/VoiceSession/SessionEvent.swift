import Dialogue
import DialogueCore
import Foundation
import Speech
import Synchronization

/// Every step of a session as `--events` writes it: one JSON object per line, with its name
/// in `event` and the seconds since start in `t`, keys sorted. Typed, so a field cannot be
/// misspelled in one place and scripts (the benchmark) can rely on the shape; the enums in it
/// become their names only when a line is written.
public enum SessionEvent: Sendable, Equatable {
    case question(TurnQuestion, text: String, number: Int)
    case listening
    case hearing
    case level(dbfs: Double)
    case pause(seconds: Double)
    case resumed
    /// The person went on with their answer over the next question, which was stopped.
    case wentOn
    /// The person answered a question while it played; it was stopped.
    case talkedOver
    /// The person went on after an ending that no rule forced: it was dropped.
    case tookBack
    /// Sound without words: the question is asked once more.
    case unclear
    /// The transcript at a pause was read: how finished it sounds, and the silence now awaited.
    case turnRead(completion: Double?, hangover: Double)
    case endpoint(ending: AnswerEnding)
    case decidingEarly
    /// The answer so far, as transcribed at a pause (what the status line shows live).
    case partial(text: String)
    /// `speechEnd`/`endpoint` are audio offsets in seconds; nil in `record`.
    case transcribed(text: String, speculative: Bool?, speechEnd: Double?, endpoint: Double?)
    case answer(text: String)
    case noAnswer
    case decided(milliseconds: Int, attempts: Int)
    case decision(Decision)
    case finished(reason: EndReason)
    case laidOut(milliseconds: Int, attempts: Int)
    case layout(source: LayoutSource)
    /// The note waits for the answers' final transcripts: `done` of `total` are ready.
    case finishingTranscript(done: Int, total: Int)
    /// The answer of `turn` (0 is the opening's) as the note holds it: its final transcript.
    case finalAnswer(turn: Int, text: String)
    /// The next steps and key sentence were decided (by the model, or its fallback).
    case highlighted(milliseconds: Int, attempts: Int)
    case note(markdown: String)
    case saved(path: String)
    case audio(path: String)
    case discarded
    case error(message: String)
    /// The person refused to be recorded (the refused words are in no event after this).
    case refused(scope: RefusalScope)

    public var name: String {
        switch self {
        case .question: "question"
        case .listening: "listening"
        case .hearing: "hearing"
        case .level: "level"
        case .pause: "pause"
        case .resumed: "resumed"
        case .wentOn: "wentOn"
        case .talkedOver: "talkedOver"
        case .tookBack: "tookBack"
        case .unclear: "unclear"
        case .turnRead: "turnRead"
        case .endpoint: "endpoint"
        case .decidingEarly: "decidingEarly"
        case .partial: "partial"
        case .transcribed: "transcribed"
        case .answer, .noAnswer: "answer"
        case .decided: "decided"
        case .decision: "decision"
        case .finished: "finished"
        case .laidOut: "laidOut"
        case .layout: "layout"
        case .finishingTranscript: "finishingTranscript"
        case .finalAnswer: "finalAnswer"
        case .highlighted: "highlighted"
        case .note: "note"
        case .saved: "saved"
        case .audio: "audio"
        case .discarded: "discarded"
        case .error: "error"
        case .refused: "refused"
        }
    }
}

extension SessionEvent {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The event's own fields (not `event` and `t`).
    func encodeFields(into container: inout KeyedEncodingContainer<Key>) throws {
        switch self {
        case .question(let question, let text, let number):
            try container.encode(question.name, forKey: Key("question"))
            try container.encode(text, forKey: Key("text"))
            try container.encode(number, forKey: Key("number"))
        case .level(let dbfs): try container.encode(dbfs, forKey: Key("dbfs"))
        case .pause(let seconds): try container.encode(seconds, forKey: Key("seconds"))
        case .endpoint(let ending): try container.encode(ending.rawValue, forKey: Key("ending"))
        case .turnRead(let completion, let hangover):
            try container.encodeIfPresent(completion.map { ($0 * 100).rounded() / 100 }, forKey: Key("completion"))
            try container.encode(hangover, forKey: Key("hangover"))
        case .transcribed(let text, let speculative, let speechEnd, let endpoint):
            try container.encode(text, forKey: Key("text"))
            try container.encodeIfPresent(speculative, forKey: Key("speculative"))
            try container.encodeIfPresent(speechEnd, forKey: Key("speechEnd"))
            try container.encodeIfPresent(endpoint, forKey: Key("endpoint"))
        case .answer(let text), .partial(let text): try container.encode(text, forKey: Key("text"))
        case .noAnswer:
            try container.encode("", forKey: Key("text"))
            try container.encode(true, forKey: Key("noAnswer"))
        case .decided(let milliseconds, let attempts), .laidOut(let milliseconds, let attempts),
             .highlighted(let milliseconds, let attempts):
            try container.encode(milliseconds, forKey: Key("ms"))
            try container.encode(attempts, forKey: Key("attempts"))
        case .decision(let decision):
            try container.encode(decision.choice.rawValue, forKey: Key("choice"))
            try container.encode(decision.source.rawValue, forKey: Key("source"))
            try container.encodeIfPresent(decision.suggestion?.rawValue, forKey: Key("suggestion"))
        case .finished(let reason): try container.encode(reason.rawValue, forKey: Key("reason"))
        case .layout(let source): try container.encode(source.rawValue, forKey: Key("source"))
        case .finishingTranscript(let done, let total):
            try container.encode(done, forKey: Key("done"))
            try container.encode(total, forKey: Key("total"))
        case .finalAnswer(let turn, let text):
            try container.encode(turn, forKey: Key("turn"))
            try container.encode(text, forKey: Key("text"))
        case .note(let markdown): try container.encode(markdown, forKey: Key("markdown"))
        case .saved(let path), .audio(let path): try container.encode(path, forKey: Key("path"))
        case .error(let message): try container.encode(message, forKey: Key("message"))
        case .refused(let scope): try container.encode(scope.rawValue, forKey: Key("scope"))
        case .listening, .hearing, .resumed, .wentOn, .talkedOver, .tookBack, .unclear, .decidingEarly, .discarded: break
        }
    }

    /// The JSON line's object: the fields, `event` and `t`.
    struct Line: Encodable {
        let event: SessionEvent
        let seconds: Double

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try event.encodeFields(into: &container)
            try container.encode(event.name, forKey: Key("event"))
            try container.encode(seconds, forKey: Key("t"))
        }
    }

    /// The JSON line (without its newline), for `seconds` since start.
    public func jsonLine(at seconds: Double) -> String {
        JSONLine.encode(Line(event: self, seconds: seconds))
    }
}

/// `--events FILE|-`: the session's events as JSON lines, with a time in seconds since start,
/// so scripts and benchmarks can follow a dialogue from outside. The file holds the whole
/// transcript, so it is created private (0600), whatever the umask, and a refusal takes the
/// refused words back out of it ("don't record this" leaves no trace on disk). Standard output
/// cannot take back what it printed.
public final class EventLog: Sendable {
    private struct Output {
        var handle: FileHandle?
        /// What a file holds so far, to write it again without the refused words.
        var written: [(event: SessionEvent, line: String)]?
    }
    private let output: Mutex<Output>
    private let start = Date()

    public struct OpenError: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "cannot write the events file \(path): \(reason). Choose another path with --events." }
    }

    /// No destination: events are dropped.
    public init(destination: String?) throws {
        guard let destination else { output = Mutex(Output()); return }
        if destination == "-" { output = Mutex(Output(handle: .standardOutput)); return }
        let descriptor = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw OpenError(path: destination, reason: String(cString: strerror(errno))) }
        // An existing file keeps its old mode on open: make it private too.
        fchmod(descriptor, 0o600)
        output = Mutex(Output(handle: FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), written: []))
    }

    public func emit(_ event: SessionEvent) {
        let seconds = (Date().timeIntervalSince(start) * 1000).rounded() / 1000
        let line = event.jsonLine(at: seconds) + "\n"
        output.withLock { output in
            guard let handle = output.handle else { return }
            if var written = output.written, let everything = SessionEvent.takesBackWords(event, after: written.map(\.event)) {
                written = SessionEvent.withoutRefusedWords(written, everything: everything)
                try? handle.truncate(atOffset: 0)
                handle.write(Data(written.map(\.line).joined().utf8))
                output.written = written
            }
            output.written?.append((event, line))
            handle.write(Data(line.utf8))
        }
    }
}

extension SessionEvent {
    /// An event that holds what the person said.
    var holdsWords: Bool {
        switch self {
        case .partial, .transcribed, .answer, .finalAnswer, .note: true
        default: false
        }
    }

    /// Whether `event`, logged after `earlier`, takes words back out of the log, and whether all
    /// of them: a refusal takes its own scope's; discarding a refused exchange takes them all
    /// (the person refused to be recorded, then kept nothing), nil otherwise.
    static func takesBackWords(_ event: SessionEvent, after earlier: [SessionEvent]) -> Bool? {
        switch event {
        case .refused(let scope): scope == .everything
        case .discarded: earlier.contains { if case .refused = $0 { true } else { false } } ? true : nil
        default: nil
        }
    }

    /// `events` without the words of the refused answer (the one after the last decision; an
    /// answer the person went on with over the next question began before the decision before
    /// it), or without any words of the person when the refusal covers `everything`.
    static func withoutRefusedWords<Line>(_ events: [(event: SessionEvent, line: Line)], everything: Bool) -> [(event: SessionEvent, line: Line)] {
        var answerStart = 0, wentOn = 0
        if !everything {
            for index in events.indices.reversed() {
                switch events[index].event {
                case .wentOn, .tookBack: wentOn += 1
                default: break
                }
                if case .decision = events[index].event {
                    if wentOn == 0 { answerStart = index + 1; break }
                    wentOn -= 1
                }
            }
        }
        return events.enumerated().filter { $0.offset < answerStart || !$0.element.event.holdsWords }.map(\.element)
    }
}
