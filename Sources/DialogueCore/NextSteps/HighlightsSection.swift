import Foundation

/// What the highlights add to a note: front matter lines (where they came from, the key
/// sentence's ID and words, the dates named in the next steps) and, when there are next steps,
/// a closing "Next steps" list of Markdown task items (`- [ ] …`, the form Obsidian and most
/// editors tick), each the sentence exactly as in the body.
enum HighlightsSection {
    static func frontMatterLines(_ highlights: Highlights, source: HighlightsSource, sources: [Source],
                                 metadata: NoteMetadata) -> [String] {
        var lines = ["next_steps: \(FrontMatter.quoted(source.rawValue))", "key: \(highlights.key)"]
        if let key = sources.first(where: { $0.id == highlights.key }) {
            lines.append("key_sentence: \(FrontMatter.quoted(NoteRenderer.displayForm(key.text)))")
        }
        let detector = DateDetector(language: metadata.language, created: metadata.created, timeZone: metadata.timeZone)
        let dates = steps(highlights, sources).compactMap { source in
            detector.date(in: source.text).map { "{id: \(source.id), date: \(FrontMatter.quoted($0))}" }
        }
        if !dates.isEmpty { lines.append("dates: [\(dates.joined(separator: ", "))]") }
        return lines
    }

    /// `## Next steps` and one unticked item per next step; nil when there are none.
    static func block(_ highlights: Highlights, sources: [Source], heading: String) -> String? {
        let items = steps(highlights, sources).map { "- [ ] " + MarkdownEscaping.escapeLine(NoteRenderer.displayForm($0.text)) }
        guard !items.isEmpty else { return nil }
        return "## " + MarkdownEscaping.escapeLine(heading) + "\n\n" + items.joined(separator: "\n")
    }

    private static func steps(_ highlights: Highlights, _ sources: [Source]) -> [Source] {
        let byID = Dictionary(uniqueKeysWithValues: sources.map { ($0.id, $0) })
        return highlights.nextSteps.compactMap { byID[$0] }
    }
}
