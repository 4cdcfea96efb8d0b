import Foundation

/// The second thing the model contributes to a note, as numbers only: which sentences are next
/// steps and which one best states the idea. JSON shape, as traces and evaluations print it:
/// `{"key":1,"nextSteps":[3,5]}`.
public struct Highlights: Sendable, Hashable, Codable {
    /// Sentence IDs, ascending, each once (a subset of 1…N).
    public var nextSteps: [Int]
    /// The sentence ID that best states the idea.
    public var key: Int

    public init(nextSteps: [Int], key: Int) {
        self.nextSteps = nextSteps
        self.key = key
    }

    /// What a note gets when the model is not asked or its call failed: no next steps (a
    /// wrong task is worse than a missing one), and the first sentence as the key.
    public static let fallback = Highlights(nextSteps: [], key: 1)

    public var json: String { JSONLine.encode(self) }

    /// Why these highlights do not fit a note of `sourceCount` sentences (empty: they fit).
    public func problems(sourceCount: Int) -> [HighlightsProblem] {
        var problems: [HighlightsProblem] = []
        let outside = nextSteps.filter { $0 < 1 || $0 > sourceCount }
        if !outside.isEmpty { problems.append(.unknownIDs(outside)) }
        if nextSteps != Array(Set(nextSteps)).sorted() { problems.append(.notAscending) }
        if key < 1 || key > max(sourceCount, 1) { problems.append(.keyOutside(key)) }
        return problems
    }

    public func isValid(sourceCount: Int) -> Bool { problems(sourceCount: sourceCount).isEmpty }
}

public enum HighlightsProblem: Sendable, Hashable, CustomStringConvertible {
    case unknownIDs([Int])
    case notAscending
    case keyOutside(Int)

    public var description: String {
        switch self {
        case .unknownIDs(let ids): "no sentence has the ID \(ids.map(String.init).joined(separator: ", "))"
        case .notAscending: "next-step IDs must be ascending, each once"
        case .keyOutside(let id): "the key sentence \(id) does not exist"
        }
    }
}

/// Where a note's highlights came from.
public enum HighlightsSource: String, Sendable, Hashable, Codable {
    /// The model's answer (ones that do not fit the sentences are never used).
    case model
    /// Not asked (no model, an interrupted exchange) or the call failed.
    case fallback
}
