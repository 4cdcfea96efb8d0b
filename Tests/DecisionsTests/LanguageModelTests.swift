import DialogueCore
import Foundation
import Testing
@testable import Decisions

@Suite("LanguageModel (real llama.cpp, default GGUF models)", .serialized)
struct LanguageModelTests {
    static let models = [DefaultModels.smolLM2, DefaultModels.gemma3]

    @Test(arguments: models)
    func loadsAndMakesAGrammarConstrainedChoice(path: String) async throws {
        let model = try LanguageModel(path: path, contextSize: 1024)
        #expect(model.vocabularySize > 30_000)
        let prompt = model.chatPrompt(system: "Answer with one word.", user: "Is the sky blue on a clear day? yes or no")
        let answer = try await model.complete(prompt: prompt, grammar: #"root ::= "yes" | "no""#, maxTokens: 4)
        #expect(["yes", "no"].contains(answer))
        // The same prompt again reuses the cached prefix and must give the same greedy answer.
        let again = try await model.complete(prompt: prompt, grammar: #"root ::= "yes" | "no""#, maxTokens: 4)
        #expect(again == answer)
    }

    @Test func aGrammarThatDoesNotParseIsAnErrorNotACrash() async throws {
        let model = try LanguageModel(path: DefaultModels.smolLM2, contextSize: 512)
        await #expect(throws: LanguageModelError.self) {
            _ = try await model.complete(prompt: "x", grammar: "root ::= (", maxTokens: 2)
        }
    }

    @Test func missingModelIsExplained() {
        #expect(throws: LanguageModelError.modelMissing(path: "/nonexistent.gguf")) {
            _ = try LanguageModel(path: "/nonexistent.gguf")
        }
    }
}
