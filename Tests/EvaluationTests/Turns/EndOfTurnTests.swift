import DialogueCore
import Decisions
import Testing
@testable import Evaluation

@Suite("End of turn (real default model)", .serialized)
struct EndOfTurnTests {
    /// `eval turns --with-model`: a sentence left on "and" is less likely a whole turn than the
    /// same sentence finished, whatever mark whisper put after either.
    @Test func anOpenSentenceIsLessLikelyAWholeTurn() async throws {
        let model = try LanguageModel(path: DefaultModels.gemma3, contextSize: 1024)
        let finished = try #require(try await model.endOfTurnProbability(of: "I will ask Tom on Friday if his garage has room."))
        let open = try #require(try await model.endOfTurnProbability(of: "I will ask Tom on Friday if his garage has room and."))
        #expect(finished > 0 && finished <= 1)
        #expect(open < finished)
    }
}
