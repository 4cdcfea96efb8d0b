import Foundation
import Testing
@testable import Notes

@Suite struct NoteListingTests {
    static let utc = TimeZone(identifier: "UTC")!

    func note(_ id: String, _ title: String, created: String?) -> NoteFile {
        let front = created.map { "created: \"\($0)\"\n" } ?? ""
        return NoteFile(path: "/notes/\(id).md", text: "---\nid: \"\(id)\"\n\(front)---\n\n# \(title)\n")
    }

    @Test func linesShowAShortUniqueIdTheDateAndASafeTitle() {
        let notes = [note("4f2a9c11", "Frozen meals", created: "2026-11-29T18:02:00Z"),
                     note("4f2a9d22", "Bell \u{1B}[31mred\u{1B}[0m", created: nil)]
        #expect(NoteListing.lines(notes, timeZone: Self.utc) == [
            "4f2a9c  2026-11-29 18:02  Frozen meals",
            "4f2a9d                    Bell red",
        ])
    }

    @Test func idsThatShareSixCharactersGetLonger() {
        #expect(NoteListing.shortestUniquePrefix(["abcdef01", "abcdef02"]) == 8)
        #expect(NoteListing.shortestUniquePrefix(["abcdef01", "abcdeg02"]) == 6)
        #expect(NoteListing.shortestUniquePrefix([]) == 6)
    }

    @Test func jsonLinesAreObjectsWithSortedKeys() {
        let lines = NoteListing.jsonLines([note("a1", "T/1", created: "2026-11-29T18:02:00Z"), note("b2", "U", created: nil)])
        #expect(lines == [#"{"created":"2026-11-29T18:02:00Z","id":"a1","path":"/notes/a1.md","title":"T/1"}"#,
                          #"{"id":"b2","path":"/notes/b2.md","title":"U"}"#])
    }
}
