import DialogueCore
import Foundation
import Testing

/// A person who pauses mid-thought longer than the silence that ends an answer, then goes on
/// while the next question plays: the real program, on its private server, must stop the
/// question and keep every word of both parts in one answer. espeak-ng never pauses by itself;
/// the scenario's "[pause 1.6s]" makes the pause. The fixed 0.7 s silence forces the cut-off.
@Suite("Going on over the next question (real stack)")
struct GoingOnDemoTests {
    static let before = "I want to build a small app for sharing tools"
    static let after = "with my neighbors, so nobody has to buy a ladder they use once."

    @Test func aPersonWhoGoesOnLosesNoWord() async throws {
        try await Lanes.spokenDialogues.run { try await Self.goOn() }
    }

    /// The rules end the exchange on their own (four questions asked, no model); the person
    /// had only paused and goes on over the closing line: it stops, the ending is taken back,
    /// and the answer is heard on whole. Without the take-back the words after the pause are lost.
    @Test func aPersonWhoGoesOnOverTheClosingLineTakesTheEndingBack() async throws {
        try await Lanes.spokenDialogues.run { try await Self.takeBack() }
    }

    static let paused = "The first version only needs a list of tools"
    static let resumed = "and a phone number for every neighbor."

    static func takeBack() async throws {
        let answers = ["answers": [["text": "I want a small app for sharing tools on my street."],
                                   ["text": "Most people need a drill once a year."],
                                   ["text": "Renting one costs too much."],
                                   ["text": "I would start with my own building."],
                                   ["text": paused + " " + resumed, "speech": paused + " [pause 2.5s] " + resumed]]]
        let (names, note, log) = try await runDemo(answers, arguments: ["--no-model"])
        #expect(names.contains("tookBack"), "the person's going on over the closing line was not noticed:\n\(log)")
        #expect(note.contains("ended: \"rulesChoseReady\""), "\(note)")
        let words = { (text: String) in text.lowercased().split { !$0.isLetter }.map(String.init).filter { $0.count >= 4 } }
        let noteWords = Set(words(note))
        let heardAfter = words(resumed).filter(noteWords.contains).count
        print("taking the ending back: \(heardAfter)/\(words(resumed).count) words after the pause in the note")
        #expect(heardAfter * 2 >= words(resumed).count, "the words said over the closing line were lost:\n\(note)")
        // One answer, not two: the last answer the program took in holds both parts.
        let taken = log.split(separator: "\n").compactMap { line -> String? in
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  event["event"] as? String == "answer" else { return nil }
            return event["text"] as? String
        }
        #expect(taken.count == 6 && taken.last?.lowercased().contains("version") == true
                    && taken.last?.lowercased().contains("phone") == true, "\(taken)")
    }

    /// Runs the English demo with the fixed silence on a private server: the events' names, the
    /// saved note and the events file.
    static func runDemo(_ answers: [String: Any], arguments: [String] = []) async throws -> ([String], String, String) {
        let audio = try PrivateTestServer()
        defer { audio.stop() }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("going-on-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let scenario = work.appendingPathComponent("scenario.json")
        try JSONSerialization.data(withJSONObject: answers).write(to: scenario)
        let events = work.appendingPathComponent("events.jsonl").path
        let notes = work.appendingPathComponent("notes").path
        let (status, output) = try await DemoDialogueTests.shell(
            [DemoDialogueTests.binary, "demo", "--lang", "en", "--audio-server", audio.address,
             "--scenario", scenario.path, "--notes-dir", notes, "--events", events] + arguments,
            environment: ["PULSE_SERVER": audio.address, "PULSE_COOKIE": audio.folder + "/cookie",
                          "XDG_STATE_HOME": work.appendingPathComponent("state").path,
                          "DIALOGUE_MEMO_FIXED_SILENCE": "true", "OMP_WAIT_POLICY": "PASSIVE"])
        print(output)
        #expect(status == 0)
        let log = try String(contentsOfFile: events, encoding: .utf8)
        let names = log.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["event"] as? String
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: notes)
        try #require(files.count == 1)
        return (names, try String(contentsOfFile: notes + "/" + files[0], encoding: .utf8), log)
    }

    static func goOn() async throws {
        let answers = ["answers": [["text": before + " " + after, "speech": before + " [pause 1.6s] " + after],
                                   ["text": "Most people only need a drill once or twice a year."],
                                   ["text": "I think that's all for now."]]]
        let (names, note, log) = try await runDemo(answers)
        // Cut off at the pause, then heard on: the question after it was stopped.
        let firstEndpoint = try #require(names.firstIndex(of: "endpoint"))
        let wentOn = try #require(names.firstIndex(of: "wentOn"), "the person's going on was not noticed:\n\(log)")
        #expect(firstEndpoint < wentOn && names[..<wentOn].filter { $0 == "question" }.count == 2,
                "the cut-off was not followed by the stopped question")
        let words = { (text: String) in text.lowercased().split { !$0.isLetter }.map(String.init).filter { $0.count >= 4 } }
        let noteWords = Set(words(note))
        // Both parts are in the note, in the same paragraph (one answer, not two).
        let heardBefore = words(before).filter(noteWords.contains).count, heardAfter = words(after).filter(noteWords.contains).count
        print(String(format: "going on: %d/%d words before the pause, %d/%d after it, in the note",
                     heardBefore, words(before).count, heardAfter, words(after).count))
        // whisper hears espeak-ng's "a ladder they use once" badly: 3 to 5 of its 6 words came
        // through in five runs (the fewest on a loaded machine); with the question not stopped, 1.
        #expect(heardAfter * 3 >= words(after).count, "the words said over the question were lost:\n\(note)")
        #expect(heardBefore * 10 >= words(before).count * 5, "the words before the pause were lost:\n\(note)")
        let paragraph = note.components(separatedBy: "\n\n").first { $0.lowercased().contains("neighbo") }
        #expect(paragraph?.lowercased().contains("tools") == true, "the two parts were kept as two answers:\n\(note)")
    }
}
