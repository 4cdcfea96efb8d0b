import Testing
@testable import Decisions

/// The deadline tells a blown budget from a cancelled task; no test waits for a clock.
@Suite("Deadline")
struct DeadlineTests {
    @Test func aZeroBudgetIsOverAtOnceAndALongOneIsNot() throws {
        #expect(throws: LanguageModelError.overBudget(.zero)) { try Deadline(.zero).check() }
        try Deadline(.seconds(3_600)).check()
        try Deadline.unlimited.check()
    }

    @Test func cancellationComesFirst() async throws {
        for deadline in [Deadline(.zero), Deadline(.seconds(3_600)), .unlimited] {
            await #expect(throws: LanguageModelError.cancelled) {
                try await inCancelledTask { try deadline.check() }
            }
        }
    }
}
