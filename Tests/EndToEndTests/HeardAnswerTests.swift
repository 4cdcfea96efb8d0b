import DialogueCore
import Foundation
import Speech
import Testing
import Transcription

/// An answer spoken into the virtual microphone is heard by the Listener and transcribed by
/// whisper, as in a real turn. Each language runs on its own private headless server.
@Suite("Injected answers are heard and transcribed (real stack)", .serialized)
struct HeardAnswerTests {
    static let transcriber = try! Transcriber(modelPath: DefaultModels.whisper)

    /// Answers per language, first the one that must be heard word for word (English) or in
    /// the right script; the issue asks that at least one longer answer share most of its content
    /// words. The sentences are the demo scenario's, which espeak-ng pronounces clearly enough
    /// for whisper base (measured); Japanese is the weakest, so it gets three tries.
    static let cases: [(language: String, voice: String, answers: [(display: String, spoken: String)])] = [
        ("en", "en-us", [("It would save people money, and neighbors would get to know each other.", "")]),
        ("es", "es", [("La gente puede ahorrar dinero y hablar con sus vecinos.", "")]),
        ("fr", "fr-fr", [("Je pense que c'est une bonne idée.", "")]),
        ("de", "de", [("Zuerst spreche ich morgen mit meinen Freunden.", ""),
                      ("Viele Leute in meiner Stadt suchen einen ruhigen Ort.", "")]),
        ("ja", "ja", [("お店もお客さんも、時間の節約になります。", "おみせも、おきゃくさんも、じかんのせつやくになります。"),
                      ("毎日、電話で予約を受けるのは大変です。", "まいにち、でんわでよやくおうけるのわ、たいへんです。"),
                      ("はい、それだけです。ありがとうございます。", "はい、それだけです。ありがとうございます。")]),
    ]

    static func words(_ text: String) -> [String] {
        text.lowercased().folding(options: .diacriticInsensitive, locale: nil)
            .split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// Share of the spoken text's content units found in the transcript: words of 4+ letters,
    /// or for Japanese, character bigrams.
    static func overlap(_ said: String, _ heard: String, japanese: Bool) -> Double {
        if japanese {
            let clean = { (s: String) in Array(s.filter { !$0.isPunctuation && !$0.isWhitespace }) }
            let a = clean(said), b = clean(heard)
            let bigrams = Set(zip(b, b.dropFirst()).map { "\($0)\($1)" })
            let wanted = zip(a, a.dropFirst()).map { "\($0)\($1)" }
            return Double(wanted.filter(bigrams.contains).count) / Double(max(wanted.count, 1))
        }
        let content = words(said).filter { $0.count >= 4 }
        let heardWords = Set(words(heard))
        return Double(content.filter(heardWords.contains).count) / Double(max(content.count, 1))
    }

    @Test(arguments: 0..<cases.count)
    func injectedAnswersAreHeardAndTranscribed(index: Int) async throws {
        let c = Self.cases[index]
        let audio = try PrivateTestServer()
        defer { audio.stop() }
        let server = try AudioServer(server: audio.address)
        let listener = try Listener(server: server, device: "mic")
        let person = try Speaker(server: server, device: "micfeed")
        var best = 0.0
        for answer in c.answers {
            let rendered = try SpeechSynthesizer.shared.render(answer.spoken.isEmpty ? answer.display : answer.spoken, voice: c.voice)
            let speaking = Task {
                try await Task.sleep(for: .seconds(1))
                try await person.play(rendered, leadingSilence: 0)
            }
            let result = try await listener.listen()
            try await speaking.value
            #expect(result.ending == .endOfSpeech)
            // The end of the answer is declared within hangover + 150 ms of the end of speech.
            let hangover = Endpointing.Configuration.default.hangover
            let speechEnd = try #require(result.timing.speechEnd)
            let overHangover = result.timing.endpoint - speechEnd - hangover + (result.timing.endpointLag ?? 0)
            #expect(overHangover < 0.150, "endpoint came \(overHangover) s after the hangover")

            let start = ContinuousClock.now
            let transcript = try await Self.transcriber.transcribe(result.samples, options: TranscriptionOptions(language: c.language))
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let text = transcript.text
            let score = Self.overlap(answer.display, text, japanese: c.language == "ja")
            best = max(best, score)
            print("[\(c.language)] said: \(answer.display)\n     heard: \(text)\n     content overlap \(Int(score * 100)) %, transcription \(String(format: "%.2f", seconds)) s for \(String(format: "%.2f", result.duration)) s of audio (RTF \(String(format: "%.2f", seconds / result.duration))), endpoint \(Int(overHangover * 1000)) ms over the hangover")
            #expect(!text.isEmpty)
            if c.language == "ja" {
                #expect(text.unicodeScalars.contains { (0x3040...0x30FF).contains($0.value) || (0x4E00...0x9FFF).contains($0.value) })
            } else {
                #expect(text.unicodeScalars.allSatisfy { $0.value < 0x3000 }, "not in the Latin script: \(text)")
            }
            if c.language == "en" {
                #expect(Self.words(text) == Self.words(answer.display), "English words differ: \(text)")
            }
        }
        #expect(best >= 0.5, "no answer shares most of its content with what whisper heard (best \(Int(best * 100)) %)")
    }
}

/// A private headless PulseAudio for one test (scripts/test-audio.sh), stopped by its PID.
struct PrivateTestServer {
    let folder: String
    var address: String { "unix:\(folder)/runtime/pulse/native" }
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/test-audio.sh").path

    init() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.script)
        process.arguments = ["start"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let range = text.range(of: "DIALOGUE_MEMO_TEST_AUDIO=") else {
            throw CocoaError(.featureUnsupported)
        }
        folder = String(text[range.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func stop() {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.script)
        process.arguments = ["stop", folder]
        try? process.run()
        process.waitUntilExit()
    }
}
