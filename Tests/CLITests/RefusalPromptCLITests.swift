import Foundation
import Testing

/// The question before a refusal discards anything, asked by the built program on a real
/// pseudo-terminal (`script`): Enter, y, Ctrl-C and Ctrl-D discard and leave no trace; n and e
/// keep every word, and only the save key then saves them.
@Suite("a refusal is confirmed at a terminal (real binary, pseudo-terminal)", .serialized)
struct RefusalPromptCLITests {
    static let first = "A notes app for field researchers."
    static let requirement = "Don't keep any of this on paper, it all goes into the app."

    /// Types the two answers on a terminal and waits for the question.
    func refuse(language: String = "en", first: String = first, refusal: String = requirement,
                question: String = "Discard it? [Y/n/e]") throws -> RunningMemo {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script (util-linux) gives the pty")
        let memo = try RunningMemo(["talk", "--type", "--lang", language, "--no-model"], extraEnvironment: ["NO_COLOR": "1"], terminal: true)
        let typePrompt = language == "en" ? "Type your answer" : "Antwort"
        try memo.waitForPrompts(1, marker: typePrompt); memo.type(first)
        try memo.waitForPrompts(2, marker: typePrompt); memo.type(refusal)
        try memo.waitForPrompts(1, marker: question)
        return memo
    }

    func leavesNoTrace(_ memo: RunningMemo, _ key: String) {
        let result = memo.finish()
        #expect(result.status == 0, "\(key): \(result.output)")
        #expect(result.output.contains("Nothing was saved, as you asked."), "\(key): \(result.output)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: memo.notesDir)) ?? []).isEmpty, "\(key): a note was saved")
        #expect(memo.journals.isEmpty, "\(key): a journal is left")
        #expect(!FileManager.default.fileExists(atPath: memo.editorCopy), "\(key): the editor was opened")
    }

    @Test func enterDiscards() throws {
        let memo = try refuse()
        memo.type("")
        leavesNoTrace(memo, "Enter")
    }

    @Test func yesDiscards() throws {
        let memo = try refuse()
        memo.type("y")
        leavesNoTrace(memo, "y")
    }

    @Test func ctrlCDiscards() throws {
        let memo = try refuse()
        memo.press("\u{03}")
        try memo.waitForPrompts(1, marker: "Nothing was saved")
        leavesNoTrace(memo, "Ctrl-C")
    }

    @Test func ctrlDDiscards() throws {
        let memo = try refuse()
        memo.press("\u{04}")
        try memo.waitForPrompts(1, marker: "Nothing was saved")
        leavesNoTrace(memo, "Ctrl-D")
    }

    /// The sentence was a product requirement: `n` brings it back, the note is shown with the
    /// save prompt, and the save key saves every word.
    @Test func noKeepsEveryWord() throws {
        let memo = try refuse()
        memo.type("n")
        try memo.waitForPrompts(1, marker: "[s]ave, [e]dit again or [d]iscard?")
        #expect(memo.journals.count == 1, "kept words are journaled while the person decides")
        memo.type("s")
        let result = memo.finish()
        #expect(result.status == 0, "\(result.output)")
        let notes = try FileManager.default.contentsOfDirectory(atPath: memo.notesDir)
        try #require(notes.count == 1, "\(result.output)")
        let note = try String(contentsOfFile: memo.notesDir + "/" + notes[0], encoding: .utf8)
        #expect(note.contains(Self.first) && note.contains(Self.requirement), "\(note)")
        #expect(memo.journals.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: memo.editorCopy), "n goes to the review's prompt, not the editor")
    }

    @Test func editOpensTheEditorWithEveryWord() throws {
        let memo = try refuse()
        memo.type("e")
        try memo.waitForPrompts(1, marker: "[s]ave, [e]dit again or [d]iscard?")
        memo.type("s")
        #expect(memo.finish().status == 0)
        let edited = try String(contentsOfFile: memo.editorCopy, encoding: .utf8)
        #expect(edited.contains(Self.first) && edited.contains(Self.requirement), "\(edited)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: memo.notesDir).count == 1)
    }

    /// In German the question and its keys are German: n keeps, as in every language.
    @Test func theQuestionIsInTheInterfaceLanguage() throws {
        let memo = try refuse(language: "de", first: "Eine Notiz-App für Feldforscher.",
                              refusal: "Nichts davon soll auf Papier bleiben, alles kommt in die App.",
                              question: "Verwerfen? [J/n/b]")
        memo.type("n")
        try memo.waitForPrompts(1, marker: "[s]peichern, [b]earbeiten oder [v]erwerfen?")
        memo.type("s")
        #expect(memo.finish().status == 0)
        let notes = try FileManager.default.contentsOfDirectory(atPath: memo.notesDir)
        try #require(notes.count == 1)
        #expect(try String(contentsOfFile: memo.notesDir + "/" + notes[0], encoding: .utf8).contains("alles kommt in die App"))
    }
}
