import DialogueCore
import Testing
import Transcription

/// Without timestamp tokens the loop guard's end of text ends the whole transcript, so a word a
/// person repeats must not pass for whisper looping: "words, words, words" (a 2-token unit three
/// times) once cut a real monologue's last eight words (`HallucinationFilter.endsInLoop`).
@Suite(.serialized)
struct RepeatedWordsTests {
    @Test func wordsSaidAfterARepeatedWordAreKept() async throws {
        let clip = try spokenClip("We are just saying some words. And here are some more words, words, words, words. "
                                  + "And that should be all, thanks.", voice: "en-us")
        let transcriber = try Transcriber(modelPath: DefaultModels.whisper)
        let text = try await transcriber.transcribe(clip, options: TranscriptionOptions(language: "en")).text.lowercased()
        try #require(text.contains("words, words, words"), "whisper must write the repetition for this test to mean anything: \(text)")
        #expect(text.contains("should be all"), "\(text)")
    }
}
