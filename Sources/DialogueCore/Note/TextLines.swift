/// The lines of a text, split where `split(separator: "\n")` splits it (at each "\n" that does
/// not end a "\r\n", which is one character), but found a byte at a time and one at a time:
/// splitting a whole note by characters cost more than everything else done to it.
public struct TextLines: Sequence, IteratorProtocol {
    private let text: Substring
    private var start: String.Index
    private var done = false

    public init(_ text: some StringProtocol) {
        self.text = Substring(text)
        start = self.text.startIndex
    }

    public mutating func next() -> Substring? {
        guard !done else { return nil }
        let bytes = text.utf8
        var index = start
        var previous: UInt8 = 0
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x0A && previous != 0x0D {
                let line = text[start..<index]
                start = bytes.index(after: index)
                return line
            }
            previous = byte
            index = bytes.index(after: index)
        }
        done = true
        return text[start...]
    }
}
