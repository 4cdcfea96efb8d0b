import Foundation

/// The model's only contribution to the note: whether the first sentence can be the title,
/// and which consecutive sentence IDs form a paragraph. JSON shape, exactly as the model reads
/// it in the layout pass: `{"firstSourceIsTitle":true,"groups":[[1],[2,3]]}`.
public struct Layout: Sendable, Hashable, Codable {
    /// At most this many IDs in one group.
    public static let maxGroupSize = 48

    public var firstSourceIsTitle: Bool
    public var groups: [[Int]]

    public init(firstSourceIsTitle: Bool, groups: [[Int]]) {
        self.firstSourceIsTitle = firstSourceIsTitle
        self.groups = groups
    }

    /// The local fallback: one sentence per bullet, generic title. It cannot lose a sentence.
    public static func fallback(sourceCount: Int) -> Layout {
        Layout(firstSourceIsTitle: false, groups: sourceCount > 0 ? (1...sourceCount).map { [$0] } : [])
    }

    /// A plain voice note (`record`): the first sentence offered as the title (the title rule
    /// still decides), the rest as paragraphs of at most `maxGroupSize` sentences.
    public static func recording(sourceCount: Int) -> Layout {
        guard sourceCount > 1 else { return fallback(sourceCount: sourceCount) }
        let rest = Array(2...sourceCount)
        let paragraphs = stride(from: 0, to: rest.count, by: maxGroupSize).map {
            Array(rest[$0..<min($0 + maxGroupSize, rest.count)])
        }
        return Layout(firstSourceIsTitle: true, groups: [[1]] + paragraphs)
    }

    /// Compact JSON in that shape.
    public var json: String { JSONLine.encode(self) }
}

/// Where the layout of a note came from.
public enum LayoutSource: String, Sendable, Hashable, Codable {
    /// The model's layout (one that does not fit the sentences is never used).
    case model
    /// No model, an exchange that did not end normally, or a failed call: one sentence per bullet.
    case fallback
    /// A plain recording (`record`): our own layout, no model asked.
    case recording
}
