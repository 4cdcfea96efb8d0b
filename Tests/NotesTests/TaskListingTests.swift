import Foundation
import Testing
@testable import Notes

@Suite struct TaskListingTests {
    static let utc = TimeZone(identifier: "UTC")!

    func note(_ id: String, body: String, created: String = "2025-12-02T10:00:00+01:00", language: String = "en") -> NoteFile {
        NoteFile(path: "/notes/\(id).md", text: """
        ---
        id: "\(id)"
        created: "\(created)"
        language: "\(language)"
        key_sentence: "A \\"quoted\\" key\\tand\\x07 more"
        ---

        # Title

        \(body)

        """)
    }

    static let body = """
    Some paragraph with - [ ] inside it.

    ## Next steps

    - [ ] Call the hotel tomorrow.
    - [x] Send the spec sheet\\.
    * [X] Ticked in another editor.
    - [ ]
    - [] not a task
    ```
    - [ ] in a code block
    ```
      - [ ] Indented by hand.
    """

    @Test func checkboxesAreReadAsAnyEditorLeftThem() {
        let tasks = TaskListing.tasks(in: note("n1", body: Self.body))
        #expect(tasks.map(\.text) == ["Call the hotel tomorrow.", "Send the spec sheet.", "Ticked in another editor.", "Indented by hand."])
        #expect(tasks.map(\.done) == [false, true, true, false])
        // Tomorrow of 2025-12-02 10:00 in UTC+1.
        #expect(tasks[0].due == "2025-12-03")
    }

    @Test func openOnlyUnlessAllAndNotesWithoutTheSectionHaveNone() {
        let notes = [note("n1", body: Self.body), note("n2", body: "Just a thought.")]
        #expect(TaskListing.tasks(in: notes[1]).isEmpty)
        let all = notes.flatMap { TaskListing.tasks(in: $0) }
        #expect(all.filter { !$0.done }.map(\.text) == ["Call the hotel tomorrow.", "Indented by hand."])
        #expect(all.count == 4)
    }

    @Test func linesShowNoteDateMarkAndDue() {
        let tasks = TaskListing.tasks(in: note("4f2a9c11", body: "- [ ] Ask Tom on Friday.\n- [x] Done \u{1B}[31mred"))
        #expect(TaskListing.lines(tasks, timeZone: Self.utc) == [
            "4f2a9c  2025-12-02  [ ] Ask Tom on Friday.  (due 2025-12-05)",
            "4f2a9c  2025-12-02  [x] Done red",
        ])
        #expect(TaskListing.jsonLines(Array(tasks.prefix(1))) == [
            #"{"created":"2025-12-02T09:00:00Z","done":false,"due":"2025-12-05","note":"4f2a9c11","path":"/notes/4f2a9c11.md","text":"Ask Tom on Friday."}"#,
        ])
    }

    @Test func theKeySentenceIsReadBackWithItsEscapesAndListedInsteadOfTheTitle() {
        let file = note("k1", body: "")
        #expect(file.keySentence == "A \"quoted\" key\tand\u{07} more")
        #expect(file.language == "en")
        #expect(file.timeZone?.secondsFromGMT() == 3600)
        let plain = NoteFile(path: "/notes/p.md", text: "---\nid: \"p1\"\nkey_sentence: \"Solar lights at night stops.\"\n---\n\n# Night stops\n")
        #expect(NoteListing.lines([plain]) == ["p1    " + String(repeating: " ", count: 20) + "Solar lights at night stops."])
    }
}
