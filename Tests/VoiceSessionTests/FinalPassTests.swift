import Testing
import Foundation
@testable import Transcription
@testable import VoiceSession

/// The final pass reads an answer again without a prompt when whisper gave the prompt back.
@Suite struct FinalPassTests {
    /// The CI run where answer 2's final text was answer 1's again, and the note lost answer 2.
    @Test func aJapaneseAnswerReadAsTheOneBeforeItIsACopy() {
        let before = "あたらしアポリワイヘアラリマス キサイオミセの予約を単に引いたいヘス"
        #expect(FinalPass.copies(before, in: "マイヘアラリマス キサイオミセの予約を単に引いたいヘス"))
        #expect(!FinalPass.copies(before, in: "毎日、電話で予約を受けるのは大変です。"))
    }

    @Test func differentSentencesOfOnePersonAreNoCopy() {
        let pairs = [
            ("I want to build a small app for sharing tools with my neighbors.",
             "First I would test it with ten neighbors on my street."),
            ("Quiero abrir una panadería pequeña en mi barrio.",
             "El problema es que el alquiler del local es muy caro."),
            ("Ich möchte eine App für den Verleih von Werkzeug bauen.",
             "Zuerst frage ich die Nachbarn in meiner Straße, ob sie mitmachen."),
        ]
        for (prompt, text) in pairs {
            #expect(!FinalPass.copies(prompt, in: text), "\(text)")
            #expect(FinalPass.copies(prompt, in: prompt.uppercased()), "case is folded: \(prompt)")
        }
    }

    /// The beam reads an answer of 5 s or more in its own window, never under 10.24 s, and in
    /// whisper's 30 s once the answer fills most of them; a shorter answer in 30 s (it read
    /// worse in a window of its own).
    @Test func theEncoderWindowFitsAnAnswerOf5SecondsOrMore() {
        let rate = Transcriber.sampleRate
        func window(_ seconds: Double) -> Int32? {
            FinalPass.options(language: "fr", samples: Int(seconds * Double(rate))).audioContext
        }
        #expect(window(1) == nil)
        #expect(window(4.9) == nil)
        #expect(window(5) == 512)
        #expect(window(9.5) == 512)
        #expect(window(14) == 736)
        #expect(window(26) == 1500)
        let options = FinalPass.options(language: "fr", samples: 14 * rate)
        #expect(options.beamSize == 5 && options.temperatureFallback && !options.timestamps
                && !options.fitAudioContextToClip)
    }

    @Test func aShortTextIsNeverCalledACopy() {
        #expect(!FinalPass.copies("Yes, yes.", in: "Yes."))
        #expect(!FinalPass.copies("", in: ""))
    }
}

/// An answer heard on: its final pass reads only what followed the part heard before, with that
/// part's final text as the prompt, and keeps that part's pass alive while it needs it.
@Suite struct FinalPassHeardOnTests {
    /// Whisper as a script: the text for audio of each length, sure unless listed as unsure;
    /// each reading recorded (its length and prompt). Audio of `held` samples waits for `release`.
    final class Script: @unchecked Sendable {
        let lock = NSLock()
        var texts: [Int: String] = [:]
        var unsure: Set<Int> = []
        var readings: [(count: Int, prompt: String?, again: Bool)] = []
        var held: Int?
        var released = false

