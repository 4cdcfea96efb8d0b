import Foundation
import Testing
@testable import VoiceSession

@Suite struct SessionEventTests {
    @Test func linesHaveTheEventNameTheTimeAndSortedFields() {
        #expect(SessionEvent.question(name: "problem", text: "What problem does it solve?", number: 2).jsonLine(at: 1.5)
                == #"{"event":"question","number":2,"question":"problem","t":1.5,"text":"What problem does it solve?"}"#)
        #expect(SessionEvent.noAnswer.jsonLine(at: 0) == #"{"event":"answer","noAnswer":true,"t":0,"text":""}"#)
        #expect(SessionEvent.decision(choice: "ready", source: "rules", suggestion: nil).jsonLine(at: 2)
                == #"{"choice":"ready","event":"decision","source":"rules","t":2}"#)
        #expect(SessionEvent.decision(choice: "ready", source: "model", suggestion: "ready").jsonLine(at: 2)
                == #"{"choice":"ready","event":"decision","source":"model","suggestion":"ready","t":2}"#)
        #expect(SessionEvent.transcribed(text: "a/b", speculative: true, speechEnd: 1.25, endpoint: 1.95).jsonLine(at: 3)
                == #"{"endpoint":1.95,"event":"transcribed","speculative":true,"speechEnd":1.25,"t":3,"text":"a/b"}"#)
        #expect(SessionEvent.transcribed(text: "x", speculative: nil, speechEnd: nil, endpoint: nil).jsonLine(at: 3)
                == #"{"event":"transcribed","t":3,"text":"x"}"#)
        #expect(SessionEvent.decided(milliseconds: 150, attempts: 1).jsonLine(at: 0) == #"{"attempts":1,"event":"decided","ms":150,"t":0}"#)
        #expect(SessionEvent.discarded.jsonLine(at: 0) == #"{"event":"discarded","t":0}"#)
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

    @Test func anUnwritableEventsFileNamesThePath() throws {
        #expect(throws: EventLog.OpenError.self) { try EventLog(destination: "/nonexistent-folder/events.jsonl") }
        do { _ = try EventLog(destination: "/nonexistent-folder/events.jsonl") } catch {
            #expect("\(error)".contains("/nonexistent-folder/events.jsonl"))
        }
    }
}
