import Foundation
import Testing
@testable import Speech

extension SharedDevices {
    /// What the speaker played, judged only on the audio `speaker.monitor` recorded: where
    /// each sound lies in the capture, and in what order. Markers (`TestAudio.marker`, on a
    /// stream of their own) are played between the calls, so "play() returned" and "play() was
    /// called" become positions in the same capture. Latency (how soon) is `make bench`'s.
    @Suite("Speaker (real PulseAudio, real espeak-ng)")
    struct SpeakerTests {
        @Test func aPlayedQuestionIsHeardWholeAfterItsLeadingSilence() async throws {
            _ = try TestAudio.directory()
            let question = try TestAudio.speech("What idea would you like to capture?")
            let reference = Signal.floats(question)
            let rate = question.sampleRate
            let window = rate / 20   // 50 ms
            let speechOnset = try #require(Signal.onset(reference))
            let speechEnd = try #require(Signal.audibleEnd(reference, sampleRate: rate))
            try #require((reference.map(abs).max() ?? 1) < TestAudio.markerLevel, "the speech is as loud as the marker")
            let markerSpan = TestAudio.markerSpan(sampleRate: rate)

            let speaker = try Speaker(server: AudioServer())
            #expect(speaker.deviceName == "speaker")
            let recorder = try MonitorRecorder(sampleRate: rate)
            // Marker, play, marker, play, …, marker: each marker is played after the call before
            // it returned and before the next call began.
            try await TestAudio.playMarker()
            var timings: [PlaybackTiming] = []
            for _ in 0..<3 {
                timings.append(try await speaker.play(question))
                try await TestAudio.playMarker()
            }
            try await recorder.waitForMarkers(4)
            let recording = recorder.stop()
            let samples = recording.samples
            let markers = TestAudio.markers(in: samples, sampleRate: rate)
            try #require(markers.count == 4, "markers at \(markers)")

            #expect(timings.map(\.leadingSilence) == [0.24, 0.02, 0.02])
            for (number, timing) in timings.enumerated() {
                let before = markers[number] + markerSpan, after = markers[number + 1]
                let heardOnset = try #require(Signal.onset(Array(samples[before..<after]))) + before
                let (lag, correlation) = Signal.align(samples, reference, around: heardOnset - speechOnset, radius: 64)
                let first = Signal.rms(samples[(lag + speechOnset)..<(lag + speechOnset + window)])
                    / Signal.rms(reference[speechOnset..<(speechOnset + window)])
                let last = Signal.rms(samples[(lag + speechEnd - window)..<(lag + speechEnd)])
                    / Signal.rms(reference[(speechEnd - window)..<speechEnd])
                let heardEnd = try #require(Signal.audibleEnd(Array(samples[before..<after]), sampleRate: rate)) + before
                let lengthError = Double((heardEnd - lag) - speechEnd) / Double(rate)
                // The buffer played: the leading silence, then the rendering (which starts at `lag`).
                let bufferStart = lag - Int((timing.leadingSilence * Double(rate)).rounded())
                let silenceAfterMarker = Double(bufferStart - before) / Double(rate)
                let markerAfterSpeech = Double(after - (lag + speechEnd)) / Double(rate)
                print(String(format: "speaker play %d: silence %.2f s, correlation %.4f, first 50 ms %.2f, last 50 ms %.2f, length error %+.4f s; in the capture: buffer starts %.3f s after the marker before it, the marker after it comes %.3f s after the speech (drain %.3f s + output latency %.3f s)",
                             number + 1, timing.leadingSilence, correlation, first, last, lengthError, silenceAfterMarker,
                             markerAfterSpeech, timing.drainedAfter, timing.outputLatency))
                #expect(correlation > 0.95, "play \(number + 1): the heard audio is not the rendering")
                #expect((0.8...1.25).contains(first), "play \(number + 1): the first 50 ms of speech were clipped")
                #expect((0.8...1.25).contains(last), "play \(number + 1): the end of the speech was cut")
                #expect(abs(lengthError) < 0.011)
                // The marker before was over when play() was called, so the whole leading
                // silence lies after it: had the silence been dropped or shortened, the speech
                // would start sooner after the marker than the silence lasts.
                #expect(bufferStart >= before - rate / 500, "play \(number + 1): the leading silence was not played in front")
                // The marker after was started when play() returned: after the last sound.
                #expect(after >= lag + speechEnd, "play \(number + 1): play() returned before the sound was over")
            }
        }

