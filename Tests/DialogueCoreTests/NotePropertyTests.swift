import Foundation
import Testing
@testable import DialogueCore

/// For any answers and any layouts the model could return, the note (after validate → retry →
/// fallback) holds every sentence exactly once, in order, and nothing else, and what the user
/// said never becomes Markdown or YAML structure.
@Suite struct NotePropertyTests {
    static let fragments: [String] = [
        "A new product idea.", "Frozen meals for people who are too busy to cook.", "Why not?", "It works!",
        "Una idea para el barrio.", "C'est tout le problème.", "Das ist alles noch vage.", "講演の感想です。",
        "5万円以上です。", "日本語とEnglishが混ざった文。", "Привет, мир.", "مرحبا بالعالم.", "😀", "😀🎉👨‍👩‍👧",
        "# Heading", "## Sub", "- item", "* star", "+ plus", "1. one", "2) two", "> quote", "```swift", "~~~", "---",
        "===", "| a | b |", "[link](http://example.com)", "![img](x.png)", "<script>alert(1)</script>", "**bold**",
        "_under_", "`code`", "\\", "\\*", "&amp;", "&#35;", "~~strike~~", "key: value", "title: \"x\"", "- [ ] todo",
        "[^1]", "<!-- hidden -->", "{{template}}", "$x^2$", "\u{1B}[31mred\u{1B}[0m", "\u{0}", "\u{7}", "\u{202E}evil",
        "\u{FEFF}", "tab\there", "Dr. Smith came.", "e.g. this", "3.14 is pi.", "…", "   ", "",
    ]

    static let separators = [" ", " ", ". ", "\n", "", "。", "\n\n", "\r\n", "  "]

    static func randomAnswer(_ random: inout SeededRandom) -> String {
        let roll = Int.random(in: 0..<20, using: &random)
        if roll == 0 { return "" }
        if roll == 1 {  // very long
            return (0..<Int.random(in: 50..<400, using: &random)).map { _ in fragments.randomElement(using: &random)! }.joined(separator: " ")
        }
        return (0..<Int.random(in: 1..<6, using: &random)).map { _ in
            fragments.randomElement(using: &random)! + separators.randomElement(using: &random)!
        }.joined()
    }

    /// Layouts a model might return: valid, nearly valid, or nonsense.
    static func randomLayout(_ count: Int, _ random: inout SeededRandom) -> Layout? {
        let title = Bool.random(using: &random)
        func partition() -> [[Int]] {
            guard count > 0 else { return [] }
            var groups: [[Int]] = [[]]
            for id in 1...count {
                if !groups[groups.count - 1].isEmpty && (groups[groups.count - 1].count == Layout.maxGroupSize || Int.random(in: 0..<3, using: &random) == 0) {
                    groups.append([])
                }
                groups[groups.count - 1].append(id)
            }
            return groups
        }
        var groups = partition()
        switch Int.random(in: 0..<12, using: &random) {
        case 0: return nil  // undecodable output
        case 1: groups = []
        case 2: groups.append([])
        case 3: if !groups.isEmpty { groups[Int.random(in: 0..<groups.count, using: &random)].removeLast() }
        case 4: if count > 0 { groups.append([Int.random(in: 1...count, using: &random)]) }
        case 5: groups = groups.reversed()
        case 6: groups.append([0, count + 1, -3])
        case 7: groups = [Array(1...max(count, 1)) + Array(1...max(count, 1))]
        case 8: groups = (0..<Int.random(in: 0..<5, using: &random)).map { _ in (0..<Int.random(in: 0..<5, using: &random)).map { _ in Int.random(in: -2...(count + 2), using: &random) } }
        case 9: groups = count > 0 ? [Array(1...count)] : []  // one group, too large when count > 48
        default: break
        }
        return Layout(firstSourceIsTitle: title, groups: groups)
    }

    /// `record`'s own layout: a title when the rule allows, the rest as paragraphs of at most
    /// 48 sentences, every sentence exactly once.
    @Test func aRecordingKeepsEverySentenceInOrder() throws {
        var random = SeededRandom(seed: 0x2EC0_4D)
        var titles = 0, cases = 0
        for round in 0..<600 {
            let code = LanguagePackLoader.supportedLanguages[round % 5]
            let pack = try Fixtures.pack(code)
            let answer = (0..<Int.random(in: 0..<(round % 7 == 0 ? 120 : 8), using: &random))
                .map { _ in Self.randomAnswer(&random) }.joined(separator: " ")
            let sources = SentenceSplitter.sources(from: [answer], language: code)
            guard !sources.isEmpty else { continue }   // `record` makes no note of nothing
            let layout = Layout.recording(sourceCount: sources.count)
            #expect(layout.isValid(sourceCount: sources.count), "\(layout.json)")
            let metadata = NoteMetadata(id: "rec-\(round)", created: Date(timeIntervalSince1970: Double(round) * 86_400),
                                        timeZone: TimeZone(secondsFromGMT: 0)!, language: code,
                                        questions: [], layoutSource: .recording)
            let note = NoteRenderer(pack: pack).render(sources: sources, layout: layout, metadata: metadata)
            try Self.check(note, sources: sources, layout: layout, source: .recording,
                           pack: pack, metadata: metadata)
            if try ReadNote(note).title != pack.genericTitle(created: metadata.created, timeZone: metadata.timeZone) { titles += 1 }
            cases += 1
        }
        #expect(titles > 20 && titles < cases, "\(titles) sentence titles in \(cases) recordings")
    }

