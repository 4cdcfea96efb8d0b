import DialogueCore
import Foundation
import Testing
import Transcription

/// One whisper context serves a whole dialogue: speculative transcriptions at pauses, then the
/// answer, then the next answers. The same clip must give the same words whatever came before,
/// or an answer transcribed at its last pause differs from the same answer transcribed whole.
/// (whisper.cpp's flash attention attends to window padding that earlier clips fill; see
/// `Transcriber.audioContext`.)
@Suite(.serialized)
struct TranscriptionHistoryTests {
    @Test func aClipGivesTheSameSegmentsAfterLongerAndShorterClips() async throws {
        let short = try spokenClip("Je pense que c'est une bonne idée. Je commencerais dans ma rue.", voice: "fr-fr")
        let long = try spokenClip("""
            Je veux créer une application pour partager des outils. Les gens économisent de l'argent \
            et se rencontrent. D'abord, je ferais une liste simple. Ensuite, je la testerais avec dix voisins.
            """, voice: "fr-fr")
        #expect(long.count > 2 * short.count)
        let options = TranscriptionOptions(language: "fr")
        let fresh = try await Transcriber(modelPath: DefaultModels.whisper).transcribe(short, options: options)

        let used = try Transcriber(modelPath: DefaultModels.whisper)
        _ = try await used.transcribe(long, options: options)
        let afterLonger = try await used.transcribe(short, options: options)
        _ = try await used.transcribe(Array(short.prefix(short.count / 3)), options: options)
        let afterShorter = try await used.transcribe(short, options: options)

        // Words and times; not whisper.cpp 1.8.5's no-speech probability, which it reads from a
        // logits row it did not compute (the previous call's).
        let words = { (t: Transcript) in t.segments.map { "\($0.start)–\($0.end) \($0.text)" } }
        #expect(!fresh.segments.isEmpty)
        #expect(words(afterLonger) == words(fresh))
        #expect(words(afterShorter) == words(fresh))
    }
}
