/// Keeps the user's words from becoming Markdown structure. Each paragraph, bullet and the
/// title is one line, so what matters is inline syntax anywhere and block syntax at the start
/// of the line. Escaping uses CommonMark backslash escapes, which every Markdown reader
/// removes on display, so the words read as spoken.
enum MarkdownEscaping {
    /// Inline markers: code, emphasis, links and images, HTML, tables, strikethrough, headings.
    static let escapedEverywhere: Set<Character> = ["\\", "`", "*", "_", "[", "]", "<", ">", "|", "~", "#"]

    /// One line of user text, escaped. The text must not contain line breaks.
    static func escapeLine(_ text: String) -> String {
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if escapedEverywhere.contains(character) || (character == "&" && startsEntity(text[text.index(after: index)...])) {
                output.append("\\")
            }
            output.append(character)
            index = text.index(after: index)
        }
        return escapeLineStart(output)
    }

    /// "- ", "+ ", "=", "1. ", "1) " at the start of a line would open a list, a setext
    /// underline or a thematic break.
    private static func escapeLineStart(_ line: String) -> String {
        guard let first = line.first else { return line }
        if first == "-" || first == "+" || first == "=" { return "\\" + line }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, digits.count <= 9 {
            let rest = line.dropFirst(digits.count)
            if let marker = rest.first, marker == "." || marker == ")" {
                return String(digits) + "\\" + rest
            }
        }
        return line
    }

    /// "&amp;", "&#35;": an entity reference would be shown as the character it names.
    private static func startsEntity(_ rest: Substring) -> Bool {
        let name = rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "#") }
        return !name.isEmpty && rest.dropFirst(name.count).first == ";"
    }

    /// Inverse of `escapeLine`, for tests and for reading a note back.
    static func unescape(_ line: String) -> String {
        var output = ""
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            if character == "\\", let next = iterator.next() {
                if next.isASCII && next.isPunctuation || next.isASCII && next.isSymbol {
                    output.append(next)
                } else {
                    output.append(character)
                    output.append(next)
                }
            } else {
                output.append(character)
            }
        }
        return output
    }
}
