import DialogueCore
import Foundation
import Testing
@testable import Notes

/// `dialogue-memo people`: one person per name after folding case and accents, counted once
/// per note, named as the newest note names them.
@Suite struct PeopleListingTests {
    static let utc = TimeZone(identifier: "UTC")!

    func note(_ id: String, created: String?, people: [String]) -> NoteFile {
        let front = (created.map { "created: \"\($0)\"\n" } ?? "") + "people: [\(people.map(FrontMatter.quoted).joined(separator: ", "))]\n"
        return NoteFile(path: "/notes/\(id).md", text: "---\nid: \"\(id)\"\n\(front)---\n\n# T\n")
    }

    @Test func namesEqualAfterFoldingAreOnePersonCountedOncePerNote() {
        let notes: [Int64: NoteFile] = [
            1: note("a", created: "2026-11-20T10:00:00Z", people: ["Frau Müller", "Tom", "Tom"]),
            2: note("b", created: "2026-11-29T10:00:00Z", people: ["Frau MULLER", "Jon"]),
            3: note("c", created: nil, people: ["John", "\u{1B}[31mEve"]),
        ]
        let rows = notes.sorted { $0.key < $1.key }.flatMap { key, note in note.people.map { (note: key, name: $0) } }
        let people = PeopleListing.people(rows, notes: notes)
        #expect(people.map(\.name) == ["Frau MULLER", "Jon", "Tom", "\u{1B}[31mEve", "John"])
        #expect(people.map(\.memos) == [2, 1, 1, 1, 1])
        #expect(PeopleListing.lines(people, timeZone: Self.utc) == [
            "2  2026-11-29  Frau MULLER", "1  2026-11-29  Jon", "1  2026-11-20  Tom", "1              Eve", "1              John",
        ])
        #expect(PeopleListing.jsonLines(Array(people.prefix(1))) == [#"{"last":"2026-11-29T10:00:00Z","memos":2,"name":"Frau MULLER"}"#])
    }

    @Test func aNoteReadsItsPeopleAsTheFrontMatterSaysThem() {
        #expect(note("a", created: nil, people: ["Tom", " ", "Frau \"Müller\""]).people == ["Tom", "Frau \"Müller\""])
        #expect(NoteFile(path: "/n.md", text: "# No front matter\n").people.isEmpty)
    }

    @Test func aNameIsFoundByItsWholeWords() {
        #expect(PeopleFinder.name("Frau Müller", contains: "muller"))
        #expect(PeopleFinder.name("田中さん", contains: "田中"))
        #expect(PeopleFinder.name("Li Wei", contains: "li wei") && !PeopleFinder.name("Li Wei", contains: "wei li"))
        #expect(!PeopleFinder.name("Tomatoes", contains: "Tom") && !PeopleFinder.name("Tomás", contains: "Tom"))
        #expect(!PeopleFinder.name("Tom", contains: " "))
    }
}
