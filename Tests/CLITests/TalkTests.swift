import Foundation
import Testing

/// A `dialogue-memo` process driven like a person at a terminal would: lines typed on standard
/// input, signals, a scripted editor that keeps a copy of what it was given. Its output is read
/// on a thread of its own, so waiting for a prompt can time out instead of blocking.
final class RunningMemo: @unchecked Sendable {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    let folder: URL
    var notesDir: String { folder.appendingPathComponent("notes").path }
    var editorCopy: String { folder.appendingPathComponent("editor-saw.md").path }
    var stateDir: String { folder.appendingPathComponent("state").path }
    private let lock = NSLock()
    private var printed = ""
    private var ended = false
    private let reader = DispatchGroup()

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// `umask`: the file-creation mask the program starts with (through `/bin/sh`), as a
    /// person's shell would give it. `terminal`: the program runs on a pseudo-terminal of its own
    /// (`script`), so it is at a terminal, and what is typed goes through the terminal's line
    /// discipline (Ctrl-C is a signal, Ctrl-D the end of input).
    init(_ arguments: [String], extraEnvironment: [String: String] = [:], umask: String? = nil, terminal: Bool = false) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("talk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let editor = folder.appendingPathComponent("editor.sh")
        try "#!/bin/sh\ncp \"$1\" \(folder.path)/editor-saw.md\n".write(to: editor, atomically: true, encoding: .utf8)
        chmod(editor.path, 0o755)
        let full = arguments + ["--notes-dir", notesDir]
        if terminal {
            let quoted = ([CLI.binary] + full).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-qec", "exec " + quoted.joined(separator: " "), "/dev/null"]
        } else if let umask {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "umask \(umask) && exec \"$0\" \"$@\"", CLI.binary] + full
        } else {
            process.executableURL = URL(fileURLWithPath: CLI.binary)
            process.arguments = full
        }
        var environment = ProcessInfo.processInfo.environment
        environment["EDITOR"] = editor.path
        environment["VISUAL"] = nil
        environment["XDG_STATE_HOME"] = stateDir
        environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path   // no settings of the machine
        environment.merge(extraEnvironment) { $1 }
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let handle = output.fileHandleForReading
        reader.enter()
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.withLock { printed += String(decoding: chunk, as: UTF8.self) }
            }
            lock.withLock { ended = true }
            reader.leave()
        }
    }

    func type(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    /// Keys as they are, without Enter: "\u{03}" is Ctrl-C and "\u{04}" Ctrl-D on a terminal.
    func press(_ keys: String) { input.fileHandleForWriting.write(Data(keys.utf8)) }

    /// Everything printed so far.
    var transcript: String { lock.withLock { printed } }

    /// Waits until the output shows `count` prompts for a typed answer (counted over everything
    /// printed so far). Fails when the program ends first or `timeout` seconds pass.
    func waitForPrompts(_ count: Int, marker: String = "Type your answer", timeout: Double = 60) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let (text, done) = lock.withLock { (printed, ended) }
            let seen = text.components(separatedBy: marker).count - 1
            if seen >= count { return }
            if done { throw Failure(description: "the program ended after \(seen) of \(count) \"\(marker)\":\n\(text)") }
            if Date() > deadline {
                throw Failure(description: "\(seen) of \(count) \"\(marker)\" after \(Int(timeout)) s:\n\(text)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Closes standard input and waits (up to `timeout` seconds, then kills) for the end.
    func finish(timeout: Double = 120) -> (status: Int32, output: String) {
        try? input.fileHandleForWriting.close()
        if reader.wait(timeout: .now() + timeout) == .timedOut { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        reader.wait()
        return (process.terminationStatus, transcript)
    }

    var journals: [String] {
        let dir = stateDir + "/dialogue-memo/journals"
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).map { dir + "/" + $0 }
    }
}

/// The permission bits of `path` (nil when it does not exist).
func mode(_ path: String) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
}

@Suite("dialogue-memo talk (typing mode, real binary)", .serialized)
struct TalkTests {
    @Test func aTypedExchangeEndsByTheEndingPhraseAndSavesEveryAnswer() throws {
        let memo = try RunningMemo(["talk", "--type", "--lang", "en", "--yes", "--no-model"])
        try memo.waitForPrompts(1); memo.type("A budget meeting is on Friday. We must cut costs.")
        try memo.waitForPrompts(2); memo.type("Decide which projects to pause.")
        try memo.waitForPrompts(3); memo.type("That's all.")
        let result = memo.finish()
        #expect(result.status == 0, "\(result.output)")
        let notes = try FileManager.default.contentsOfDirectory(atPath: memo.notesDir)
        #expect(notes.count == 1)
        let note = try String(contentsOfFile: memo.notesDir + "/" + notes[0], encoding: .utf8)
        for sentence in ["A budget meeting is on Friday", "We must cut costs", "Decide which projects to pause"] {
            #expect(note.contains(sentence), "\(sentence) missing from\n\(note)")
        }
        #expect(!note.contains("That"), "the ending phrase is control, not a note sentence:\n\(note)")
        #expect(note.contains("ended: \"userEnded\""), "the front matter says how it ended:\n\(note)")
        #expect(memo.journals.isEmpty, "a saved exchange removes its journal")
    }

    /// Without a sound server the exchange is typed, and the notice says why once, in one sentence
    /// per thought (it read "…to type your answers.. You can type your answers instead.").
    @Test func withoutVoiceTheTypedFallbackSaysWhyOnce() throws {
        let memo = try RunningMemo(["talk", "--lang", "en", "--yes", "--no-model"],
                                   extraEnvironment: ["PULSE_SERVER": "unix:/nonexistent/native"])
        try memo.waitForPrompts(1); memo.type("A tool library for our street.")
        try memo.waitForPrompts(2); memo.type("That's all.")
        let result = memo.finish()
        #expect(result.status == 0, "\(result.output)")
        let notice = try #require(result.output.split(separator: "\n").first { $0.contains("Voice is not available") })
        #expect(notice.hasPrefix("Voice is not available: no PulseAudio server reachable"), "\(notice)")
        #expect(notice.hasSuffix("to type your answers. Switching to typed answers."), "\(notice)")
        #expect(!notice.contains(".."), "\(notice)")
    }

    @Test func ctrlCMidAnswerSendsTheWordsSoFarToTheEditor() throws {
        let memo = try RunningMemo(["talk", "--type", "--lang", "en", "--no-model"])
        try memo.waitForPrompts(1); memo.type("First answer about a garden app.")
        try memo.waitForPrompts(2); memo.type("It is for people with balconies.")
        try memo.waitForPrompts(3)
        memo.process.interrupt()   // SIGINT while the third answer is awaited
        try memo.waitForPrompts(1, marker: "Stopped.")
        memo.type("s")             // the review prompt: save
        let result = memo.finish()
        #expect(result.status == 0, "\(result.output)")
        let edited = try String(contentsOfFile: memo.editorCopy, encoding: .utf8)
        #expect(edited.contains("First answer about a garden app"))
        #expect(edited.contains("It is for people with balconies"))
        // The review's "s" was not taken as a third answer.
        #expect(!edited.contains("\n- s\n") && !edited.hasSuffix("\ns\n"), "\(edited)")
        #expect(result.output.contains("Stopped. Your words so far are kept."))
    }

    @Test func killDashNineLosesNothingAndRecoverRebuildsTheNote() throws {
        let memo = try RunningMemo(["talk", "--type", "--lang", "de", "--no-model"])
        try memo.waitForPrompts(1, marker: "Antwort"); memo.type("Ein Plan für den Urlaub im Mai.")
        try memo.waitForPrompts(2, marker: "Antwort"); memo.type("Wir wollen nach Norwegen fahren.")
        try memo.waitForPrompts(3, marker: "Antwort")
        kill(memo.process.processIdentifier, SIGKILL)
        _ = memo.finish()
        #expect(memo.journals.count == 1)
        let recover = Process()
        recover.executableURL = URL(fileURLWithPath: CLI.binary)
        recover.arguments = ["recover", "--yes", "--notes-dir", memo.notesDir]
        recover.environment = ProcessInfo.processInfo.environment.merging(
            ["XDG_STATE_HOME": memo.folder.appendingPathComponent("state").path]) { $1 }
        recover.standardOutput = FileHandle.nullDevice
        try recover.run(); recover.waitUntilExit()
        #expect(recover.terminationStatus == 0)
        let notes = try FileManager.default.contentsOfDirectory(atPath: memo.notesDir)
        #expect(notes.count == 1)
        let note = try String(contentsOfFile: memo.notesDir + "/" + notes[0], encoding: .utf8)
        #expect(note.contains("Ein Plan für den Urlaub im Mai"))
        #expect(note.contains("Wir wollen nach Norwegen fahren"))
        #expect(note.contains("language: \"de\""))
        #expect(memo.journals.isEmpty)
    }

    @Test func aMissingLanguageModelFallsBackToTheRules() throws {
        let memo = try RunningMemo(["talk", "--type", "--lang", "en", "--yes", "--llm-model", "/nonexistent/model.gguf"])
        try memo.waitForPrompts(1); memo.type("An idea for a reading club.")
        try memo.waitForPrompts(2); memo.type("I'm done.")
        let result = memo.finish()
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("questions follow the built-in rules"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: memo.notesDir).count == 1)
    }

    /// Answers that look like YAML, Markdown or terminal control are echoed and saved as the
    /// words they are: the escape sequences dropped, everything else exactly as typed.
    @Test func hostileAnswersAreShownAndSavedLiterally() throws {
        let memo = try RunningMemo(["talk", "--type", "--lang", "en", "--yes", "--no-model"])
        try memo.waitForPrompts(1); memo.type("---")          // a YAML front matter fence
        try memo.waitForPrompts(2); memo.type("id: evil")
        try memo.waitForPrompts(3); memo.type("\u{1B}[2J\u{1B}[31mRed alert # not a heading *bold*")
        try memo.waitForPrompts(4); memo.type("That's all.")
        let result = memo.finish()
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("\u{1B}"), "escape sequences from answers reach the terminal")
        // Shown: each answer is echoed back in quotes, as typed.
        for shown in ["---", "id: evil", "Red alert # not a heading *bold*", "That's all."] {
            #expect(result.output.contains("  “\(shown)”\n"), "not echoed: \(shown)\n\(result.output)")
        }
        // Saved: one front matter block of our own keys, the generic title, and one bullet per
        // answer holding exactly its words (Markdown escapes removed).
        let notes = try FileManager.default.contentsOfDirectory(atPath: memo.notesDir)
        try #require(notes.count == 1)
        let note = try String(contentsOfFile: memo.notesDir + "/" + notes[0], encoding: .utf8)
        let lines = note.components(separatedBy: "\n")
        try #require(lines.count > 12, "\(note)")
        let close = try #require(lines.dropFirst().firstIndex(of: "---"), "\(note)")
        #expect(lines[0] == "---" && close == 11, "\(note)")
        #expect(lines[1..<close].map { String($0.prefix { $0 != ":" }) }
                == ["id", "created", "language", "questions", "layout", "ended", "tags", "next_steps", "key", "key_sentence"])
        // The one piece of the person's words up there is quoted whole: it cannot close the block.
        #expect(lines[10].hasPrefix("key_sentence: \"") && lines[10].hasSuffix("\"") && lines[10] != "---", "\(note)")
        #expect(!lines[1].contains("evil") && lines[3] == "language: \"en\"" && lines[5] == "layout: \"fallback\"")
        #expect(lines[6] == "ended: \"userEnded\"")
        #expect(lines[close + 1] == "" && lines[close + 2].hasPrefix("# Memo from ") && lines[close + 3] == "")
        let bullets = lines.dropFirst(close + 4).filter { !$0.isEmpty }
        // "That's all." ended the exchange: control, not a note sentence.
        #expect(bullets == ["- \\---", "- id: evil", "- Red alert \\# not a heading \\*bold\\*"], "\(note)")
        #expect(note.components(separatedBy: "\n---\n").count == 2, "exactly one front matter block:\n\(note)")
        // With --yes the note is shown as it is saved.
        #expect(result.output.contains(note.trimmingCharacters(in: .newlines)), "the note shown is not the note saved")
    }

    /// Under the usual umask 022, the notes folder and the journals folder are private (0700)
    /// and so are the note `recover` writes, the journal and the `--events` file (0600).
    @Test func recoverWritesPrivateNotesUnderUmask022() throws {
        let events = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString).jsonl").path
        let memo = try RunningMemo(["talk", "--type", "--lang", "en", "--no-model", "--events", events], umask: "022")
        try memo.waitForPrompts(1); memo.type("A private idea about a surprise party.")
        try memo.waitForPrompts(2)
        let journals = memo.stateDir + "/dialogue-memo/journals"
        #expect(mode(journals) == 0o700, "journals folder mode \(String(mode(journals) ?? 0, radix: 8))")
        try #require(memo.journals.count == 1)
        for journal in memo.journals { #expect(mode(journal) == 0o600, "\(journal)") }
        #expect(try String(contentsOfFile: events, encoding: .utf8).contains("surprise party"), "the events hold the answer")
        #expect(mode(events) == 0o600, "events file mode \(String(mode(events) ?? 0, radix: 8))")
        kill(memo.process.processIdentifier, SIGKILL)
        _ = memo.finish()
        try #require(memo.journals.count == 1)
        let recover = Process()
        recover.executableURL = URL(fileURLWithPath: "/bin/sh")
        recover.arguments = ["-c", "umask 022 && exec \"$0\" recover --yes --notes-dir \"$1\"", CLI.binary, memo.notesDir]
        recover.environment = ProcessInfo.processInfo.environment.merging(["XDG_STATE_HOME": memo.stateDir]) { $1 }
        recover.standardOutput = FileHandle.nullDevice
        try recover.run(); recover.waitUntilExit()
        #expect(recover.terminationStatus == 0)
        let notes = try FileManager.default.contentsOfDirectory(atPath: memo.notesDir)
        try #require(notes.count == 1)
        #expect(mode(memo.notesDir) == 0o700, "notes folder mode \(String(mode(memo.notesDir) ?? 0, radix: 8))")
        let note = memo.notesDir + "/" + notes[0]
        #expect(mode(note) == 0o600, "recovered note mode \(String(mode(note) ?? 0, radix: 8))")
        #expect(try String(contentsOfFile: note, encoding: .utf8).contains("A private idea about a surprise party."))
    }

    /// A crash mid-write can cut the journal inside a multi-byte character; `recover` still
    /// rebuilds every answer written whole.
    @Test func recoverReadsAJournalCutInsideACharacter() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cut-\(UUID().uuidString)")
        let journals = folder.appendingPathComponent("state/dialogue-memo/journals")
        try FileManager.default.createDirectory(at: journals, withIntermediateDirectories: true)
        let whole = """
            {"created":"2026-11-29T10:00:00Z","event":"started","id":"cut12345","language":"ja","timeZone":"Asia/Tokyo"}
            {"event":"asked","question":"opening"}
            {"event":"answered","text":"自転車のベルのアイデアです。鳴らすたびに記録します。"}
            {"event":"asked","question":"reason"}
            {"event":"answered","text":"誰も報告しないからです。"}

            """
        var bytes = Array(whole.utf8)
        // Cut the last answer one byte into its last character (3 bytes in UTF-8).
        let lastLine = try #require(whole.range(of: "{\"event\":\"answered\",\"text\":\"誰"))
        bytes = Array(bytes[..<(whole[..<lastLine.upperBound].utf8.count - 2)])
        #expect(bytes.last.map { $0 & 0xC0 == 0x80 || $0 >= 0xC0 } == true, "the cut is inside a character")
        try Data(bytes).write(to: journals.appendingPathComponent("cut12345.jsonl"))
        let notesDir = folder.appendingPathComponent("notes").path
        let result = try CLI.run(["recover", "--yes", "--notes-dir", notesDir],
                                 environment: ["XDG_STATE_HOME": folder.appendingPathComponent("state").path])
        let notes = (try? FileManager.default.contentsOfDirectory(atPath: notesDir)) ?? []
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        try #require(notes.count == 1)
        let note = try String(contentsOfFile: notesDir + "/" + notes[0], encoding: .utf8)
        #expect(note.contains("自転車のベルのアイデアです。") && note.contains("鳴らすたびに記録します。"), "\(note)")
    }

    @Test func badFlagsAreUsageErrors() throws {
        let unknown = try CLI.run(["talk", "--frobnicate"])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown option --frobnicate"))
        let lang = try CLI.run(["talk", "--lang", "xx"])
        #expect(lang.status == 2 && lang.stderr.contains("--lang takes one of"))
        let silence = try CLI.run(["talk", "--silence", "loud"])
        #expect(silence.status == 2)
        let help = try CLI.run(["talk", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--silence relaxed|default|aggressive"))
    }
}

@Suite("notes commands on real files", .serialized)
struct NotesCommandTests {
    @Test func listSearchShowDelete() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("notes-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let notes = [("1111aaaa", "2026-11-01T10:00:00Z", "Café crème plan", "Ein Über-Plan."),
                     ("2222bbbb", "2026-11-02T10:00:00Z", "会議のメモ", "予算を決める。")]
        for (id, created, title, body) in notes {
            try "---\nid: \"\(id)\"\ncreated: \"\(created)\"\n---\n# \(title)\n\n\(body)\n"
                .write(toFile: dir + "/\(id).md", atomically: true, encoding: .utf8)
        }
        let list = try CLI.run(["list", "--notes-dir", dir])
        #expect(list.status == 0)
        let lines = list.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].contains("会議のメモ") && lines[1].contains("Café crème plan"))
        let search = try CLI.run(["search", "CAFE CREME", "--json", "--notes-dir", dir])
        #expect(search.stdout.contains("\"id\":\"1111aaaa\"") && !search.stdout.contains("2222bbbb"))
        let japanese = try CLI.run(["search", "予算", "--notes-dir", dir])
        #expect(japanese.stdout.contains("会議のメモ"))
        let accents = try CLI.run(["search", "uber-plan", "--notes-dir", dir])
        #expect(accents.stdout.contains("Café crème plan"))
        let show = try CLI.run(["show", "2222", "--notes-dir", dir])
        #expect(show.stdout.contains("予算を決める。"))
        let delete = try CLI.run(["delete", "1111", "--yes", "--notes-dir", dir])
        #expect(delete.status == 0)
        #expect(!FileManager.default.fileExists(atPath: dir + "/1111aaaa.md"))
        let missing = try CLI.run(["show", "9999", "--notes-dir", dir])
        #expect(missing.status == 1 && missing.stderr.contains("no note with id \"9999\""))
    }

    /// A folder synced from elsewhere may hold anything: a link to a file outside, a binary file,
    /// a note full of escape sequences. Nothing from outside is shown or searched, each file left
    /// out is named, and `show` on a terminal writes the note's words without its control bytes.
    @Test func aHostileFolderIsReadSafely() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script (util-linux) gives the pty")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("notes-hostile-\(UUID().uuidString)").path
        let outside = dir + "-outside.txt"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir); try? FileManager.default.removeItem(atPath: outside) }
        try "---\nid: \"shadow\"\n---\n# root:x:0:0\n\nrootsecret\n".write(toFile: outside, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/evil.md", withDestinationPath: outside)
        try Data([0x23, 0x20, 0x00, 0x1B, 0x5B, 0x32, 0x4A] + Array(repeating: 0, count: 7_000)).write(to: URL(fileURLWithPath: dir + "/x.md"))
        try "---\nid: \"3333cccc\"\n---\n# Plan \u{1B}]0;pwned\u{07}\n\n\u{1B}[2JGarden rootless.\n"
            .write(toFile: dir + "/plan.md", atomically: true, encoding: .utf8)

        let list = try CLI.run(["list", "--notes-dir", dir])
        #expect(list.status == 0 && list.stdout.contains("Plan") && !list.stdout.contains("root:x"), "\(list.stdout)")
        #expect(list.stderr.contains("evil.md is a symbolic link; it is left out"), "\(list.stderr)")
        #expect(list.stderr.contains("x.md is not text"), "\(list.stderr)")
        let search = try CLI.run(["search", "rootsecret", "--notes-dir", dir])
        #expect(search.stdout.contains("No note matches") && !search.stdout.contains("shadow"), "\(search.stdout)")
        #expect(try CLI.run(["show", "shadow", "--notes-dir", dir]).status == 1)

        let terminal = try ConfigCLITests.shell("/usr/bin/script", ["-qec", "'\(CLI.binary)' show 3333 --notes-dir '\(dir)'", "/dev/null"])
        #expect(terminal.status == 0 && terminal.output.contains("Garden rootless."), "\(terminal.output)")
        #expect(!terminal.output.contains("\u{1B}") && !terminal.output.contains("\u{07}"), "raw control bytes reached the terminal")
        let piped = try CLI.run(["show", "3333", "--notes-dir", dir])
        #expect(piped.stdout.contains("\u{1B}[2J"), "piped, the file is written as it is")
    }

    /// An empty line is the typed silence: the note is laid out and its next steps chosen by the
    /// model, as after "that's all", not given one sentence per bullet as after Ctrl-C.
    @Test func anEmptyLineEndsLikeFallingSilent() throws {
        let memo = try RunningMemo(["talk", "--type", "--lang", "en", "--yes"])
        try memo.waitForPrompts(1); memo.type("I want to build a shared tool shed for our street. Most people use a drill twice a year.")
        try memo.waitForPrompts(2); memo.type("I'll ask Tom on Friday if his garage has room.")
        try memo.waitForPrompts(3); memo.type("")
        #expect(memo.finish().status == 0)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: memo.notesDir).first { $0.hasSuffix(".md") })
        let note = try String(contentsOfFile: memo.notesDir + "/" + name, encoding: .utf8)
        #expect(note.contains("ended: \"noAnswer\""), "\(note)")
        #expect(note.contains("layout: \"model\"") && note.contains("next_steps: \"model\""), "\(note)")
        #expect(note.contains("I'll ask Tom on Friday if his garage has room."))
        #expect(!note.contains("- [ ] I want to build"), "the idea's own statement is not a next step:\n\(note)")
    }

    /// The note a typed English exchange of two answers saves: its folder, path and text.
    func typedNote(_ first: String, _ second: String) throws -> (notesDir: String, path: String, note: String) {
        let memo = try RunningMemo(["talk", "--type", "--lang", "en", "--yes"])
        try memo.waitForPrompts(1); memo.type(first)
        try memo.waitForPrompts(2); memo.type(second)
        #expect(memo.finish().status == 0)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: memo.notesDir).first { $0.hasSuffix(".md") })
        let path = memo.notesDir + "/" + name
        return (memo.notesDir, path, try String(contentsOfFile: path, encoding: .utf8))
    }

    /// The whole path with the real model: a typed exchange ends in a note with its next steps,
    /// `tasks` lists them, and an item ticked by hand (as any editor would) is done.
    @Test func aSpokenNextStepIsATaskUntilTickedInTheFile() throws {
        let (notesDir, path, note) = try typedNote("A shared tool shed for our street. I'll ask Tom on Friday if his garage has room.",
                                                   "That's all.")
        #expect(note.contains("next_steps: \"model\"") && note.contains("key_sentence: "), "\(note)")
        #expect(note.hasSuffix("## Next steps\n\n- [ ] I'll ask Tom on Friday if his garage has room.\n"), "\(note)")
        let open = try CLI.run(["tasks", "--notes-dir", notesDir])
        #expect(open.status == 0 && open.stdout.contains("[ ] I'll ask Tom on Friday if his garage has room.  (due "), "\(open.stdout)")
        try note.replacingOccurrences(of: "- [ ] I'll ask", with: "- [x] I'll ask").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["tasks", "--notes-dir", notesDir]).stdout == "No open next steps.\n")
        let all = try CLI.run(["tasks", "--all", "--json", "--notes-dir", notesDir])
        #expect(all.stdout.contains(#""done":true"#) && all.stdout.contains(#""text":"I'll ask Tom on Friday if his garage has room.""#), "\(all.stdout)")
        let list = try CLI.run(["list", "--notes-dir", notesDir])
        #expect(list.stdout.contains("A shared tool shed for our street."), "\(list.stdout)")
    }

    /// The people a typed exchange names go to its front matter as said; `people` and `list
    /// --person` find them by whole words; a name the person changes in the file is what counts.
    @Test func thePeopleNamedAreListedAndFoundAsTheNoteSays() throws {
        let (notesDir, path, note) = try typedNote("A shared tool shed for our street. I'll ask Tom on Friday if his garage has room.",
                                                   "Mrs. Garcia from the school can lend us tomatoes. That's all.")
        #expect(note.contains("\npeople: [\"Tom\", \"Mrs. Garcia\"]\n"), "\(note)")
        let people = try CLI.run(["people", "--notes-dir", notesDir])
        #expect(people.status == 0 && people.stdout.hasSuffix("  Tom\n") && people.stdout.contains("  Mrs. Garcia\n"), "\(people.stdout)")
        #expect(try CLI.run(["list", "--person", "tom", "--notes-dir", notesDir]).stdout.contains("shared tool shed"))
        #expect(try CLI.run(["list", "--person", "garcía", "--json", "--notes-dir", notesDir]).stdout.contains(#""id":"#))
        #expect(try CLI.run(["list", "--person", "Tomatoes", "--notes-dir", notesDir]).stdout == "No note names “Tomatoes”.\n")
        try note.replacingOccurrences(of: "\"Tom\"", with: "\"Thomas Berg\"").write(toFile: path, atomically: true, encoding: .utf8)
        let edited = try CLI.run(["people", "--json", "--notes-dir", notesDir]).stdout
        #expect(edited.contains(#""name":"Thomas Berg""#) && !edited.contains(#""name":"Tom""#), "\(edited)")
    }
}
