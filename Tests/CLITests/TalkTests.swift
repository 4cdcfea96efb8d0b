import Foundation
import Testing

/// A `dialogue-memo` process driven like a person at a terminal would: lines typed on standard
/// input, signals, a scripted editor that keeps a copy of what it was given.
final class RunningMemo {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    let folder: URL
    var notesDir: String { folder.appendingPathComponent("notes").path }
    var editorCopy: String { folder.appendingPathComponent("editor-saw.md").path }

    init(_ arguments: [String], extraEnvironment: [String: String] = [:]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("talk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let editor = folder.appendingPathComponent("editor.sh")
        try "#!/bin/sh\ncp \"$1\" \(folder.path)/editor-saw.md\n".write(to: editor, atomically: true, encoding: .utf8)
        chmod(editor.path, 0o755)
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = arguments + ["--notes-dir", notesDir]
        var environment = ProcessInfo.processInfo.environment
        environment["EDITOR"] = editor.path
        environment["VISUAL"] = nil
        environment["XDG_STATE_HOME"] = folder.appendingPathComponent("state").path
        environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path   // no settings of the machine
        environment.merge(extraEnvironment) { $1 }
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
    }

    func type(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    /// Waits until the output shows `count` prompts for a typed answer.
    /// Counts over everything printed so far. Returns early if the program exits.
    func waitForPrompts(_ count: Int, marker: String = "Type your answer") throws {
        while transcript.components(separatedBy: marker).count - 1 < count {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }   // end of output: the program exited
            transcript += String(decoding: chunk, as: UTF8.self)
        }
    }
    var transcript = ""

    func finish() -> (status: Int32, output: String) {
        try? input.fileHandleForWriting.close()
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, transcript + String(decoding: rest, as: UTF8.self))
    }

    var journals: [String] {
        let dir = folder.appendingPathComponent("state/dialogue-memo/journals").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).map { dir + "/" + $0 }
    }
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

    @Test func hostileAnswersAreShownAndSavedLiterally() throws {
        let memo = try RunningMemo(["talk", "--type", "--lang", "en", "--yes", "--no-model"])
        try memo.waitForPrompts(1); memo.type("---")          // a YAML front matter fence
        try memo.waitForPrompts(2); memo.type("id: evil")
        try memo.waitForPrompts(3); memo.type("\u{1B}[2J\u{1B}[31mRed alert # not a heading *bold*")
        try memo.waitForPrompts(4); memo.type("That's all.")
        let result = memo.finish()
        #expect(!result.output.contains("\u{1B}[2J"), "escape sequences from answers reach the terminal")
        let notes = try FileManager.default.contentsOfDirectory(atPath: memo.notesDir)
        let note = try String(contentsOfFile: memo.notesDir + "/" + notes[0], encoding: .utf8)
        #expect(!note.contains("\u{1B}"))
        #expect(note.components(separatedBy: "\n---\n").count == 2, "exactly one front matter block:\n\(note)")
        #expect(note.contains("Red alert"))
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
}
