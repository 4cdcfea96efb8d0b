/// What is wrong with a layout. Any problem rejects it: the note must hold every sentence
/// exactly once, in order.
public enum LayoutProblem: Sendable, Hashable, CustomStringConvertible {
    case noSources
    case noGroups
    /// Group at this 1-based position is empty.
    case emptyGroup(position: Int)
    /// Group at this 1-based position has more than 48 IDs.
    case groupTooLarge(position: Int, size: Int)
    /// An ID outside 1…N.
    case unknownID(Int)
    /// An ID that appears more than once.
    case repeatedID(Int)
    /// An ID of 1…N that appears nowhere.
    case missingID(Int)
    /// An ID that comes after a larger one.
    case outOfOrder(Int)

    public var description: String {
        switch self {
        case .noSources: "there are no sentences"
        case .noGroups: "there are no groups"
        case .emptyGroup(let position): "group \(position) is empty"
        case .groupTooLarge(let position, let size): "group \(position) has \(size) IDs (at most \(Layout.maxGroupSize))"
        case .unknownID(let id): "ID \(id) does not exist"
        case .repeatedID(let id): "ID \(id) appears more than once"
        case .missingID(let id): "ID \(id) is missing"
        case .outOfOrder(let id): "ID \(id) is out of order"
        }
    }
}

extension Layout {
    /// Every problem with this layout for `sourceCount` sentences, in a stable order; empty
    /// when the concatenated groups are exactly 1…N in groups of 1…48.
    public func problems(sourceCount: Int) -> [LayoutProblem] {
        if sourceCount <= 0 { return [.noSources] }
        if groups.isEmpty { return [.noGroups] }
        var problems: [LayoutProblem] = []
        for (index, group) in groups.enumerated() {
            if group.isEmpty { problems.append(.emptyGroup(position: index + 1)) }
            if group.count > Layout.maxGroupSize { problems.append(.groupTooLarge(position: index + 1, size: group.count)) }
        }
        let ids = groups.flatMap { $0 }
        var seen = Set<Int>()
        var reported = Set<Int>()
        var largest = 0
        for id in ids {
            guard (1...sourceCount).contains(id) else {
                if reported.insert(id).inserted { problems.append(.unknownID(id)) }
                continue
            }
            if !seen.insert(id).inserted {
                if reported.insert(id).inserted { problems.append(.repeatedID(id)) }
                continue
            }
            if id < largest, reported.insert(id).inserted { problems.append(.outOfOrder(id)) }
            largest = max(largest, id)
        }
        for id in 1...sourceCount where !seen.contains(id) {
            problems.append(.missingID(id))
            if problems.count > 200 { break }  // enough to explain; keeps huge inputs cheap
        }
        return problems
    }

    public func isValid(sourceCount: Int) -> Bool { problems(sourceCount: sourceCount).isEmpty }

    /// The layout to render from up to two model attempts (first try, retry; nil for a
    /// failed decode): the first valid one, else the local fallback.
    public static func resolve(attempts: [Layout?], sourceCount: Int) -> (layout: Layout, source: LayoutSource) {
        for attempt in attempts.prefix(2) {
            if let layout = attempt, layout.isValid(sourceCount: sourceCount) { return (layout, .model) }
        }
        return (.fallback(sourceCount: sourceCount), .fallback)
    }
}
