import DialogueCore
import Foundation
import Testing
@testable import Notes

/// The index must answer exactly as reading every file would, whatever happened to the folder
/// between two commands, and must never let a file from outside the folder in.
@Suite("Notes index")
struct NotesIndexTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID().uuidString)").path
    let indexes = FileManager.default.temporaryDirectory.appendingPathComponent("indexes-\(UUID().uuidString)").path
    var store: NotesStore { NotesStore(directory: folder, indexDirectory: indexes) }

    /// A small deterministic generator, so a failing sequence can be replayed from its seed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E3779B97F4A7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
            z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
            return z ^ (z >> 31)
        }
    }

    static let words = ["Café", "cafe", "ÜBER", "Köln", "東京", "会議", "予算", "ｃａｆé", "ＡＩ", "tomato", "Zebra512",
                        "niño", "garçon", "straße", "plan", "A", "x", "\"quoted\"", "C\\+\\+", "ﾃｽﾄ"]

    /// People as notes name them, spelled alike and apart ("Tom", "tom", "Tomás"; "Müller", "MULLER").
    static let names = ["Tom", "tom", "Tomás", "Tomatoes", "Frau Müller", "MULLER", "田中さん", "田中", "Li Wei", "\"Q\""]

    static func note(_ rng: inout SplitMix, id: String) -> String {
        func phrase(_ count: Int) -> String { (0..<count).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ") }
        let day = Int.random(in: 1...28, using: &rng), hour = Int.random(in: 0...23, using: &rng)
        let created = String(format: "2026-%02d-%02dT%02d:00:00%@", Int.random(in: 1...12, using: &rng), day, hour,
                             Bool.random(using: &rng) ? "Z" : "+09:00")
        var body = phrase(Int.random(in: 1...12, using: &rng)) + "\n"
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            body += "- [\(Bool.random(using: &rng) ? "x" : " ")] \(phrase(3)) tomorrow\n"
        }
        let people = (0..<Int.random(in: 0...2, using: &rng)).map { _ in FrontMatter.quoted(Self.names.randomElement(using: &rng)!) }
        return "---\nid: \"\(id)\"\ncreated: \"\(created)\"\nlanguage: \"\(["en", "ja", "de"].randomElement(using: &rng)!)\"\n"
            + "key_sentence: \"\(phrase(2).replacingOccurrences(of: "\"", with: "\\\""))\"\n"
            + (people.isEmpty ? "" : "people: [\(people.joined(separator: ", "))]\n") + "---\n# \(phrase(3))\n\n\(body)"
    }

    /// What every command would say by reading every regular file, as the store did before the index.
    func byReading() throws -> (notes: [NoteFile], tasks: [NoteTask]) {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".md") && !$0.hasPrefix(".") }
        // Newest first, then by path, as the store sorted before it had an index.
        let notes = names.compactMap { name -> NoteFile? in
            let path = folder + "/" + name
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == nil,
                  let data = FileManager.default.contents(atPath: path) else { return nil }
            return NoteFile(path: path, text: String(decoding: data, as: UTF8.self))
        }.sorted { ($0.created ?? .distantPast, $0.path) > ($1.created ?? .distantPast, $1.path) }
        return (notes, notes.flatMap { TaskListing.tasks(in: $0) })
    }

    func fields(_ notes: [NoteFile]) -> [String] {
        notes.map { "\($0.path)|\($0.id)|\($0.title)|\(String(describing: $0.created))|\($0.keySentence ?? "-")|\($0.language?.code ?? "-")|\(String(describing: $0.timeZone?.secondsFromGMT()))" }
    }

    func fields(_ tasks: [NoteTask]) -> [String] { tasks.map { "\($0.note.path)|\($0.text)|\($0.done)|\($0.due ?? "-")" } }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func afterAnyChangesTheIndexAnswersAsReadingEveryFile(seed: UInt64) throws {
        var rng = SplitMix(state: seed)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder); try? FileManager.default.removeItem(atPath: indexes) }
        var names: [String] = []
        for step in 0..<60 {
            let name = "n\(Int.random(in: 0..<1_000, using: &rng)).md"
            let path = folder + "/" + (names.randomElement(using: &rng) ?? name)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0...3:  // a new note, as talk saves it or a sync tool brings it
                try Self.note(&rng, id: "id\(step)").write(toFile: folder + "/" + name, atomically: false, encoding: .utf8)
                names.append(name)
            case 4:  // an edit of the same size, its mtime put back (rsync -t)
                guard let data = FileManager.default.contents(atPath: path), let index = data.firstIndex(of: UInt8(ascii: "#")),
                      data[index + 2] < 0x80 else { continue }  // a byte of a wider character would leave no UTF-8
                var info = stat()
                stat(path, &info)
                var edited = data
                edited[index + 2] = UInt8(ascii: "Q")
                try edited.write(to: URL(fileURLWithPath: path))
                var times = [info.st_atim, info.st_mtim]
                utimensat(AT_FDCWD, path, &times, 0)
            case 5:  // an edit that changes the size
                guard FileManager.default.fileExists(atPath: path) else { continue }
                try (try String(contentsOfFile: path, encoding: .utf8) + "- [ ] Call Café tomorrow\n").write(toFile: path, atomically: true, encoding: .utf8)
            case 6:
                unlink(path)
            case 7:
                rename(path, folder + "/" + name)
                names.append(name)
            default:
                break
            }
            if step % 3 == 0 {
                let truth = try byReading()
                #expect(fields(try store.list()) == fields(truth.notes), "seed \(seed), step \(step)")
                #expect(fields(try store.tasks(all: true).tasks) == fields(truth.tasks), "seed \(seed), step \(step)")
                #expect(fields(try store.tasks(all: false).tasks) == fields(truth.tasks.filter { !$0.done }))
                for query in ["Tom", "tomas", "müller", "田中", "wei", "Li Wei", "Q", ""] {
                    let expected = truth.notes.filter { $0.people.contains { PeopleFinder.name($0, contains: query) } }
                    #expect(fields(try store.mentioning(query).notes) == fields(expected), "seed \(seed), step \(step), \(query)")
                }
                for person in try store.people().people {
                    let naming = truth.notes.filter { $0.people.contains { PeopleFinder.fold($0) == PeopleFinder.fold(person.name) } }
                    #expect(person.memos == naming.count && person.last == naming.first?.created, "seed \(seed), step \(step), \(person)")
                }
                for query in Self.words + ["a", "ka", "é", "ö", "ß", "on t", "\n", "Q"] {
                    let folded = NotesStore.folded(query)
                    let expected = truth.notes.filter { NotesStore.folded($0.title).contains(folded) || NotesStore.folded($0.body).contains(folded) }
                    #expect(fields(try store.search(query).notes) == fields(folded.isEmpty ? [] : expected), "seed \(seed), step \(step), \(query)")
                }
            }
        }
    }

    @Test func aHostileFolderGivesNothingFromOutsideAndTheGoodNotesStillWork() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)").path
        defer { for path in [folder, indexes, outside] { try? FileManager.default.removeItem(atPath: path) } }
        try "---\nid: \"secret\"\n---\n# rootsecret\n\nrootsecret password\n".write(toFile: outside, atomically: true, encoding: .utf8)
        try "---\nid: \"good\"\ncreated: \"2026-11-05T09:00:00Z\"\n---\n# Garden plan\n\nTomatoes.\n- [ ] Buy seeds\n"
            .write(toFile: folder + "/good.md", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/evil.md", withDestinationPath: outside)
        try Data([0x23, 0x20, 0x00, 0xFF, 0x01, 0x1B] + Array(repeating: 0, count: 7_000)).write(to: URL(fileURLWithPath: folder + "/binary.md"))
        try Data(("# Huge\n\nrootsecret " + String(repeating: "word ", count: 4_300_000)).utf8).write(to: URL(fileURLWithPath: folder + "/huge.md"))
        try Data([0x23, 0x20, 0x42, 0x61, 0x64, 0xC3, 0x28, 0x0A, 0x0A, 0x74, 0x6F, 0x6D, 0x61, 0x74, 0x6F, 0x0A]).write(to: URL(fileURLWithPath: folder + "/invalid-utf8.md"))
        try "# Escapes \u{1B}]0;pwned\u{07}\n\n\u{1B}[2Jtomato\n".write(toFile: folder + "/escapes.md", atomically: true, encoding: .utf8)
        mkfifo(folder + "/fifo.md", 0o600)

        let catalog = try store.catalog()
        #expect(Set(catalog.notes.map(\.id)) == ["good", "invalid-utf8", "escapes"])
        let skipped = catalog.skipped.joined(separator: "\n")
        #expect(skipped.contains("/evil.md is a symbolic link"), "\(skipped)")
        #expect(skipped.contains("/binary.md is not text"), "\(skipped)")
        #expect(skipped.contains("/huge.md is larger than 4 MB"), "\(skipped)")
        #expect(skipped.contains("/fifo.md is not a regular file"), "\(skipped)")
        #expect(catalog.skipped.count == 4)
        #expect(try store.search("rootsecret").notes.isEmpty)
        #expect(throws: NotesError.notFound("secret")) { try store.note(id: "secret") }
        #expect(throws: NotesError.notFound("evil")) { try store.note(id: "evil") }
        #expect(try store.search("tomato").notes.map(\.id).sorted() == ["escapes", "good", "invalid-utf8"])
        #expect(try store.note(id: "good").text.contains("Tomatoes."))
        #expect(try store.tasks(all: false).tasks.map(\.text) == ["Buy seeds"])

        // A link swapped in for a note after it was indexed is still never followed.
        unlink(folder + "/good.md")
        try FileManager.default.createSymbolicLink(atPath: folder + "/good.md", withDestinationPath: outside)
        #expect(try store.list().map(\.id).sorted() == ["escapes", "invalid-utf8"])
        #expect(try store.search("rootsecret").notes.isEmpty)
    }

    @Test func aDamagedIndexIsRebuiltAndAFolderThatIsALinkWorks() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let link = folder + "-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder)
        defer { for path in [folder, indexes, link] { try? FileManager.default.removeItem(atPath: path) } }
        try "---\nid: \"a\"\n---\n# Café\n".write(toFile: folder + "/a.md", atomically: true, encoding: .utf8)
        let linked = NotesStore(directory: link, indexDirectory: indexes)
        #expect(try linked.list().map(\.id) == ["a"])
        let files = try FileManager.default.contentsOfDirectory(atPath: indexes).filter { $0.hasSuffix(".sqlite") }
        #expect(files.count == 1)
        try Data(repeating: 0x55, count: 8_192).write(to: URL(fileURLWithPath: indexes + "/" + files[0]))
        for suffix in ["-wal", "-shm"] { unlink(indexes + "/" + files[0] + suffix) }
        #expect(try linked.search("cafe").notes.map(\.id) == ["a"])
        #expect(try store.list().map(\.id) == ["a"], "the same folder by its real path uses the same index")
    }

    /// An index of the version before the people table is built again, not read as it is.
    @Test func anIndexOfAnotherVersionIsRebuilt() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder); try? FileManager.default.removeItem(atPath: indexes) }
        try "---\nid: \"a\"\npeople: [\"Tom\"]\n---\n# Café\n".write(toFile: folder + "/a.md", atomically: true, encoding: .utf8)
        #expect(try store.list().map(\.id) == ["a"])
        let path = try #require(try FileManager.default.contentsOfDirectory(atPath: indexes).first { $0.hasSuffix(".sqlite") })
        let old = try SQLiteDatabase(path: indexes + "/" + path)
        try old.execute("DROP TABLE people; PRAGMA user_version = 1")
        #expect(try store.people().people.map(\.name) == ["Tom"])
        #expect(try store.mentioning("tom").notes.map(\.id) == ["a"])
    }

    /// Another command holding the index (building it for the first time, say) neither stops
    /// this one nor makes it throw the other's index away: it reads the folder itself.
    @Test func anIndexBusyElsewhereIsLeftAloneAndTheNotesStillList() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder); try? FileManager.default.removeItem(atPath: indexes) }
        try "---\nid: \"a\"\n---\n# Café\n".write(toFile: folder + "/a.md", atomically: true, encoding: .utf8)
        #expect(try store.list().map(\.id) == ["a"])
        try "---\nid: \"b\"\n---\n# Tea\n".write(toFile: folder + "/b.md", atomically: true, encoding: .utf8)
        let path = try #require(try FileManager.default.contentsOfDirectory(atPath: indexes).first { $0.hasSuffix(".sqlite") })
        let other = try SQLiteDatabase(path: indexes + "/" + path)
        try other.execute("BEGIN IMMEDIATE")
        #expect(try Set(store.list().map(\.id)) == ["a", "b"])
        #expect(try store.search("cafe").notes.map(\.id) == ["a"])
        try other.execute("COMMIT")
        #expect(FileManager.default.fileExists(atPath: indexes + "/" + path), "the other command's index was deleted")
        #expect(try Set(store.list().map(\.id)) == ["a", "b"])
    }

    @Test func progressIsReportedWhileManyNotesAreIndexed() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder); try? FileManager.default.removeItem(atPath: indexes) }
        for number in 0..<600 { try "# Note \(number)\n".write(toFile: folder + "/\(number).md", atomically: false, encoding: .utf8) }
        var seen: [Int] = []
        var totals: Set<Int> = []
        let catalog = try store.catalog { done, total in totals.insert(total); seen.append(done) }
        #expect(catalog.notes.count == 600)
        #expect(seen == [0, 256, 512, 600])
        #expect(totals == [600])
        seen = []
        _ = try store.catalog { done, _ in seen.append(done) }
        #expect(seen.isEmpty, "an index that is up to date reads nothing")
    }
}

