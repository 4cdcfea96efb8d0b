/// The text added to the layout prompt for its one retry: what was wrong, and the rule again.
public enum LayoutReminder {
    public static func text(problems: [LayoutProblem], sourceCount: Int) -> String {
        let shown = problems.prefix(8).map(\.description)
        let more = problems.count > shown.count ? "; and \(problems.count - shown.count) more" : ""
        let rejected = shown.isEmpty ? "" : "Your previous layout was rejected: " + shown.joined(separator: "; ") + more + ". "
        let range = sourceCount == 1 ? "the ID 1" : "every ID from 1 to \(sourceCount)"
        return rejected
            + "Include \(range) exactly once, in ascending order, with no other numbers. "
            + "Each group is a run of consecutive IDs, at least 1 and at most \(Layout.maxGroupSize). "
            + "Set firstSourceIsTitle to true only if sentence 1 is a short heading."
    }
}
