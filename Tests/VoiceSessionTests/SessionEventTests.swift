import Dialogue
import DialogueCore
import Foundation
import Speech
import Testing
@testable import VoiceSession

@Suite struct SessionEventTests {
    @Test func linesHaveTheEventNameTheTimeAndSortedFields() {
        #expect(SessionEvent.question(.choice(.problem), text: "What problem does it solve?", number: 2).jsonLine(at: 1.5)
                == #"{"event":"question","number":2,"question":"problem","t":1.5,"text":"What problem does it solve?"}"#)
        #expect(SessionEvent.noAnswer.jsonLine(at: 0) == #"{"event":"answer","noAnswer":true,"t":0,"text":""}"#)
        #expect(SessionEvent.decision(Decision(choice: .ready, source: .rules)).jsonLine(at: 2)
                == #"{"choice":"ready","event":"decision","source":"rules","t":2}"#)
        #expect(SessionEvent.decision(Decision(choice: .ready, source: .model, suggestion: .ready)).jsonLine(at: 2)
                == #"{"choice":"ready","event":"decision","source":"model","suggestion":"ready","t":2}"#)
        #expect(SessionEvent.transcribed(text: "a/b", speculative: true, speechEnd: 1.25, endpoint: 1.95).jsonLine(at: 3)
                == #"{"endpoint":1.95,"event":"transcribed","speculative":true,"speechEnd":1.25,"t":3,"text":"a/b"}"#)
        #expect(SessionEvent.transcribed(text: "x", speculative: nil, speechEnd: nil, endpoint: nil).jsonLine(at: 3)
                == #"{"event":"transcribed","t":3,"text":"x"}"#)
        #expect(SessionEvent.decided(milliseconds: 150, attempts: 1).jsonLine(at: 0) == #"{"attempts":1,"event":"decided","ms":150,"t":0}"#)
        #expect(SessionEvent.discarded.jsonLine(at: 0) == #"{"event":"discarded","t":0}"#)
        #expect(SessionEvent.endpoint(ending: .endOfSpeech).jsonLine(at: 1) == #"{"ending":"endOfSpeech","event":"endpoint","t":1}"#)
        #expect(SessionEvent.finished(reason: .noAnswer).jsonLine(at: 1) == #"{"event":"finished","reason":"noAnswer","t":1}"#)
        #expect(SessionEvent.layout(source: .fallback).jsonLine(at: 1) == #"{"event":"layout","source":"fallback","t":1}"#)
        #expect(SessionEvent.refused(scope: .everything).jsonLine(at: 1) == #"{"event":"refused","scope":"everything","t":1}"#)
        #expect(SessionEvent.question(.opening, text: "?", number: 0).jsonLine(at: 0)
                == #"{"event":"question","number":0,"question":"opening","t":0,"text":"?"}"#)
    }

    @Test func userTextIsEscapedAsJSON() throws {
        let line = SessionEvent.answer(text: "say \"hi\"\n\u{1B}[2J").jsonLine(at: 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["text"] as? String == "say \"hi\"\n\u{1B}[2J")
        #expect(!line.contains("\n"))
    }