@Suite struct CivilTimeTests {
    /// `list` and `tasks` print the dates a formatter would, in any zone, across centuries.
    @Test func theDayAndMinuteAreTheFormatters() {
        var rng = NotesIndexTests.SplitMix(state: 7)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        for zone in ["UTC", "Asia/Tokyo", "America/St_Johns", "Europe/Berlin", "Pacific/Kiritimati", "America/Los_Angeles"] {
            let timeZone = TimeZone(identifier: zone)!
            formatter.timeZone = timeZone
            for _ in 0..<500 {
                let date = Date(timeIntervalSince1970: Double.random(in: -2_000_000_000...8_000_000_000, using: &rng))
                let civil = CivilTime(date, in: timeZone)
                #expect(civil.minute == formatter.string(from: date), "\(zone) \(date.timeIntervalSince1970)")
                #expect(civil.day == String(formatter.string(from: date).prefix(10)))
            }
        }
    }
}

@Suite struct UniquePrefixTests {
    /// Sorting and comparing neighbours gives what widening until the prefixes differ gave.
    @Test func theSameLengthAsWideningUntilEveryIdDiffers() {
        var rng = NotesIndexTests.SplitMix(state: 11)
        func widened(_ ids: [String]) -> Int {
            var length = 6
            while length < (ids.map(\.count).max() ?? 6), Set(ids.map { $0.prefix(length) }).count < ids.count { length += 1 }
            return length
        }
        for round in 0..<1_000 {
            let alphabet = round % 2 == 0 ? "aab01" : "aab01é東"
            let ids = (0..<Int.random(in: 0...40, using: &rng)).map { _ in
                String((0..<Int.random(in: 1...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            }
            #expect(NoteListing.shortestUniquePrefix(ids) == widened(ids), "\(ids)")
        }
    }
}

@Suite("Notes index privacy")
struct NotesIndexPrivacyTests {
    /// The index is a copy of the notes' words: deleting a note must take its words out of the
    /// index's files too, not leave them in free pages, old segments or the write-ahead log.
    @Test func aDeletedNoteLeavesNoWordsInTheIndex() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID().uuidString)").path
        let indexes = FileManager.default.temporaryDirectory.appendingPathComponent("indexes-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder); try? FileManager.default.removeItem(atPath: indexes) }
        let store = NotesStore(directory: folder, indexDirectory: indexes)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for number in 0..<30 {
            try "---\nid: \"keep\(number)\"\n---\n# Garden \(number)\n\nTomatoes and beans.\n".write(toFile: folder + "/keep\(number).md", atomically: true, encoding: .utf8)
        }
        try "---\nid: \"secret\"\n---\n# Secret plan\n\nQuizzicalwombat the surprise party.\n".write(toFile: folder + "/secret.md", atomically: true, encoding: .utf8)
        #expect(try store.search("quizzicalwombat").notes.map(\.id) == ["secret"])
        func indexBytes() throws -> Data {
            try FileManager.default.contentsOfDirectory(atPath: indexes).reduce(into: Data()) {
                $0.append(try Data(contentsOf: URL(fileURLWithPath: indexes + "/" + $1)))
            }
        }
        #expect(try indexBytes().range(of: Data("quizzicalwombat".utf8)) != nil, "the test looks for what is really there")
        try store.delete(try store.note(id: "secret"))
        #expect(try store.search("quizzicalwombat").notes.isEmpty)
        #expect(try indexBytes().range(of: Data("quizzicalwombat".utf8)) == nil, "the deleted note's words are still in the index")
        #expect(try store.list().count == 30)
    }
}
