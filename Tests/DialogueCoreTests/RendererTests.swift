import Foundation
import Testing
@testable import DialogueCore

@Suite struct RendererTests {
    static let created = Date(timeIntervalSince1970: 1_764_433_543)  // 2025-11-29 16:25:43 UTC
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    func render(_ answers: [String], _ layout: Layout, source: LayoutSource = .model, language: Language = .english) throws -> String {
        let sources = SentenceSplitter.sources(from: answers, language: language)
        let metadata = NoteMetadata(id: "memo-1", created: Self.created, timeZone: Self.berlin, language: language,
                                    questions: [.problem, .audience], layoutSource: source)
        return NoteRenderer(pack: try Fixtures.pack(language)).render(sources: sources, layout: layout, metadata: metadata).markdown
    }

    @Test func modelLayoutMakesATitleAndParagraphs() throws {
        let note = try render(["A bike bell that counts. Every ring saves the spot.", "Because nobody reports near misses."],
                              Layout(firstSourceIsTitle: true, groups: [[1], [2, 3]]))
        #expect(note == """
        ---
        id: "memo-1"
        created: "2025-11-29T17:25:43+01:00"
        language: "en"
        questions: ["problem", "audience"]
        layout: "model"
        ---

        # A bike bell that counts.

        Every ring saves the spot. Because nobody reports near misses.

        """)
    }

    @Test func fallbackMakesBulletsAndTheGenericTitle() throws {
        let note = try render(["A bike bell that counts. Every ring saves the spot."], .fallback(sourceCount: 2), source: .fallback)
        #expect(note.hasSuffix("""
        layout: "fallback"
        ---

        # Memo from 2025-11-29

        - A bike bell that counts.
        - Every ring saves the spot.

        """))
    }

    @Test func anInvalidLayoutIsReplacedEvenHere() throws {
        let note = try render(["One. Two. Three."], Layout(firstSourceIsTitle: true, groups: [[1, 3]]))
        #expect(note.contains("layout: \"fallback\"") && note.contains("- Two.") && note.contains("- Three."))
    }

    @Test func titleRuleRejectsLongFillerAndLoneSentences() throws {
        let long = try render(["This first sentence has far more than six words in it. Second."], Layout(firstSourceIsTitle: true, groups: [[1], [2]]))
        #expect(try ReadNote(long).title == "Memo from 2025-11-29")
        #expect(try ReadNote(long).blocks.count == 2, "the rejected title stays in the body")
        let filler = try render(["Okay, so. The trip was loud and funny."], Layout(firstSourceIsTitle: true, groups: [[1, 2]]))
        #expect(try ReadNote(filler).title == "Memo from 2025-11-29")
        let alone = try render(["Attic office."], Layout(firstSourceIsTitle: true, groups: [[1]]))
        #expect(try ReadNote(alone).title == "Memo from 2025-11-29")
        #expect(try ReadNote(alone).blocks == [["Attic office."]])
    }

    @Test func shortMeansWordsOrJapaneseCharacters() {
        #expect(NoteTitle.isShort("Ein Tauschregal fürs Büro."))
        #expect(NoteTitle.isShort("Un club de lectura por audio."))
        #expect(!NoteTitle.isShort("I want to turn the attic into a room."))
        #expect(NoteTitle.isShort("忘れ物の検索サービスについて。"))
        #expect(!NoteTitle.isShort("保護犬を家に迎えようかと、去年の冬くらいからずっと考えています。"))
        #expect(!NoteTitle.isShort(String(repeating: "x", count: 61)))
    }

    @Test func japaneseSentencesJoinWithoutSpaces() throws {
        let note = try render(["講演の感想です。とても良かった。", "また行きたい。"], Layout(firstSourceIsTitle: true, groups: [[1], [2, 3]]), language: "ja")
        let read = try ReadNote(note)
        #expect(read.title == "講演の感想です。")
        #expect(read.blocks == [["とても良かった。また行きたい。"]])
    }

    @Test func userTextCannotBecomeStructure() throws {
        let hostile = ["# Heading. - item. 1. one. > quote. ---", "```code``` and *bold* and [link](http://x) <script>x</script> | a | b | &amp; ~~s~~ \\"]
        let note = try render(hostile, .fallback(sourceCount: SentenceSplitter.sources(from: hostile, language: "en").count), source: .fallback)
        let read = try ReadNote(note)
        #expect(read.frontMatter.count == 5)
        try #require(read.blocks.flatMap({ $0 }).count == SentenceSplitter.sources(from: hostile, language: "en").count)
        for line in read.blocks.flatMap({ $0 }) {
            #expect(line.hasPrefix("- "))
            let body = line.dropFirst(2)
            #expect(!["#", ">", "-", "+", "*", "=", "`", "|", "<"].contains(String(body.prefix(1))), "\(line)")
        }
        #expect(note.contains(##"\# Heading."##) && note.contains(#"\*bold\*"#) && note.contains(#"\[link\](http://x)"#))
        #expect(note.contains(#"\<script\>"#) && note.contains(#"\&amp;"#) && note.contains(#"1\. one."#))
        let joined = read.blocks.flatMap { $0 }.map { MarkdownEscaping.unescape(String($0.dropFirst(2))) }.joined()
        #expect(withoutWhitespace(joined) == withoutWhitespace(hostile.joined()))
    }

    @Test func theMemosNoteNamesItsPeopleInTheFrontMatterAndLeavesTheBodyAlone() throws {
        let pack = try Fixtures.pack("de")
        let answer = "Ich frage Tom am Freitag, ob in seiner Garage Platz ist. Frau Müller von der Schule leiht uns die Halle. Tom hat Zeit."
        let sources = SentenceSplitter.sources(from: [answer], language: "de")
        let layout = Layout(firstSourceIsTitle: false, groups: [[1, 2, 3]])
        let note = Memo(id: "memo-1", created: Self.created, timeZone: Self.berlin, language: "de")
            .note(Conversation(turns: [Turn(question: .opening, answer: answer)]), sources: sources, layout: layout,
                  layoutSource: .model, exchange: nil, pack: pack, rules: Rules(pack: pack)).markdown
        #expect(note.contains("\npeople: [\"Tom\", \"Frau Müller\"]\n"))
        #expect(FrontMatter.read(note).list("people") == ["Tom", "Frau Müller"])
        let plain = NoteRenderer(pack: pack).render(sources: sources, layout: layout, metadata: NoteMetadata(
            id: "memo-1", created: Self.created, timeZone: Self.berlin, language: "de", questions: [], layoutSource: .model)).markdown
        #expect(FrontMatter.read(note).body == FrontMatter.read(plain).body, "the body is the same with or without people")
    }

    @Test func frontMatterQuotesItsValues() {
        #expect(FrontMatter.quoted("a \"b\" \\ c\nd") == #""a \"b\" \\ c\nd""#)
        let metadata = NoteMetadata(id: "x", created: Self.created, timeZone: TimeZone(secondsFromGMT: 0)!, language: "ja",
                                    questions: [], layoutSource: .fallback)
        #expect(FrontMatter.render(metadata).contains("created: \"2025-11-29T16:25:43Z\""))
        #expect(FrontMatter.render(metadata).contains("questions: []"))
    }
}
