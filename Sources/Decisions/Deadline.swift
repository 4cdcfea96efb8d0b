/// The time limit of one model call. It is checked where task cancellation is checked (between
/// steps of the call), and the two throw different errors: a blown budget sends the decision to
/// the rules, a cancelled task stops the exchange.
public struct Deadline: Sendable {
    /// nil: no limit.
    public let budget: Duration?
    private let end: ContinuousClock.Instant?

    /// `budget` from now. A zero budget is over at its first check.
    public init(_ budget: Duration) {
        self.budget = budget
        end = .now + budget
    }

    private init() {
        budget = nil
        end = nil
    }

    /// Only cancellation stops the call (work done once, outside any one call's budget).
    public static let unlimited = Deadline()

    /// Throws `.cancelled` if the current task is cancelled, else `.overBudget` once the time is up.
    public func check() throws(LanguageModelError) {
        if Task.isCancelled { throw .cancelled }
        if let end, let budget, ContinuousClock.now >= end { throw .overBudget(budget) }
    }
}
