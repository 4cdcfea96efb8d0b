import DialogueCore
import Foundation
import Testing
@testable import Transcription

@Suite("BackgroundTranscriber (a second whisper state on the same model)")
struct BackgroundTranscriberTests {
    /// The second state reads a clip as the transcriber's own state does with the same settings,
    /// also while that state is busy with another clip: the states share only the weights.
    @Test func readsAsTheLiveStateDoesEvenBesideIt() async throws {
        let samples = try WAVFile(contentsOf: DefaultModels.jfkSample).monoSamples()
        let transcriber = try Transcriber(modelPath: DefaultModels.whisper)
        let background = try BackgroundTranscriber(sharing: transcriber)
        let options = FileTranscription.options(language: "en", fast: false)
        let live = try await transcriber.transcribe(samples, options: options).text
        var fast = TranscriptionOptions(language: "en")
        fast.threads = 1
        var slow = options
        slow.threads = 1
        async let beside = transcriber.transcribe(Array(samples.prefix(80_000)), options: fast)
        let final = try await background.transcribe(samples, options: slow).text
        _ = try await beside
        #expect(final == live)
        #expect(final.lowercased().contains("ask not what your country can do for you"))
    }

    /// Cancelled, a pass stops (inside the encoder too) and throws; the state serves again after.
    @Test func aCancelledPassThrowsAndTheStateServesAgain() async throws {
        let samples = try WAVFile(contentsOf: DefaultModels.jfkSample).monoSamples()
        let transcriber = try Transcriber(modelPath: DefaultModels.whisper)
        let background = try BackgroundTranscriber(sharing: transcriber)
        let options = FileTranscription.options(language: "en", fast: false)
        let pass = Task { try await background.transcribe(samples + samples, options: options) }
        // From a thread outside Swift's pool: whisper calls (this one, others in parallel
        // suites) can hold every pool thread, and a sleep there would wake after the pass.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { pass.cancel() }
        await #expect(throws: CancellationError.self) { try await pass.value }
        let again = try await background.transcribe(samples, options: options).text
        #expect(again.lowercased().contains("what you can do for your country"))
    }
}
