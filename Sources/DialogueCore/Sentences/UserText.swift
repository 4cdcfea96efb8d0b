/// Makes recognized or typed text safe to show and store, without changing its words:
/// terminal escape sequences and control characters are removed (they could repaint the
/// screen or hide text), bidirectional overrides are removed (they could disguise text),
/// every kind of line break becomes "\n", and tabs become spaces.
public enum UserText {
    /// `sanitized`, on one line: what a terminal shows of user text (line breaks become
    /// spaces, so an answer cannot push the status line or a prompt around).
    public static func terminalLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isSpecial) else { return text }
        return String(String.UnicodeScalarView(sanitized(text).unicodeScalars.map { $0 == "\n" ? " " : $0 }))
    }

    public static func sanitized(_ text: String) -> String {
        // Most text has nothing to remove: returned as it is, without a copy a scalar at a time
        // (`list` shows thousands of lines).
        guard text.unicodeScalars.contains(where: { isSpecial($0) && $0 != "\n" }) else { return text }
        var output = String.UnicodeScalarView()
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            switch scalar.value {
            case 0x1B, 0x9B:  // ESC or CSI: drop the whole escape sequence
                dropEscapeSequence(startingWith: scalar, from: &scalars)
            case 0x0D:  // CR or CRLF
                if scalars.first == "\n" { scalars.removeFirst() }
                output.append("\n")
            case 0x0A, 0x0B, 0x0C, 0x85, 0x2028, 0x2029:
                output.append("\n")
            case 0x09:
                output.append(" ")
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF, 0xFFF9...0xFFFB:
                continue
            default:
                output.append(scalar)
            }
        }
        return String(output)
    }

    /// The scalars `sanitized` removes or changes (and "\n", which `terminalLine` changes).
    private static func isSpecial(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF, 0xFFF9...0xFFFB: true
        default: false
        }
    }

    /// ESC [ … final byte (CSI), ESC ] … BEL or ESC \ (OSC), or ESC and one character.
    private static func dropEscapeSequence(startingWith first: Unicode.Scalar, from scalars: inout ArraySlice<Unicode.Scalar>) {
        var isCSI = first.value == 0x9B
        var isString = false
        if first.value == 0x1B, let next = scalars.first {
            switch next {
            case "[": isCSI = true; scalars.removeFirst()
            case "]", "P", "X", "^", "_": isString = true; scalars.removeFirst()
            default:
                if next.value >= 0x20 && next.value < 0x7F { scalars.removeFirst() }
                return
            }
        }
        if isCSI {
            // Parameters and intermediates (0x20–0x3F), then one final byte (0x40–0x7E).
            while let next = scalars.first, (0x20...0x3F).contains(next.value) { scalars.removeFirst() }
            if let next = scalars.first, (0x40...0x7E).contains(next.value) { scalars.removeFirst() }
        } else if isString {
            while let next = scalars.popFirst() {
                if next.value == 0x07 || next.value == 0x9C { break }
                if next.value == 0x1B, scalars.first == "\\" { scalars.removeFirst(); break }
            }
        }
    }
}
