import Foundation
import Testing
@testable import Notes

@Suite("Notes folder")
struct NotesStoreTests {
    let store = NotesStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID().uuidString)").path,
                           indexDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("index-\(UUID().uuidString)").path)

    func note(id: String, created: String, title: String, body: String) -> String {
        "---\nid: \"\(id)\"\ncreated: \"\(created)\"\nlanguage: \"en\"\nquestions: []\nlayout: \"model\"\n---\n# \(title)\n\n\(body)\n"
    }

    func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test func savesPrivatelyAndNeverOverwrites() throws {
        let text = note(id: "a1b2c3d4", created: "2026-11-29T10:00:00Z", title: "Frozen meals", body: "For busy people.")
        let utc = TimeZone(identifier: "UTC")!
        let first = try store.save(text, created: date("2026-11-29T10:00:00Z"), title: "Frozen meals!", timeZone: utc)
        let second = try store.save(text + "x", created: date("2026-11-29T10:00:00Z"), title: "Frozen meals!", timeZone: utc)
        #expect(first.hasSuffix("/2026-11-29-frozen-meals.md"))
        #expect(second.hasSuffix("/2026-11-29-frozen-meals-2.md"))
        #expect(try String(contentsOfFile: first, encoding: .utf8) == text)
        let mode = try FileManager.default.attributesOfItem(atPath: first)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // No temp files are left behind.
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory)
        #expect(names.sorted() == ["2026-11-29-frozen-meals-2.md", "2026-11-29-frozen-meals.md"])
    }

    @Test func listsNewestFirstAndResolvesIDPrefixes() throws {
        try store.save(note(id: "aaa111", created: "2026-11-01T09:00:00Z", title: "Old", body: "x"), created: date("2026-11-01T09:00:00Z"), title: "Old")
        try store.save(note(id: "aab222", created: "2026-11-20T09:00:00Z", title: "New", body: "y"), created: date("2026-11-20T09:00:00Z"), title: "New")
        #expect(try store.list().map(\.title) == ["New", "Old"])
        #expect(try store.note(id: "aab").title == "New")
        #expect(throws: NotesError.ambiguous("aa", candidates: ["aab222", "aaa111"])) { try store.note(id: "aa") }
        #expect(throws: NotesError.notFound("zz")) { try store.note(id: "zz") }
    }

    @Test func searchFoldsCaseAccentsAndWidthAndFindsJapanese() throws {
        try store.save(note(id: "c1", created: "2026-11-02T09:00:00Z", title: "Café idea", body: "Ein Über-Plan für Köln."), created: .now, title: "Café idea")
        try store.save(note(id: "c2", created: "2026-11-03T09:00:00Z", title: "会議のメモ", body: "来週の会議で予算を決める。"), created: .now, title: "会議のメモ")
        #expect(try store.search("CAFE").notes.map(\.id) == ["c1"])
        #expect(try store.search("uber-plan fur koln").notes.map(\.id) == ["c1"])
        #expect(try store.search("予算").notes.map(\.id) == ["c2"])
        #expect(try store.search("会議").notes.map(\.id) == ["c2"])
        #expect(try store.search("ｃａｆé").notes.map(\.id) == ["c1"])   // full-width letters
        #expect(try store.search("nothing like this").notes.isEmpty)
    }

    @Test func deleteRemovesTheFile() throws {
        let path = try store.save(note(id: "d1", created: "2026-11-02T09:00:00Z", title: "T", body: "b"), created: .now, title: "T")
        try store.delete(try store.note(id: "d1"))
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try store.list().isEmpty)
    }

    @Test func anUnwritableFolderIsExplained() throws {
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent("file-\(UUID().uuidString)").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        let bad = NotesStore(directory: blocker + "/notes")
        #expect(throws: NotesError.self) { try bad.save("x", created: .now, title: "t") }
        do { try bad.save("x", created: .now, title: "t") } catch {
            #expect("\(error)".contains(blocker + "/notes"))
        }
    }

    @Test func fileStemsAreShortAndSafe() {
        let utc = TimeZone(identifier: "UTC")!
        let day = date("2026-01-05T00:00:00Z")
        #expect(NotesStore.fileStem(created: day, title: "../../etc/passwd", timeZone: utc) == "2026-01-05-etc-passwd")
        #expect(NotesStore.fileStem(created: day, title: "", timeZone: utc) == "2026-01-05")
        #expect(NotesStore.fileStem(created: day, title: "Über Köln — großartig!", timeZone: utc) == "2026-01-05-uber-koln-grossartig"
                || NotesStore.fileStem(created: day, title: "Über Köln — großartig!", timeZone: utc) == "2026-01-05-uber-koln-großartig")
        #expect(NotesStore.fileStem(created: day, title: String(repeating: "word ", count: 40), timeZone: utc).count <= 71)
    }

    /// Files a person (or another program) may leave in the folder: one note whose front
    /// matter is never closed, one with none at all. The real notes still list and search.
    @Test func oddNotesDoNotHideTheOthers() throws {
        try store.save(note(id: "good1", created: "2026-11-05T09:00:00Z", title: "Garden plan", body: "Tomatoes on the balcony."),
                       created: date("2026-11-05T09:00:00Z"), title: "Garden plan")
        try store.save(note(id: "good2", created: "2026-11-06T09:00:00Z", title: "Bike lamp", body: "Buy a new one."),
                       created: date("2026-11-06T09:00:00Z"), title: "Bike lamp")
        try "---\nid: \"open1\"\ncreated: \"2026-11-07T09:00:00Z\"\n# Never closed\n\nTomatoes again.\n"
            .write(toFile: store.directory + "/unclosed.md", atomically: true, encoding: .utf8)
        try "# Just Markdown\n\nNo front matter here.\n".write(toFile: store.directory + "/plain.md", atomically: true, encoding: .utf8)
        let listed = try store.list()
        #expect(Set(listed.map(\.id)).isSuperset(of: ["good1", "good2"]), "\(listed.map(\.path))")
        #expect(listed.count == 4, "every .md file is listed: \(listed.map(\.path))")
        #expect(try store.search("tomatoes").notes.map(\.id).contains("good1"))
        #expect(try store.search("bike").notes.map(\.id) == ["good2"])
        #expect(try store.note(id: "good2").title == "Bike lamp")
    }

    /// A note that cannot be read (here: a folder and a dangling link named like notes, since
    /// the tests may run as root, who reads any file) must not hide the readable ones.
    @Test func anUnreadableNoteDoesNotHideTheOthers() throws {
        try store.save(note(id: "good1", created: "2026-11-05T09:00:00Z", title: "Garden plan", body: "Tomatoes on the balcony."),
                       created: date("2026-11-05T09:00:00Z"), title: "Garden plan")
        try FileManager.default.createDirectory(atPath: store.directory + "/folder.md", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: store.directory + "/gone.md", withDestinationPath: store.directory + "/nowhere")
        try "x".write(toFile: store.directory + "/locked.md", atomically: true, encoding: .utf8)
        chmod(store.directory + "/locked.md", 0)
        let listed = try store.list().map(\.id)
        // chmod 0 does not stop root: the locked file is readable then, and listed.
        #expect(listed == (getuid() == 0 ? ["good1", "locked"] : ["good1"]))
        #expect(try store.catalog().skipped.map { $0.split(separator: " ")[0].split(separator: "/").last! }
                == ["folder.md", "gone.md"] + (getuid() == 0 ? [] : ["locked.md"]))
        let found = try store.search("tomatoes").notes.map(\.id)
        #expect(found == ["good1"])
    }
}