        @Test func cancellingStopsTheSoundAtOnce() async throws {
            _ = try TestAudio.directory()
            let long = try TestAudio.speech("This sentence is long enough to be interrupted before it ends, which is the point of the test.")
            let next = try TestAudio.speech("Next.")
            let rate = long.sampleRate
            let reference = Signal.floats(long), nextReference = Signal.floats(next)
            let speechOnset = try #require(Signal.onset(reference))
            let speechEnd = try #require(Signal.audibleEnd(reference, sampleRate: rate))
            let markerSpan = TestAudio.markerSpan(sampleRate: rate)
            let speaker = try Speaker(server: AudioServer())
            let recorder = try MonitorRecorder(sampleRate: rate)
            let playing = Task { try await speaker.play(long) }
            // Cancel once 0.8 s of the sentence has been heard.
            try await recorder.wait { samples in Signal.onset(samples).map { samples.count - $0 > rate * 8 / 10 } ?? false }
            // One prompt at a time: a second play while one runs is refused, the first goes on.
            await #expect(throws: AudioError.busy(.output)) { try await speaker.play(long) }
            playing.cancel()
            await #expect(throws: CancellationError.self) { try await playing.value }
            // After the cancel returned: a marker, then the speaker is still usable, then a marker.
            try await TestAudio.playMarker()
            try await speaker.play(next)
            try await TestAudio.playMarker()
            try await recorder.waitForMarkers(2)
            let samples = recorder.stop().samples
            let markers = TestAudio.markers(in: samples, sampleRate: rate)
            try #require(markers.count == 2, "markers at \(markers)")

            let heardOnset = try #require(Signal.onset(samples))
            let heardEnd = try #require(Signal.audibleEnd(Array(samples[..<markers[0]]), sampleRate: rate))
            let heard = heardEnd - heardOnset
            let (lag, correlation) = Signal.align(samples, Array(reference[..<(speechOnset + heard)]),
                                                  around: heardOnset - speechOnset, radius: 64)
            print(String(format: "speaker cancel: %.2f s of %.2f s heard (correlation %.3f), the marker played after the cancel returned comes %.3f s after the last sound",
                         Double(heard) / Double(rate), Double(speechEnd - speechOnset) / Double(rate), correlation,
                         Double(markers[0] - heardEnd) / Double(rate)))
            #expect(correlation > 0.95, "what was heard is not the start of the sentence")
            #expect(lag + speechOnset == heardOnset || abs(lag + speechOnset - heardOnset) < rate / 1_000)
            #expect(heard < (speechEnd - speechOnset) / 2, "the sentence went on after the cancel")
            // Nothing of the sentence after the marker: only "Next.", whole, then silence. When
            // "Next." starts, the server's resampler lets out the few samples of the stopped
            // sentence it still held (a click of ~0.5 ms, 2 runs in 30), so "Next." is found
            // where a sound lasts, not at its first sample.
            let nextStart = markers[0] + markerSpan
            let nextOnset = try #require(Signal.lastingOnset(Array(samples[nextStart..<markers[1]]), sampleRate: rate)) + nextStart
            let nextEnd = try #require(Signal.audibleEnd(Array(samples[nextStart..<markers[1]]), sampleRate: rate)) + nextStart
            let nextReferenceOnset = try #require(Signal.lastingOnset(nextReference, sampleRate: rate))
            let nextReferenceEnd = try #require(Signal.audibleEnd(nextReference, sampleRate: rate))
            let (_, nextCorrelation) = Signal.align(samples, nextReference, around: nextOnset - nextReferenceOnset, radius: 64)
            #expect(nextCorrelation > 0.95, "after a cancel the speaker plays the next prompt as rendered")
            #expect(abs((nextEnd - nextOnset) - (nextReferenceEnd - nextReferenceOnset)) < rate / 100,
                    "something other than the next prompt was heard after the cancel")
        }
    }
}

