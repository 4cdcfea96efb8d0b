import DialogueCore
import Foundation
import Synchronization
import VoiceSession

/// What the person sees. Calm and legible: one line per question and answer, a live status
/// line (level meter, listening / hearing you / thinking) only on a terminal, colour only on a
/// terminal without NO_COLOR. Every piece of user text is cleaned of control characters first,
/// so an answer cannot move the cursor or change the terminal.
final class Screen: SessionDisplay {
    let isTerminal: Bool
    let useColor: Bool
    /// Whether a status line is on screen (the next line replaces it).
    private let statusShown = Mutex(false)

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
    func line(_ text: String) {
        statusShown.withLock { shown in
            clearStatus(&shown)
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
        statusShown.withLock { clearStatus(&$0) }
        FileHandle.standardError.write(Data((styled("dialogue-memo: ", .red) + Self.clean(text) + "\n").utf8))
    }

    /// The live status line: a state word and a level meter (0…1). Terminals only.
    func status(_ state: String, level: Float?, partial: String?) {
        guard isTerminal else { return }
        var text = "  " + state
        if let level {
            let filled = max(0, min(12, Int((level * 12).rounded())))
            text += "  " + String(repeating: "▮", count: filled) + String(repeating: "▯", count: 12 - filled)
        }
        if let partial, !partial.isEmpty { text += "  " + Self.clean(partial).suffix(50) }
        statusShown.withLock { shown in
            FileHandle.standardOutput.write(Data(("\r\u{1B}[2K" + styled(text, .dim)).utf8))
            shown = true
        }
    }

    private func clearStatus(_ shown: inout Bool) {
        if shown {
            FileHandle.standardOutput.write(Data("\r\u{1B}[2K".utf8))
            shown = false
        }
    }

    /// User text made safe for a terminal (one rule for all: `UserText.terminalLine`).
    static func clean(_ text: String) -> String { UserText.terminalLine(text) }
}
