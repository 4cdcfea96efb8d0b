import Foundation

/// A rendered note: the Markdown, and the title it was given (not parsed back out of it).
public struct RenderedNote: Sendable, Hashable {
    public let markdown: String
    /// As the person reads it (the title line without its Markdown escapes).
    public let title: String
}

/// Writes the note: front matter, a `# Title` line, then one paragraph per group — or one
/// bullet per sentence for the fallback layout — and, with next steps, their task list. It
/// copies the user's sentences and nothing else; the model supplied only numbers. Escaping
/// keeps what the user said from becoming Markdown or YAML structure.
public struct NoteRenderer: Sendable {
    let pack: LanguagePack
    let book: PhraseBook

    public init(pack: LanguagePack) {
        self.pack = pack
        book = PhraseBook(pack.phrases)
    }

    /// With the pack's rules at hand, their compiled phrase lists are reused (compiling them is
    /// the costly part).
    public init(pack: LanguagePack, rules: Rules) {
        self.pack = pack
        book = rules.book
    }

    /// The Markdown note and its title (what its file is named after). An invalid layout is
    /// replaced by the fallback here too (defence in depth), and the front matter then says so.
    public func render(sources: [Source], layout: Layout, metadata: NoteMetadata) -> RenderedNote {
        var metadata = metadata
        var layout = layout
        if !layout.isValid(sourceCount: sources.count) {
            layout = .fallback(sourceCount: sources.count)
            metadata.layoutSource = .fallback
        }
        if let highlights = metadata.highlights, !highlights.isValid(sourceCount: sources.count) {
            metadata.highlights = .fallback
            metadata.highlightsSource = .fallback
        }
        let byID = Dictionary(uniqueKeysWithValues: sources.map { ($0.id, $0) })
        let titleFromSentence = metadata.layoutSource != .fallback
            && NoteTitle.firstSentenceIsTitle(sources, layout: layout, book: book)
        let title = titleFromSentence
            ? Self.displayForm(sources[0].text)
            : pack.genericTitle(created: metadata.created, timeZone: metadata.timeZone)

        let highlightLines = metadata.highlights.map {
            HighlightsSection.frontMatterLines($0, source: metadata.highlightsSource, sources: sources, metadata: metadata)
        } ?? []
        var blocks: [String] = [FrontMatter.render(metadata, extra: highlightLines), "# " + MarkdownEscaping.escapeLine(title)]
        let groups = layout.groups
            .map { group in group.filter { !(titleFromSentence && $0 == 1) }.compactMap { byID[$0] } }
            .filter { !$0.isEmpty }
        switch metadata.layoutSource {
        case .model, .recording:
            blocks += groups.map { MarkdownEscaping.escapeLine(Self.join($0.map { Self.displayForm($0.text) })) }
        case .fallback:
            let bullets = groups.flatMap { $0 }.map { "- " + MarkdownEscaping.escapeLine(Self.displayForm($0.text)) }
            if !bullets.isEmpty { blocks.append(bullets.joined(separator: "\n")) }
        }
        if let highlights = metadata.highlights,
           let section = HighlightsSection.block(highlights, sources: sources, heading: pack.ui(.nextStepsHeading)) {
            blocks.append(section)
        }
        return RenderedNote(markdown: blocks.joined(separator: "\n\n") + "\n", title: title)
    }

    /// A sentence on one line: runs of whitespace (line breaks included) become one space.
    /// Works on scalars, not characters: a combining mark or a joiner after a space belongs to
    /// the space's character, and splitting on characters would drop it with the space.
    public static func displayForm(_ sentence: String) -> String {
        var output = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in sentence.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !output.isEmpty
            } else {
                if pendingSpace { output.append(" ") }
                pendingSpace = false
                output.append(scalar)
            }
        }
        return String(output)
    }

    /// Sentences of one paragraph. Japanese and Chinese sentences follow each other without
    /// a space; others are separated by one.
    static func join(_ sentences: [String]) -> String {
        var paragraph = ""
        for sentence in sentences {
            if let last = paragraph.unicodeScalars.last, let next = sentence.unicodeScalars.first,
               !(isCJKBoundary(last) && isCJKBoundary(next)) {
                paragraph += " "
            }
            paragraph += sentence
        }
        return paragraph
    }

    private static func isCJKBoundary(_ scalar: Unicode.Scalar) -> Bool {
        MatchableText.isIdeographicOrKana(scalar) || (0x3000...0x303F).contains(scalar.value)
            || (0xFF01...0xFF0F).contains(scalar.value) || scalar == "\u{FF1F}"
    }
}