@Suite("Speaker errors and prompt cache")
struct SpeakerSetupTests {
    @Test func aMissingOutputIsAnErrorNamingTheAlternatives() throws {
        _ = try TestAudio.directory()
        let server = try AudioServer()
        #expect {
            _ = try Speaker(server: server, device: "no-such-speaker")
        } throws: { error in
            guard case AudioError.deviceNotFound(.output, "no-such-speaker", let available) = error else { return false }
            print("missing output: \(error)")
            return available.contains("speaker") && "\(error)".contains("--output")
        }
    }

    @Test func aServerThatGoesAwayIsAnError() async throws {
        let (directory, environment) = try PrivateServer.start()
        defer { PrivateServer.stop(directory) }
        let speaker = try Speaker(server: AudioServer(server: environment))
        try await speaker.play(try TestAudio.speech("One."))
        PrivateServer.stop(directory)
        await #expect {
            try await speaker.play(try TestAudio.speech("Two."))
        } throws: { error in
            print("server gone (speaker): \(error)")
            guard case AudioError.serverGone = error else { return false }
            return true
        }
    }

    /// espeak-ng puts ~50 ms of near-silence before "¿Para quién es?": kept, it would be
    /// heard as turn latency after every decision.
    @Test func aCachedQuestionStartsWithItsVoice() throws {
        let text = "¿Para quién es?"
        let raw = try SpeechSynthesizer.shared.render(text, voice: "es")
        let cached = try #require(try PromptCache(rendering: ["audience": text], voice: "es")["audience"])
        func lead(_ buffer: PCMBuffer) -> Double {
            Double(buffer.samples.firstIndex { abs(Int($0)) > 64 } ?? buffer.samples.count) / Double(buffer.sampleRate)
        }
        try #require(lead(raw) > 0.02, "espeak-ng no longer starts this prompt with silence: pick another")
        print(String(format: "prompt lead: espeak-ng %.1f ms, cached %.1f ms", lead(raw) * 1000, lead(cached) * 1000))
        #expect(lead(cached) <= 0.0051)
        #expect(lead(cached) >= 0.0049)
        // Nothing of the voice is lost: the trimmed rendering is its own end. (Compared on one
        // rendering: espeak-ng's noise differs from one rendering to the next.)
        let trimmed = raw.trimmingLeadingSilence()
        #expect(lead(trimmed) <= 0.0051)
        #expect(raw.samples.count > trimmed.samples.count)
        #expect(raw.samples.suffix(trimmed.samples.count).elementsEqual(trimmed.samples), "the voice was cut")
    }

    @Test func trimmingKeepsAQuietBufferWholeAndALoudOneAsItIs() {
        let quiet = PCMBuffer(sampleRate: 1000, samples: [0, 3, -64, 64, 0])
        #expect(quiet.trimmingLeadingSilence() == quiet)
        let loud = PCMBuffer(sampleRate: 1000, samples: [-900, 0, 0])
        #expect(loud.trimmingLeadingSilence() == loud)
        let late = PCMBuffer(sampleRate: 1000, samples: [0, 0, 0, 0, 0, 0, 0, 0, 1, 65, 2])
        #expect(late.trimmingLeadingSilence().samples == [0, 0, 0, 0, 1, 65, 2])
    }

    @Test func everyQuestionIsRenderedOnceIntoMemory() throws {
        let texts = ["purpose": "What is it for?", "audience": "Who is it for?", "example": "Can you give an example?"]
        let cache = try PromptCache(rendering: texts, voice: "en-us")
        #expect(Set(cache.keys) == Set(texts.keys))
        for key in texts.keys { #expect((cache[key]?.duration ?? 0) > 0.4) }
        #expect(cache["missing"] == nil)
        #expect(cache.byteCount > 0)
        print("prompt cache: \(cache.count) prompts, \(cache.byteCount / 1024) KiB, rendered in \(cache.renderTime)")
        #expect(throws: SpeechError.voiceMissing("xx-nonexistent")) {
            _ = try PromptCache(rendering: texts, voice: "xx-nonexistent")
        }
    }
}
