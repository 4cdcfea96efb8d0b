import Foundation

/// What the person sees. Calm and legible: one line per question and answer, a live status
/// line (level meter, listening / hearing you / thinking) only on a terminal, colour only on a
/// terminal without NO_COLOR. Every piece of user text is cleaned of control characters first,
/// so an answer cannot move the cursor or change the terminal.
final class Screen: @unchecked Sendable {
    private let lock = NSLock()
    let isTerminal: Bool
    let useColor: Bool
    private var statusShown = false

    init(isTerminal: Bool = isatty(STDOUT_FILENO) == 1,
         environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.isTerminal = isTerminal
        self.useColor = isTerminal && environment["NO_COLOR"].map(\.isEmpty) ?? true && environment["TERM"] != "dumb"
    }

    enum Style: String { case bold = "1", dim = "2", green = "32", yellow = "33", red = "31", cyan = "36" }

    func styled(_ text: String, _ style: Style) -> String {
        useColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// A line of output, replacing any live status line.
    func line(_ text: String = "") {
        lock.withLock {
            clearStatus()
            FileHandle.standardOutput.write(Data((text + "\n").utf8))
        }
    }

    func question(_ text: String, number: Int, total: Int) {
        let counter = number == 0 ? "" : styled(" (\(number)/\(total))", .dim)
        line()
        line(styled("❯ ", .cyan) + styled(Self.clean(text), .bold) + counter)
    }

    func answer(_ text: String) { line(styled("  “", .dim) + Self.clean(text) + styled("”", .dim)) }
    func notice(_ text: String) { line(styled(Self.clean(text), .yellow)) }
    func hint(_ text: String) { line(styled(Self.clean(text), .dim)) }
    func error(_ text: String) {
        lock.withLock { clearStatus() }
        FileHandle.standardError.write(Data((styled("dialogue-memo: ", .red) + Self.clean(text) + "\n").utf8))
    }

    /// The live status line: a state word and a level meter (0…1). Terminals only.
    func status(_ state: String, level: Float? = nil, partial: String? = nil) {
        guard isTerminal else { return }
        var text = "  " + state
        if let level {
            let filled = max(0, min(12, Int((level * 12).rounded())))
            text += "  " + String(repeating: "▮", count: filled) + String(repeating: "▯", count: 12 - filled)
        }
        if let partial, !partial.isEmpty { text += "  " + Self.clean(partial).suffix(50) }
        lock.withLock {
            FileHandle.standardOutput.write(Data(("\r\u{1B}[2K" + styled(text, .dim)).utf8))
            statusShown = true
        }
    }

    private func clearStatus() {
        if statusShown {
            FileHandle.standardOutput.write(Data("\r\u{1B}[2K".utf8))
            statusShown = false
        }
    }

    /// User text made safe for a terminal: escape sequences and control characters removed
    /// (line breaks become spaces).
    static func clean(_ text: String) -> String {
        var output = ""
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:
                // CSI: ESC [ … final byte in 0x40–0x7E; other escapes: drop the next character.
                if let next = scalars.next(), next == "[" || next == "]" {
                    while let c = scalars.next() {
                        if next == "[" ? (0x40...0x7E).contains(c.value) : (c.value == 0x07 || c.value == 0x9C) { break }
                    }
                }
            case 0x0A, 0x0D, 0x09: output.append(" ")
            case 0x00...0x1F, 0x7F...0x9F: continue
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
