import DialogueCore
import Foundation
import Testing
@testable import Transcription

@Suite("Transcriber (real whisper.cpp, default model)")
struct TranscriberTests {
    @Test func transcribesJFKWordForWord() async throws {
        let wav = try WAVFile(contentsOf: DefaultModels.jfkSample)
        #expect(wav.sampleRate == 16_000)
        let transcriber = try Transcriber(modelPath: DefaultModels.whisper)
        #expect(transcriber.isMultilingual)
        // The dialogue's settings (no timestamp tokens), then a file's (segment times).
        let transcript = try await transcriber.transcribe(wav.monoSamples(), options: TranscriptionOptions(language: "en"))
        let words = transcript.text.lowercased().split { !$0.isLetter }.joined(separator: " ")
        #expect(words == "and so my fellow americans ask not what your country can do for you ask what you can do for your country")
        let timed = try await transcriber.transcribe(wav.monoSamples(), options: FileTranscription.options(language: "en", fast: false, segmentTimes: true))
        #expect(timed.text.lowercased().split { !$0.isLetter }.joined(separator: " ") == words)
        #expect(timed.segments.allSatisfy { $0.start >= 0 && $0.start < $0.end && $0.end <= 11.5 }, "\(timed.segments)")
    }

    /// A beam pass over the full window (an answer's final pass) stops when its task is
    /// cancelled, and the transcriber serves the dialogue's greedy passes again right after.
    @Test func aCancelledBeamPassThrowsAndTheTranscriberServesAgain() async throws {
        let samples = try WAVFile(contentsOf: DefaultModels.jfkSample).monoSamples()
        let transcriber = try Transcriber(modelPath: DefaultModels.whisper)
        let pass = Task { try await transcriber.transcribe(samples + samples, options: FileTranscription.options(language: "en", fast: false)) }
        // From a thread outside Swift's pool: whisper calls (this one, others in parallel
        // suites) can hold every pool thread, and a sleep there would wake after the pass.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { pass.cancel() }
        await #expect(throws: CancellationError.self) { try await pass.value }
        let again = try await transcriber.transcribe(samples, options: TranscriptionOptions(language: "en")).text
        #expect(again.lowercased().contains("what you can do for your country"))
    }

