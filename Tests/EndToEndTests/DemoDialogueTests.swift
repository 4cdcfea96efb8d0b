import DialogueCore
import Foundation
import Testing

/// Full spoken dialogues through the real binary: espeak-ng, PulseAudio, whisper.cpp, llama.cpp.
/// Each runs on its own private headless server (scripts/test-audio.sh start), so nothing else
/// plays into its devices, and records `speaker.monitor` to hear what the program said.
@Suite("Demo dialogue in every language (real stack)", .serialized)
struct DemoDialogueTests {

    static var binary: String {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("dialogue-memo").path), dir.path != "/" {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("dialogue-memo").path
    }

    /// Runs a command and returns its standard output.
    @discardableResult
    static func shell(_ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.standardError
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Speech bursts in 16 kHz mono s16le: stretches above -40 dBFS separated by ≥ 0.3 s of quiet.
    static func bursts(in raw: Data) -> Int {
        let samples = raw.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        var count = 0, quietFrames = 100, loud = false
        for start in stride(from: 0, to: samples.count - 160, by: 160) {
            var sum = 0.0
            for s in samples[start..<start + 160] { sum += Double(s) * Double(s) }
            let rms = (sum / 160).squareRoot() / 32768
            if rms > 0.01 {
                if !loud && quietFrames >= 30 { count += 1 }
                loud = true; quietFrames = 0
            } else {
                loud = false; quietFrames += 1
            }
        }
        return count
    }

    @Test(arguments: ["en", "es", "fr", "de", "ja"])
    func aFullSpokenDialogue(language: String) throws {
        let audio = try PrivateTestServer()
        defer { audio.stop() }
        let vars = ["PULSE_SERVER": audio.address, "PULSE_COOKIE": audio.folder + "/cookie"]
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(language)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)

        // Record what the program plays, from before it starts until after it ends.
        let recording = work.appendingPathComponent("speaker.raw")
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        recorder.arguments = ["parecord", "-d", "speaker.monitor", "--raw", "--format=s16le", "--rate=16000",
                              "--channels=1", recording.path]
        recorder.environment = ProcessInfo.processInfo.environment.merging(vars) { $1 }
        try recorder.run()
        Thread.sleep(forTimeInterval: 0.3)

        let events = work.appendingPathComponent("events.jsonl").path
        let (demoStatus, output) = try Self.shell(
            [Self.binary, "demo", "--lang", language, "--audio-server", audio.address,
             "--events", events, "--notes-dir", work.appendingPathComponent("notes").path],
            environment: vars.merging(["XDG_STATE_HOME": work.appendingPathComponent("state").path,
                                       "OMP_WAIT_POLICY": "PASSIVE"]) { $1 })
        // SIGKILL: the test runner may ignore SIGINT and SIGTERM, and children inherit that.
        // The raw recording needs no closing.
        kill(recorder.processIdentifier, SIGKILL)
        recorder.waitUntilExit()
        print(output)
        #expect(demoStatus == 0, "\(output)")

        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let followUps = objects.filter { $0["event"] as? String == "question" && ($0["number"] as? Int ?? 0) >= 1 }
        #expect(followUps.count >= 2, "fewer than two follow-up questions")
        let answers = objects.filter { $0["event"] as? String == "answer" }.compactMap { $0["text"] as? String }
            .filter { !$0.isEmpty }
        let pack = try LanguagePackLoader().load(language)
        #expect(Rules(pack: pack).endSignal(in: answers.last ?? "") == .ending, "did not end by the spoken ending: \(answers)")
        let last = objects.last { $0["event"] as? String == "decision" }
        #expect(["ready", "stop"].contains(last?["choice"] as? String ?? ""))

        // Heard on speaker.monitor: the opening, every follow-up and the closing line.
        let heard = Self.bursts(in: try Data(contentsOf: recording))
        #expect(heard >= followUps.count + 2, "heard \(heard) prompts on speaker.monitor, expected ≥ \(followUps.count + 2)")

        // The note holds every transcribed sentence and nothing else in its body.
        let notesDir = work.appendingPathComponent("notes").path
        let files = try FileManager.default.contentsOfDirectory(atPath: notesDir)
        try #require(files.count == 1)
        let note = try String(contentsOfFile: notesDir + "/" + files[0], encoding: .utf8)
        let body = note.components(separatedBy: "\n---\n").last ?? ""
        let sentences = SentenceSplitter.sources(from: answers, language: language).map(\.text)
        var plainBody = body.replacingOccurrences(of: "\\", with: "")
        for sentence in sentences {
            #expect(plainBody.contains(sentence), "\(sentence) missing from\n\(note)")
            if let range = plainBody.range(of: sentence) { plainBody.removeSubrange(range) }
        }
        let leftover = plainBody.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && $0 != "-" && $0 != "#" && !$0.hasPrefix("# ") }
        #expect(leftover.isEmpty, "body text that is not the user's: \(leftover)")
    }
}
