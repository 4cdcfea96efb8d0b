import DialogueCore
import Foundation
import Speech
import Testing
import Transcription

/// The real binary in voice mode on a private headless server: `record` (with `--keep-audio`
/// and `play`), and ending a spoken exchange with a key press or Ctrl-C. The "person" speaks
/// into `micfeed` with espeak-ng; the terminal is a real pseudo-terminal, so the key watch runs
/// exactly as it does for a person.
@Suite("Voice commands through the real binary", .serialized)
struct VoiceCommandTests {
    /// One `dialogue-memo` process with a pseudo-terminal as standard input, its events in a file
    /// and a scripted editor that keeps a copy of what it was given.
    final class VoiceRun: @unchecked Sendable {
        let audio: PrivateTestServer
        let folder: URL
        let process = Process()
        let output = Pipe()
        let terminal: Int32
        let person: Speaker
        var events: String { folder.appendingPathComponent("events.jsonl").path }
        var notesDir: String { folder.appendingPathComponent("notes").path }
        var editorCopy: String { folder.appendingPathComponent("editor-saw.md").path }
        var environment: [String: String]

        init(_ arguments: [String], extraEnvironment: [String: String] = [:]) throws {
            audio = try PrivateTestServer()
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("voice-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let editor = folder.appendingPathComponent("editor.sh")
            try "#!/bin/sh\ncp \"$1\" \(folder.path)/editor-saw.md\n".write(to: editor, atomically: true, encoding: .utf8)
            chmod(editor.path, 0o755)

            // A pseudo-terminal pair the Linux way (the POSIX helpers are not imported into Swift):
            // open the multiplexer, unlock the pair (TIOCSPTLCK), ask its number (TIOCGPTN).
            terminal = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            var unlock: Int32 = 0, number: Int32 = 0
            guard terminal >= 0, ioctl(terminal, 0x4004_5431, &unlock) == 0, ioctl(terminal, 0x8004_5430, &number) == 0 else {
                throw Failure("no pseudo-terminal: \(String(cString: strerror(errno)))")
            }
            let pts = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
            guard pts >= 0 else { throw Failure("cannot open /dev/pts/\(number)") }

            environment = ProcessInfo.processInfo.environment.merging([
                "PULSE_SERVER": audio.address, "PULSE_COOKIE": audio.folder + "/cookie",
                "EDITOR": editor.path, "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
                "OMP_WAIT_POLICY": "PASSIVE", "NO_COLOR": "1",
            ]) { $1 }
            environment["VISUAL"] = nil
            environment.merge(extraEnvironment) { $1 }
            process.executableURL = URL(fileURLWithPath: DemoDialogueTests.binary)
            process.arguments = arguments + ["--events", folder.appendingPathComponent("events.jsonl").path,
                                             "--notes-dir", folder.appendingPathComponent("notes").path]
            process.environment = environment
            process.standardInput = FileHandle(fileDescriptor: pts, closeOnDealloc: true)
            process.standardOutput = output
            process.standardError = output
            person = try Speaker(server: try AudioServer(server: audio.address), device: "micfeed")
            try process.run()
        }

        /// Lines of the event log, as objects.
        var eventObjects: [[String: Any]] {
            ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").split(separator: "\n")
                .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }

        func count(_ event: String) -> Int { eventObjects.filter { $0["event"] as? String == event }.count }

        /// Waits (up to `seconds`) until the program has logged `event` `times` times.
        func waitFor(_ event: String, times: Int = 1, seconds: Double = 120) throws {
            let deadline = Date().addingTimeInterval(seconds)
            while count(event) < times {
                guard process.isRunning, Date() < deadline else {
                    throw Failure("no \(times)× \"\(event)\" event; events: \(eventObjects.map { $0["event"] ?? "" })")
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }

        func say(_ text: String) async throws {
            try await person.play(try SpeechSynthesizer.shared.render(text, voice: "en-us"), leadingSilence: 0)
        }

        func press(_ keys: String) { _ = keys.utf8CString.withUnsafeBufferPointer { write(terminal, $0.baseAddress, keys.utf8.count) } }

        /// A spoken exchange (rules only) whose opening is answered with `answer`; returns once
        /// the program listens for the second answer.
        static func talkAnsweringTheOpening(_ answer: String) async throws -> VoiceRun {
            let run = try VoiceRun(["talk", "--lang", "en", "--input", "mic", "--output", "speaker", "--no-model"])
            try run.waitFor("listening")
            try await run.say(answer)
            try run.waitFor("answer")
            try run.waitFor("listening", times: 2)
            return run
        }

        /// Waits for the note to reach the scripted editor, then answers the review prompt: save.
        func saveAfterEditing() async throws {
            try waitFor("note")
            let deadline = Date().addingTimeInterval(30)
            while !FileManager.default.fileExists(atPath: editorCopy) && Date() < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
            try await Task.sleep(for: .milliseconds(300))
            press("s\n")
        }

        func finish(seconds: Double = 120) -> (status: Int32, output: String) {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let text = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            close(terminal)
            audio.stop()
            return (process.terminationStatus, text)
        }

        var notes: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: notesDir)) ?? []).sorted().map { notesDir + "/" + $0 }
        }
    }

    /// The best Pearson correlation of two recordings' 10 ms loudness envelopes over shifts of
    /// up to 2 s (played audio starts later than the file and went through resampling).
    static func envelopeCorrelation(_ a: [Float], _ b: [Float]) -> Double {
        func envelope(_ x: [Float]) -> [Double] {
            stride(from: 0, to: x.count - 160, by: 160).map { start in
                (x[start..<(start + 160)].reduce(0) { $0 + Double($1 * $1) } / 160).squareRoot()
            }
        }
        let ea = envelope(a), eb = envelope(b)
        func pearson(_ x: ArraySlice<Double>, _ y: ArraySlice<Double>) -> Double {
            let n = Double(x.count), mx = x.reduce(0, +) / n, my = y.reduce(0, +) / n
            var sxy = 0.0, sxx = 0.0, syy = 0.0
            for (u, v) in zip(x, y) { sxy += (u - mx) * (v - my); sxx += (u - mx) * (u - mx); syy += (v - my) * (v - my) }
            return sxx > 0 && syy > 0 ? sxy / (sxx * syy).squareRoot() : 0
        }
        var best = 0.0
        for shift in -200...200 {
            let start = max(0, -shift), end = min(ea.count, eb.count - shift)
            guard end - start > 100 else { continue }
            best = max(best, pearson(ea[start..<end], eb[(start + shift)..<(end + shift)]))
        }
        return best
    }

    /// How many of `words` whisper wrote (espeak-ng's voice is not always heard word for word).
    static func heard(_ words: [String], in text: String) -> Int {
        words.filter { text.lowercased().contains($0) }.count
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test func recordKeepsTheAudioOnlyWhenAskedAndPlayPlaysIt() async throws {
        let run = try VoiceRun(["record", "--lang", "en", "--input", "mic", "--silence", "default", "--keep-audio", "--yes"])
        try run.waitFor("listening")
        try await Task.sleep(for: .milliseconds(500))
        try await run.say("Buy a new bike lamp. The old one broke last week on the way home from work.")
        let result = run.finish()
        #expect(result.status == 0, "\(result.output)")

        let markdown = try #require(run.notes.first { $0.hasSuffix(".md") }, "no note in \(run.notes)")
        let note = try String(contentsOfFile: markdown, encoding: .utf8)
        let title = note.components(separatedBy: "\n").first { $0.hasPrefix("# ") } ?? ""
        // The short first sentence is the title when whisper heard it as a sentence of its own
        // ("Buy a new bike lamp."); heard as one long sentence ("By a new bike ramp, the old
        // one broke…"), the generic title is right.
        if title.contains("Memo from") {
            let lines = note.components(separatedBy: "\n")
            let body = lines.drop { !$0.hasPrefix("# ") }.dropFirst().first { !$0.isEmpty } ?? ""
            let heard = SentenceSplitter.sentences(in: body, language: "en")
            #expect(heard.count < 2 || !NoteTitle.isShort(heard[0]), "a short first sentence is not the title:\n\(note)")
        } else {
            // The title is the first sentence as whisper heard it ("Buy a new bike lamp.", or a
            // mishearing of it), short.
            let heard = try #require(run.eventObjects.last { $0["event"] as? String == "transcribed" }?["text"] as? String)
            let first = SentenceSplitter.sentences(in: heard, language: "en").first ?? ""
            #expect(NoteTitle.isShort(String(title.dropFirst(2))) && first.hasPrefix(String(title.dropFirst(2)).trimmingCharacters(in: .punctuationCharacters)),
                    "the title is not the first sentence:\n\(note)")
        }
        #expect(Self.heard(["broke", "week", "home", "work"], in: note) >= 2, "\(note)")
        #expect(note.contains("layout: \"recording\""))
        let wav = String(markdown.dropLast(3)) + ".wav"
        let attributes = try FileManager.default.attributesOfItem(atPath: wav)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect((attributes[.size] as? Int ?? 0) > 16_000 * 2 * 3, "the WAV holds the whole recording (> 3 s)")

        // play: what comes out of the speaker is the recording.
        let audio = try PrivateTestServer()
        defer { audio.stop() }
        let vars = ["PULSE_SERVER": audio.address, "PULSE_COOKIE": audio.folder + "/cookie"]
        let raw = run.folder.appendingPathComponent("played.raw")
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        recorder.arguments = ["parecord", "-d", "speaker.monitor", "--raw", "--format=s16le", "--rate=16000", "--channels=1", raw.path]
        recorder.environment = ProcessInfo.processInfo.environment.merging(vars) { $1 }
        try recorder.run()
        try await Task.sleep(for: .milliseconds(300))
        let id = try #require(note.components(separatedBy: "id: \"").dropFirst().first?.prefix(8))
        let (status, output) = try await DemoDialogueTests.shell([DemoDialogueTests.binary, "play", String(id.prefix(5)),
                                                            "--output", "speaker", "--notes-dir", run.notesDir], environment: vars)
        kill(recorder.processIdentifier, SIGKILL)
        recorder.waitUntilExit()
        #expect(status == 0, "\(output)")
        #expect(DemoDialogueTests.bursts(in: try Data(contentsOf: raw)) >= 1, "nothing was heard on speaker.monitor")
        // And it is this recording: the loudness over time of what was played follows the saved
        // file's (10 ms frames, best alignment within ±2 s).
        let saved = try WAVFile(contentsOf: wav).monoSamples(at: 16_000)
        let played = DemoDialogueTests.int16(try Data(contentsOf: raw)).map { Float($0) / 32_768 }
        let match = Self.envelopeCorrelation(saved, played)
        print("play: envelope correlation with the saved recording \(String(format: "%.3f", match))")
        #expect(match > 0.8, "what play played does not follow the saved recording (correlation \(match))")

        // delete takes the recording with the note.
        let (deleted, _) = try await DemoDialogueTests.shell([DemoDialogueTests.binary, "delete", String(id), "--yes", "--notes-dir", run.notesDir])
        #expect(deleted == 0)
        #expect(run.notes.isEmpty, "left behind: \(run.notes)")
    }

    /// A recording ends when the person says so, not at a thinking pause: two sentences with a
    /// 5 s pause between them are both in the note, "That's all for now." ends it at once and is not in
    /// the note, and the note has the ending and next steps a talk note has.
    @Test func recordGoesOnOverAThinkingPauseAndEndsOnAnEnding() async throws {
        let run = try VoiceRun(["record", "--lang", "en", "--input", "mic", "--silence", "aggressive", "--no-model", "--yes"])
        try run.waitFor("listening")
        try await Task.sleep(for: .milliseconds(500))
        try await run.say("I need to paint the fence before the winter.")
        try await Task.sleep(for: .seconds(5))
        #expect(run.process.isRunning, "the recording ended at a 5 s pause")
        try await run.say("Then I will buy new tires for the car.")
        try await Task.sleep(for: .seconds(1.5))
        try await run.say("That's all for now.")
        try run.waitFor("note", seconds: 120)
        // Ended by the phrase: the silence waited after it (in audio time: the reading of the
        // recording's end, then 0.3 s) is under the 6 s of the shortest preset, which a recording
        // that did not end on it waits out in full.
        let transcribed = try #require(run.eventObjects.last { $0["event"] as? String == "transcribed" })
        let waited = try #require(transcribed["endpoint"] as? Double) - (try #require(transcribed["speechEnd"] as? Double))
        print("record: \(String(format: "%.2f", waited)) s of silence waited after the ending")
        #expect(waited < 5.9, "the ending did not end the recording (\(waited) s of silence waited)")
        let result = run.finish()
        #expect(result.status == 0, "\(result.output)")
        let markdown = try #require(run.notes.first { $0.hasSuffix(".md") }, "no note in \(run.notes)")
        let note = try String(contentsOfFile: markdown, encoding: .utf8)
        #expect(Self.heard(["paint", "fence", "winter"], in: note) >= 2, "\(note)")
        #expect(Self.heard(["buy", "tires", "car"], in: note) >= 2, "the words after the pause are missing:\n\(note)")
        #expect(!note.lowercased().contains("that's all"), "\(note)")
        #expect(note.contains("ended: \"userEnded\""), "\(note)")
        #expect(note.contains("layout: \"recording\""))
    }

    /// Without --keep-audio, the voice is never written anywhere: no WAV (nor any RIFF file)
    /// under the XDG data, state, cache and config folders, the temporary folder or the notes.
    @Test func recordWithoutKeepAudioLeavesNoRecordingAnywhere() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("xdg-\(UUID().uuidString)")
        var folders: [String: String] = [:]
        for (key, name) in [("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"), ("XDG_CONFIG_HOME", "config"), ("TMPDIR", "tmp")] {
            let path = home.appendingPathComponent(name).path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            folders[key] = path
        }
        // The engines and models stay where `make deps` put them.
        folders["DIALOGUE_MEMO_CACHE"] = DefaultModels.cacheDirectory
        let run = try VoiceRun(["record", "--lang", "en", "--input", "mic", "--silence", "default", "--yes"],
                               extraEnvironment: folders)
        try run.waitFor("listening")
        try await run.say("Call the plumber about the kitchen sink. It has been dripping since Sunday.")
        let result = run.finish()
        #expect(result.status == 0, "\(result.output)")
        let note = try #require(run.notes.first { $0.hasSuffix(".md") }, "no note in \(run.notes)")
        #expect(Self.heard(["plumber", "kitchen", "sink", "dripping", "sunday"], in: try String(contentsOfFile: note, encoding: .utf8)) >= 2)
        #expect(run.count("audio") == 0, "an audio event: the recording was kept")
        var files: [String] = []
        for root in [home.path, run.folder.path] {
            let walker = FileManager.default.enumerator(atPath: root)
            while let relative = walker?.nextObject() as? String {
                let path = root + "/" + relative
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                files.append(path)
            }
        }
        try #require(files.contains(note), "the walk found the note itself")
        let recordings = files.filter { path in
            path.lowercased().hasSuffix(".wav")
                || (FileManager.default.contents(atPath: path).map { $0.prefix(4) == Data("RIFF".utf8) } ?? false)
        }
        #expect(recordings.isEmpty, "recordings left behind: \(recordings)")
    }

    @Test func aNoteWithoutARecordingSaysHowToGetOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("play-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "---\nid: \"abcdef12\"\ncreated: \"2026-11-29T10:00:00Z\"\n---\n\n# A note\n\nText.\n"
            .write(to: folder.appendingPathComponent("2026-11-29-a-note.md"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DemoDialogueTests.binary)
        process.arguments = ["play", "abc", "--notes-dir", folder.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(message.contains("has no recording") && message.contains("--keep-audio"), "\(message)")
    }

    @Test func aKeyPressMidExchangeSendsTheWordsSoFarToTheEditor() async throws {
        let run = try await VoiceRun.talkAnsweringTheOpening("I want to grow tomatoes on my balcony this summer.")
        run.press("x")                     // any key: "I am done"
        try await run.saveAfterEditing()
        let result = run.finish()
        #expect(result.status == 0, "\(result.output)")
        let edited = try String(contentsOfFile: run.editorCopy, encoding: .utf8)
        #expect(Self.heard(["grow", "tomato", "balcony", "summer"], in: edited) >= 2, "\(edited)")
        #expect(run.notes.count == 1)
        #expect(run.count("question") == 2, "the key ended the exchange at the second question")
    }

    @Test func ctrlCMidAnswerKeepsTheWordsSoFar() async throws {
        let run = try await VoiceRun.talkAnsweringTheOpening("We should plant a small herb garden behind the school.")
        let speaking = Task { try await run.say("The children could water it every morning before class, and the kitchen could use the herbs.") }
        try run.waitFor("hearing", times: 2)
        try await Task.sleep(for: .milliseconds(1500))
        kill(run.process.processIdentifier, SIGINT)   // mid-answer
        speaking.cancel()
        try await run.saveAfterEditing()
        let result = run.finish()
        #expect(result.status == 0, "\(result.output)")
        let edited = try String(contentsOfFile: run.editorCopy, encoding: .utf8).lowercased()
        #expect(Self.heard(["plant", "garden", "behind", "school"], in: edited) >= 2, "\(edited)")
        #expect(Self.heard(["children", "water", "every", "morning"], in: edited) >= 1,
                "the interrupted answer is transcribed as far as it went:\n\(edited)")
    }
}
