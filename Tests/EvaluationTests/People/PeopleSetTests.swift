import DialogueCore
import Evaluation
import Foundation
import Testing

/// The labelled people sets (issue 46): the set with its dev and test parts, the blind batch
/// written before any name finder, and the second one written before the finder was tuned. Each
/// name must be a span copied exactly from its answer, so a finder is scored on the person's own
/// words; the counts are what the issue asks for.
@Suite struct PeopleSetTests {
    @Test(arguments: [("people-scenarios.json", 16, ["dev", "test"]), ("people-blind-batch.json", 9, ["test"]),
                      ("people-blind-batch-2.json", 12, ["test"])])
    func namesAreSpansOfTheAnswersAndEachLanguageHasEnough(file: String, perLanguage: Int, splits: [String]) throws {
        let set = try PeopleScenarioSet.load(from: EvaluationFixtures.fixture(file))
        #expect(Set(set.memos.map(\.id)).count == set.memos.count, "\(file): ids are unique")
        for language: Language in ["en", "de", "es", "fr", "ja"] {
            let memos = set.memos.filter { $0.language == language }
            #expect(memos.count == perLanguage, "\(file) \(language)")
            #expect(memos.flatMap(\.people).count >= 30, "\(file) \(language): at least 30 mentions")
            #expect(Set(memos.map(\.split)) == Set(splits), "\(file) \(language)")
        }
        for memo in set.memos {
            #expect(!memo.traps.isEmpty, "\(memo.id) has traps")
            for mention in memo.people {
                #expect(memo.answers.indices.contains(mention.answer) && memo.answers[mention.answer].contains(mention.text),
                        "\(memo.id): \(mention.text) is not a span of answer \(mention.answer)")
            }
        }
    }
}