    @Test func everySentenceExactlyOnceInOrderAndNothingElse() throws {
        var random = SeededRandom(seed: 0x5EED_2025)
        var renderers: [String: NoteRenderer] = [:]
        for code in LanguagePackLoader.supportedLanguages { renderers[code] = NoteRenderer(pack: try Fixtures.pack(code)) }
        var cases = 0, modelLayouts = 0, fallbacks = 0, titles = 0, sentencesChecked = 0
        for round in 0..<3_000 {
            let code = LanguagePackLoader.supportedLanguages[round % 5]
            let pack = try Fixtures.pack(code)
            let answers = (0..<Int.random(in: 0..<7, using: &random)).map { _ in Self.randomAnswer(&random) }
            let sources = SentenceSplitter.sources(from: answers, language: code)

            // Nothing the user said is lost in splitting (only control characters are removed).
            #expect(withoutWhitespace(sources.map(\.text).joined()) == withoutWhitespace(answers.map(UserText.sanitized).joined()))
            #expect(sources.map(\.id) == Array(0..<sources.count).map { $0 + 1 })

            let attempts = [Self.randomLayout(sources.count, &random), Self.randomLayout(sources.count, &random)]
            let (layout, source) = Layout.resolve(attempts: attempts, sourceCount: sources.count)
            let metadata = NoteMetadata(id: "case-\(round)", created: Date(timeIntervalSince1970: Double(round) * 86_400),
                                        timeZone: TimeZone(secondsFromGMT: 0)!, language: code,
                                        questions: [.problem], layoutSource: source)
            let note = try #require(renderers[code]).render(sources: sources, layout: layout, metadata: metadata)
            try Self.check(note, sources: sources, layout: layout, source: source, pack: pack, metadata: metadata)
            cases += 1
            sentencesChecked += sources.count
            if source == .model { modelLayouts += 1 } else { fallbacks += 1 }
            if try ReadNote(note).title != pack.genericTitle(created: metadata.created, timeZone: metadata.timeZone) { titles += 1 }
        }
        print("note property test: \(cases) cases, \(sentencesChecked) sentences, \(modelLayouts) model layouts, \(fallbacks) fallbacks, \(titles) sentence titles")
        #expect(modelLayouts > 500 && fallbacks > 500 && titles > 50)
    }

    static func check(_ note: String, sources: [Source], layout: Layout, source: LayoutSource, pack: LanguagePack, metadata: NoteMetadata) throws {
        let read = try ReadNote(note)
        // Front matter: only our own keys and values, never the user's words.
        #expect(read.frontMatter.map { String($0.prefix { $0 != ":" }) } == ["id", "created", "language", "questions", "layout"])
        #expect(read.frontMatter.last == "layout: \"\(source.rawValue)\"")
        // One title line.
        #expect(read.titleLine.hasPrefix("# ") && !read.titleLine.contains("\n"))
        let generic = pack.genericTitle(created: metadata.created, timeZone: metadata.timeZone)
        var expected = sources.map { NoteRenderer.displayForm($0.text) }
        var groups = layout.groups
        if read.title != generic {
            // A sentence title: it is sentence 1, allowed by the layout, and it leaves the body.
            #expect(source != .fallback && layout.firstSourceIsTitle && sources.count >= 2)
            #expect(read.title == expected.first)
            expected.removeFirst()
            groups = groups.map { $0.filter { $0 != 1 } }.filter { !$0.isEmpty }
        }
        // Body text: exactly the sentences, in order, nothing else.
        let lines = read.blocks.flatMap { $0 }
        let contents: [String]
        switch source {
        case .fallback:
            #expect(read.blocks.count <= 1)
            #expect(lines.allSatisfy { $0.hasPrefix("- ") })
            contents = lines.map { String($0.dropFirst(2)) }
            #expect(contents.count == expected.count)
        case .model, .recording:
            #expect(read.blocks.allSatisfy { $0.count == 1 }, "a paragraph is one line")
            contents = lines
            #expect(contents.count == groups.count)
            // Each paragraph is exactly its group's sentences.
            var next = 0
            for (content, group) in zip(contents, groups) {
                let own = expected[next..<(next + group.count)].joined()
                #expect(withoutWhitespace(MarkdownEscaping.unescape(content)) == withoutWhitespace(own))
                next += group.count
            }
        }
        #expect(withoutWhitespace(contents.map(MarkdownEscaping.unescape).joined()) == withoutWhitespace(expected.joined()))
        if source == .fallback {
            for (content, sentence) in zip(contents, expected) { #expect(MarkdownEscaping.unescape(content) == sentence) }
        }
        // Structure: no line opens a Markdown block, no inline marker is left unescaped.
        for content in contents + [String(read.titleLine.dropFirst(2))] {
            #expect(!opensBlock(content), "opens a block: \(content)")
            #expect(!hasUnescapedMarker(content), "unescaped marker: \(content)")
            #expect(!content.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" })
        }
    }

    static func opensBlock(_ line: String) -> Bool {
        guard let first = line.first else { return false }
        if first.isWhitespace || "#>-+*=`~|<".contains(first) { return true }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, let marker = line.dropFirst(digits.count).first, marker == "." || marker == ")" { return true }
        return false
    }

    static func hasUnescapedMarker(_ line: String) -> Bool {
        var escaped = false
        for character in line {
            if escaped { escaped = false; continue }
            if character == "\\" { escaped = true; continue }
            if "`*_[]<>|~#".contains(character) { return true }
        }
        return escaped  // a trailing lone backslash
    }
}
