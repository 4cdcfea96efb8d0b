import Foundation
import Testing
@testable import DialogueCore

@Suite struct LayoutTests {
    @Test func jsonShapeIsExactlyTheGrammars() throws {
        let layout = Layout(firstSourceIsTitle: true, groups: [[1], [2, 3]])
        #expect(layout.json == #"{"firstSourceIsTitle":true,"groups":[[1],[2,3]]}"#)
    }

    @Test func validationRejectsEveryKindOfMistake() {
        #expect(Layout(firstSourceIsTitle: false, groups: [[1]]).problems(sourceCount: 0) == [.noSources])
        #expect(Layout(firstSourceIsTitle: false, groups: []).problems(sourceCount: 2) == [.noGroups])
        #expect(Layout(firstSourceIsTitle: false, groups: [[1], [], [2]]).problems(sourceCount: 2) == [.emptyGroup(position: 2)])
        #expect(Layout(firstSourceIsTitle: false, groups: [[1]]).problems(sourceCount: 2) == [.missingID(2)])
        #expect(Layout(firstSourceIsTitle: false, groups: [[1, 2, 2]]).problems(sourceCount: 2) == [.repeatedID(2)])
        #expect(Layout(firstSourceIsTitle: false, groups: [[2], [1]]).problems(sourceCount: 2) == [.outOfOrder(1)])
        #expect(Layout(firstSourceIsTitle: false, groups: [[0, 1, 2, 3]]).problems(sourceCount: 2) == [.unknownID(0), .unknownID(3)])
        let big = Layout(firstSourceIsTitle: false, groups: [Array(1...49)])
        #expect(big.problems(sourceCount: 49) == [.groupTooLarge(position: 1, size: 49)])
        #expect(Layout(firstSourceIsTitle: false, groups: [Array(1...48), [49]]).isValid(sourceCount: 49))
    }

    @Test func resolveTakesTheFirstValidAttemptOrFallsBack() {
        let good = Layout(firstSourceIsTitle: true, groups: [[1], [2, 3]])
        let bad = Layout(firstSourceIsTitle: false, groups: [[1, 3]])
        #expect(Layout.resolve(attempts: [good], sourceCount: 3) == (good, .model))
        #expect(Layout.resolve(attempts: [bad, good], sourceCount: 3) == (good, .model))
        #expect(Layout.resolve(attempts: [nil, good], sourceCount: 3) == (good, .model))
        let fallback = Layout.resolve(attempts: [bad, nil], sourceCount: 3)
        #expect(fallback.source == .fallback && fallback.layout == Layout(firstSourceIsTitle: false, groups: [[1], [2], [3]]))
        #expect(Layout.resolve(attempts: [bad, bad, good], sourceCount: 3).source == .fallback, "only one retry")
    }
}