        func reading(_ audio: [Float], _ prompt: String?, _ again: Bool) async throws -> Transcript {
            lock.withLock { readings.append((audio.count, prompt, again)) }
            while lock.withLock({ held == audio.count && !released }) {
                try await Task.sleep(for: .milliseconds(5))
            }
            let (text, logProbability) = lock.withLock { (texts[audio.count] ?? "", unsure.contains(audio.count) ? Float(-2) : -0.3) }
            return Transcript(language: "en", segments: [
                TranscriptSegment(start: 0, end: 1, text: text, noSpeechProbability: 0, averageLogProbability: logProbability),
            ])
        }
        func release() { lock.withLock { released = true } }
        /// Returns once a reading of `count` samples has started (the passes run in tasks of their own).
        func started(_ count: Int) async {
            while !lock.withLock({ readings.contains { $0.count == count } }) {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        var calls: [(count: Int, prompt: String?, again: Bool)] { lock.withLock { readings } }
    }

    static let first = (0..<300).map { Float($0) / 300 }, then = (0..<200).map { -Float($0) / 200 }

    /// A first part's pass and that of the answer heard on after it, on a fresh `FinalPass`.
    static func heardOn(_ script: Script) -> (finals: FinalPass, part: FinalAnswer, whole: FinalAnswer) {
        let finals = FinalPass(reading: script.reading)
        let part = finals.start(first)
        return (finals, part, finals.start(first + then, continuing: true))
    }

    @Test(.timeLimit(.minutes(1))) func theNoteWaitsOnlyForWhatFollowedWithTheEarlierTextAsPrompt() async {
        let script = Script()
        script.texts = [300: "The first part.", 200: "And what followed.", 500: "The first part, and what followed."]
        script.held = 500
        let (_, part, whole) = Self.heardOn(script)
        #expect(await part.text() == "The first part.")
        await script.started(500)
        #expect(await whole.soonText() == "The first part. And what followed.", "the whole reading is not done: not waited for")
        #expect(await whole.text() == "The first part. And what followed.", "and stopped")
        #expect(script.calls.map(\.count) == [300, 200, 500])
        #expect(script.calls[1].prompt == "The first part.")
        #expect(script.calls[2].prompt == nil, "the whole answer is prompted as the part was")
        #expect(script.calls.map(\.again) == [false, false, true], "read again as spare work")
    }

    /// The next answer's pass is prompted with the first text and does not wait for the reading again.
    @Test(.timeLimit(.minutes(1))) func theNextAnswerDoesNotWaitForTheReadingAgain() async {
        let script = Script()
        script.texts = [300: "The first part.", 200: "And what followed.", 100: "The next answer."]
        script.held = 500
        let (finals, _, whole) = Self.heardOn(script)
        let next = finals.start(Array(Self.then.prefix(100)))
        #expect(await next.text() == "The next answer.")
        // The whole answer's reading again runs beside it here (no arbiter): the next answer's is found by its length.
        #expect(script.calls.first { $0.count == 100 }?.prompt == "The first part. And what followed.")
        whole.cancel()
    }

    @Test func theWholeReadingIsTakenWhenDoneAndLosingNothing() async {
        let script = Script()
        script.texts = [300: "The first part.", 200: "And what followed.", 500: "The first part, and what followed."]
        let whole = Self.heardOn(script).whole
        #expect(await whole.text() == "The first part, and what followed.")
        #expect(whole.isDone)
        #expect(await whole.soonText() == "The first part, and what followed.")

        script.texts[500] = "And what followed."   // whisper left the first sentence out
        #expect(await Self.heardOn(script).whole.text() == "The first part. And what followed.")
    }

    @Test func otherAudioOrAnUnsureReadingIsReadWhole() async {
        let script = Script()
        script.texts = [300: "The first part.", 200: "And what followed.", 500: "Read whole."]
        let finals = FinalPass(reading: script.reading)
        finals.start(Self.first)
        // Not the earlier part's audio at its start: nothing to build on.
        let other = finals.start(Self.then + Self.first, continuing: true)
        #expect(await other.soonText() == "Read whole.")
        #expect(script.calls.map(\.count) == [300, 500])

        script.unsure = [200]
        #expect(await Self.heardOn(script).whole.soonText() == "Read whole.",
                "an unsure tail: the whole answer's reading is waited for")
        #expect(script.calls.suffix(3).map(\.again) == [false, false, false], "and is no spare work")
        script.unsure = [300]
        #expect(await Self.heardOn(script).whole.soonText() == "Read whole.",
                "an unsure earlier part: the whole answer's reading is waited for")
    }

    /// Heard on twice: one reading of all that followed the first part replaces the last.
    @Test(.timeLimit(.minutes(1))) func heardOnAgainEverythingAfterTheFirstPartIsReadOnce() async {
        let script = Script()
        let more = (0..<150).map { Float($0) / 1000 }
        script.texts = [300: "The first part.", 200: "And what followed.", 350: "And what followed, and more."]
        script.held = 200
        let finals = FinalPass(reading: script.reading)
        let part = finals.start(Self.first)
        let once = finals.start(Self.first + Self.then, continuing: true)
        part.cancel()
        let twice = finals.start(Self.first + Self.then + more, continuing: true)
        once.cancel()   // replaced, as the first part was
        #expect(await twice.soonText() == "The first part. And what followed, and more.")
        #expect(script.calls.contains { $0.count == 350 && $0.prompt == "The first part." })
        #expect(await once.text() == nil, "the reading it replaced was stopped")
        twice.cancel()
    }

    @Test func theEarlierPassLivesWhileTheAnswerHeardOnNeedsIt() async {
        let script = Script()
        script.texts = [300: "The first part.", 200: "And what followed."]
        script.held = 300
        let (_, part, whole) = Self.heardOn(script)
        part.cancel()   // the exchange replaces the earlier answer with the one heard on
        script.release()
        #expect(await whole.soonText() == "The first part. And what followed.")
    }

    @Test func cancellingTheAnswerHeardOnStopsTheEarlierPassToo() async {
        let script = Script()
        script.texts = [300: "The first part.", 200: "And what followed."]
        script.held = 300
        let (_, part, whole) = Self.heardOn(script)
        part.cancel()
        whole.cancel()
        #expect(await part.text() == nil)
        #expect(await whole.text() == nil)
        #expect(script.calls.map(\.count) == [300])
    }
}