    @Test func theEventsFileIsPrivateWhateverTheUmask() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let old = umask(0o022)
        defer { umask(old) }
        let fresh = scratch.path + "/fresh.jsonl"
        let log = try EventLog(destination: fresh)
        log.emit(.listening)
        #expect(try FileManager.default.attributesOfItem(atPath: fresh)[.posixPermissions] as? Int == 0o600)
        // An existing, world-readable file is emptied and made private.
        let existing = scratch.path + "/existing.jsonl"
        _ = FileManager.default.createFile(atPath: existing, contents: Data("old\n".utf8), attributes: [.posixPermissions: 0o644])
        let again = try EventLog(destination: existing)
        again.emit(.hearing)
        #expect(try FileManager.default.attributesOfItem(atPath: existing)[.posixPermissions] as? Int == 0o600)
        let text = try String(contentsOfFile: existing, encoding: .utf8)
        #expect(!text.contains("old"))
        #expect(text.hasPrefix(#"{"event":"hearing","t":"#))
    }

    /// One exchange's events: a first answer, decided; then a second one heard at a pause and
    /// refused (with `wentOn`, the second answer goes on from the first, over the next question).
    func writeExchange(refusing scope: RefusalScope, wentOn: Bool, to path: String) throws -> String {
        let log = try EventLog(destination: path)
        log.emit(.question(.opening, text: "What idea would you like to capture?", number: 0))
        log.emit(.partial(text: "A garden"))
        log.emit(.transcribed(text: "A garden on the roof.", speculative: false, speechEnd: 1, endpoint: 1.7))
        log.emit(.answer(text: "A garden on the roof."))
        log.emit(.decision(Decision(choice: .reason, source: .model, suggestion: .reason)))
        log.emit(.question(.choice(.reason), text: "Why does this matter to you?", number: 1))
        if wentOn { log.emit(.wentOn) }
        log.emit(.partial(text: "Because my neighbour"))
        log.emit(.transcribed(text: "Because my neighbour Tomasz is ill, don't record this.", speculative: true, speechEnd: 3, endpoint: 3.7))
        log.emit(.refused(scope: scope))
        log.emit(.finished(reason: .refused))
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// An ending the person took back by going on: the answer they went on with is the one
    /// before that ending's decision, so a refusal said in it takes all of it out.
    @Test func aRefusalAfterAnEndingTakenBackTakesTheWholeAnswerOut() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let log = try EventLog(destination: scratch.path + "/took-back.jsonl")
        log.emit(.answer(text: "A garden on the roof."))
        log.emit(.decision(Decision(choice: .reason, source: .model)))
        log.emit(.question(.choice(.reason), text: "Why does this matter to you?", number: 1))
        log.emit(.answer(text: "My neighbour Tomasz grows tomatoes."))
        log.emit(.decision(Decision(choice: .ready, source: .model)))
        log.emit(.tookBack)
        log.emit(.partial(text: "My neighbour Tomasz grows tomatoes, but don't record this."))
        log.emit(.refused(scope: .answer))
        let text = try String(contentsOfFile: scratch.path + "/took-back.jsonl", encoding: .utf8)
        #expect(!text.contains("Tomasz"), "\(text)")
        #expect(text.contains("A garden on the roof.") && text.contains(#""event":"tookBack""#))
    }

    @Test func aRefusalTakesTheRefusedWordsOutOfTheEventsFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let answer = try writeExchange(refusing: .answer, wentOn: false, to: scratch.path + "/answer.jsonl")
        #expect(!answer.contains("neighbour") && !answer.contains("Tomasz"))
        #expect(answer.contains("A garden on the roof."), "the answer before the refused one is kept")
        #expect(answer.contains(#""event":"refused""#) && answer.contains(#""event":"finished""#))
        #expect(answer.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 8)
        // Went on over the question: the refused answer began with the first one.
        let wentOn = try writeExchange(refusing: .answer, wentOn: true, to: scratch.path + "/went-on.jsonl")
        #expect(!wentOn.contains("garden") && !wentOn.contains("neighbour"))
        let everything = try writeExchange(refusing: .everything, wentOn: false, to: scratch.path + "/everything.jsonl")
        #expect(!everything.contains("garden") && !everything.contains("neighbour"))
        #expect(everything.contains("Why does this matter to you?"), "the program's own questions stay")
        // A refused exchange discarded at the review keeps no words at all, nor its note.
        let log = try EventLog(destination: scratch.path + "/discarded-again.jsonl")
        log.emit(.answer(text: "A garden on the roof."))
        log.emit(.decision(Decision(choice: .reason, source: .model)))
        log.emit(.refused(scope: .answer))
        log.emit(.note(markdown: "# Note\n\nA garden on the roof.\n"))
        log.emit(.discarded)
        let discarded = try String(contentsOfFile: scratch.path + "/discarded-again.jsonl", encoding: .utf8)
        #expect(!discarded.contains("garden") && discarded.contains(#""event":"discarded""#), "\(discarded)")
        // Discarding without a refusal is the person's choice about the note, not the log.
        let plain = try EventLog(destination: scratch.path + "/plain.jsonl")
        plain.emit(.answer(text: "A garden on the roof."))
        plain.emit(.discarded)
        #expect(try String(contentsOfFile: scratch.path + "/plain.jsonl", encoding: .utf8).contains("garden"))
    }

    @Test func anUnwritableEventsFileNamesThePath() throws {
        #expect(throws: EventLog.OpenError.self) { try EventLog(destination: "/nonexistent-folder/events.jsonl") }
        do { _ = try EventLog(destination: "/nonexistent-folder/events.jsonl") } catch {
            #expect("\(error)".contains("/nonexistent-folder/events.jsonl"))
        }
    }
}