    /// The end-of-turn cue reads whisper's confidence in the mark that ends what it heard.
    @Test func theFinalMarkCarriesWhisperProbability() async throws {
        let wav = try WAVFile(contentsOf: DefaultModels.jfkSample)
        let transcriber = try Transcriber(modelPath: DefaultModels.whisper)
        let transcript = try await transcriber.transcribe(wav.monoSamples(), options: TranscriptionOptions(language: "en"))
        #expect(transcript.text.hasSuffix("."))
        let mark = try #require(transcript.finalMarkProbability)
        #expect(mark > 0.5 && mark <= 1)
        #expect(transcript.segments.dropLast().allSatisfy { segment in
            segment.finalMarkProbability == nil || segment.text.trimmingCharacters(in: .whitespaces).last?.isPunctuation == true
        })
    }

    /// A clip's end read in a window smaller than 256 frames gets its words, the same before
    /// and after a whole clip ran in a larger window: unpatched, whisper.cpp's flash attention
    /// read past the window what earlier clips left there (and a 128-frame window looped);
    /// scripts/whisper.sed.
    @Test func aSmallWindowReadsTheTailTheSameAfterALargerOne() async throws {
        let samples = try WAVFile(contentsOf: DefaultModels.jfkSample).monoSamples()
        let transcriber = try Transcriber(modelPath: DefaultModels.whisper)
        let clip = samples.suffix(26_000)
        var options = TranscriptionOptions(language: "en")
        options.audioContext = 128
        let fresh = try await transcriber.transcribe(Array(clip), options: options).text
        _ = try await transcriber.transcribe(samples, options: TranscriptionOptions(language: "en"))
        let after = try await transcriber.transcribe(Array(clip), options: options).text
        #expect(fresh.lowercased().hasSuffix("your country."), "\(fresh)")
        #expect(after == fresh)
    }

    /// An answer's window fitted to it (not a multiple of 256) reads it the same fresh and after
    /// a longer clip: what the longer clip left past the window is not read.
    @Test func aFittedWindowReadsAnAnswerTheSameAfterALongerOne() async throws {
        let samples = try WAVFile(contentsOf: DefaultModels.jfkSample).monoSamples()
        #expect(Transcriber.audioContext(forSamples: samples.count) == 608)   // 11 s + 0.6 s: 580 frames
        let transcriber = try Transcriber(modelPath: DefaultModels.whisper)
        let options = TranscriptionOptions(language: "en")
        let fresh = try await transcriber.transcribe(samples, options: options).text
        _ = try await transcriber.transcribe(samples + samples, options: options)
        let after = try await transcriber.transcribe(samples, options: options).text
        #expect(fresh.lowercased().contains("ask not what your country can do for you"), "\(fresh)")
        #expect(after == fresh)
    }

    /// At least 256 frames; above that the clip plus 0.6 s in steps of 32; past 1280 all 1500.
    @Test func theWindowFitsTheClip() {
        #expect(Transcriber.audioContext(forSamples: 0) == 256)
        #expect(Transcriber.audioContext(forSamples: 4 * 16_000) == 256)            // 4.6 s: 230 frames
        #expect(Transcriber.audioContext(forSamples: 5 * 16_000 + 8_000) == 320)    // 6.1 s: 305
        #expect(Transcriber.audioContext(forSamples: 10 * 16_000 + 8_000) == 576)   // 11.1 s: 555
        #expect(Transcriber.audioContext(forSamples: 26 * 16_000) == 1500)          // 26.6 s: 1330
    }

    @Test func resampledStereoCopyGivesTheSameWords() async throws {
        // 44.1 kHz stereo made from the same recording: the reader must downmix and resample.
        let wav = try WAVFile(contentsOf: DefaultModels.jfkSample)
        let high = Resampler.resample(wav.samples, from: 16_000, to: 44_100)
        var stereo: [Float] = []
        stereo.reserveCapacity(high.count * 2)
        for s in high { stereo.append(s); stereo.append(s) }
        let converted = WAVFile(sampleRate: 44_100, channels: 2, samples: stereo).monoSamples(at: 16_000)
        let transcriber = try Transcriber(modelPath: DefaultModels.whisper)
        let transcript = try await transcriber.transcribe(converted, options: TranscriptionOptions(language: "en"))
        #expect(transcript.text.lowercased().contains("ask not what your country can do for you"))
    }

    /// whisper polls the abort flag: raised before the call, whisper stops at its first
    /// compute step, so the call fails, as cancelled (had whisper ignored the flag, the words
    /// would come back).
    @Test func whisperStopsWhenTheAbortFlagIsRaised() async throws {
        let samples = try WAVFile(contentsOf: DefaultModels.jfkSample).monoSamples()
        let transcriber = try Transcriber(modelPath: DefaultModels.whisper)
        let abort = AbortFlag()
        abort.raise()
        await #expect(throws: CancellationError.self) {
            try await transcriber.run(samples, options: TranscriptionOptions(language: "en"), abort: abort)
        }
    }

    /// The dialogue's passes (with a draft) stop inside whisper's encoder when cancelled, not
    /// after it: a pause does not wait out the encoder of a pass it has made useless.
    @Test func anAbortStopsTheEncoderItself() async throws {
        let samples = try WAVFile(contentsOf: DefaultModels.jfkSample).monoSamples()
        let transcriber = try Transcriber(modelPath: DefaultModels.whisper)
        var options = TranscriptionOptions(language: "en")
        options.draft = []
        _ = try await transcriber.transcribe(samples, options: options)
        #expect(await transcriber.encoderRuns == 1)
        let abort = AbortFlag()
        abort.raise()
        await #expect(throws: CancellationError.self) { try await transcriber.run(samples, options: options, abort: abort) }
        #expect(await transcriber.encoderRuns == 0, "the encoder ran to its end although the pass was cancelled")
    }

    @Test func aCancelledTaskGetsCancellationError() async throws {
        let samples = try WAVFile(contentsOf: DefaultModels.jfkSample).monoSamples()
        let transcriber = try Transcriber(modelPath: DefaultModels.whisper)
        let transcription = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transcriber.transcribe(samples, options: TranscriptionOptions(language: "en"))
        }
        await #expect(throws: CancellationError.self) { try await transcription.value }
    }

    /// A draft (whisper's tokens for the start of the same audio, `TranscriptionOptions.draft`)
    /// is checked in batches, not trusted: right, wrong or partial, the text is whisper's own,
    /// and only a right one is confirmed. (Without the check, the wrong draft's words came back.)
    @Test func aDraftIsConfirmedNotTrusted() async throws {
        let samples = try WAVFile(contentsOf: DefaultModels.jfkSample).monoSamples()
        let transcriber = try Transcriber(modelPath: DefaultModels.whisper)
        let plain = try await transcriber.transcribe(samples, options: TranscriptionOptions(language: "en"))
        #expect(plain.draftAccepted == nil)
        #expect(plain.tokens.count > 15)
        func drafted(_ draft: [Int32], _ clip: [Float] = samples) async throws -> Transcript {
            var options = TranscriptionOptions(language: "en")
            options.draft = draft
            return try await transcriber.transcribe(clip, options: options)
        }
        let whole = try await drafted(plain.tokens)
        #expect(whole.text == plain.text)
        #expect(whole.tokens == plain.tokens)
        #expect(whole.draftAccepted == plain.tokens.count)

        // Another text entirely (the same tokens backwards): nothing of it is kept.
        let wrong = try await drafted(plain.tokens.reversed())
        #expect(wrong.text == plain.text)
        #expect((wrong.draftAccepted ?? 0) < 4)

        // The answer heard 4 s earlier, as a pass while the person spoke would leave it.
        let earlier = try await transcriber.transcribe(Array(samples.prefix(samples.count - 4 * 16_000)),
                                                       options: TranscriptionOptions(language: "en"))
        let later = try await drafted(earlier.tokens)
        #expect(later.text == plain.text)
        #expect((later.draftAccepted ?? 0) >= earlier.tokens.count / 2, "\(later.draftAccepted ?? -1) of \(earlier.tokens.count)")

        // One word changed in the middle: the rest of the draft is found again after it.
        var changed = plain.tokens
        changed[changed.count / 2] = plain.tokens[1]
        let mended = try await drafted(changed)
        #expect(mended.text == plain.text)
        #expect((mended.draftAccepted ?? 0) >= plain.tokens.count - 3)

        // Decoding the draft path does not take (beam search): whisper_full, the draft ignored.
        var beam = FileTranscription.options(language: "en", fast: false, segmentTimes: false)
        beam.draft = changed
        let files = try await transcriber.transcribe(samples, options: beam)
        #expect(files.draftAccepted == nil)
        #expect(files.text.lowercased().contains("ask not what your country can do for you"))
    }

    @Test func missingModelIsExplained() {
        #expect(throws: TranscriberError.modelMissing(path: "/nonexistent/model.bin")) {
            _ = try Transcriber(modelPath: "/nonexistent/model.bin")
        }
    }

    @Test func garbageModelIsRejectedNotCrashed() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("garbage-\(UUID()).bin").path
        try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: TranscriberError.modelInvalid(path: path)) { _ = try Transcriber(modelPath: path) }
    }
}
