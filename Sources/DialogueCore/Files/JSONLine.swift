import Foundation

/// One compact JSON object (or value) on one line, keys sorted and slashes left as they are:
/// the shape of every line we write, journals, `--events`, the `--json` outputs.
public enum JSONLine {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The line without its newline; empty if the value cannot be encoded (ours always can).
    public static func encode(_ value: some Encodable) -> String {
        String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }
}
