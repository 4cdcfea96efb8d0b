import DialogueCore
import Foundation
import Speech
import Testing
import Transcription

/// An answer spoken into the virtual microphone is heard by the Listener and transcribed by
/// whisper, as in a real turn. Each language runs on its own private headless server, two
/// at a time with the demo dialogues (`Lanes.spokenDialogues`): a turn mostly waits on audio.
@Suite("Injected answers are heard and transcribed (real stack)")
struct HeardAnswerTests {
    static let transcriber = Result { try Transcriber(modelPath: DefaultModels.whisper) }

    struct Answer {
        var display: String
        /// What espeak-ng reads, when it differs (kana for Japanese).
        var spoken: String = ""
    }

    /// Several answers per language, none of them a stock phrase whisper might produce on its
    /// own (such as ありがとうございます). The share of each answer's words (Japanese:
    /// character bigrams) that whisper base q8_0 heard in several runs is in the comments. It
    /// varies from run to run (the answer reaches whisper at a different sub-frame phase each
    /// time; a run with three languages at once heard "Je pense que c'est une bonne idée." as
    /// "Je passe que 7 1 pour 2 mais...", 0.25, with the sound heard whole), most for one short
    /// answer: so the floor is on a language's answers together, 0.1 below its lowest run.
    static let cases: [(language: String, voice: String, floor: Double, answers: [Answer])] = [
        ("en", "en-us", 0.65, [
            Answer(display: "It would save people money, and neighbors would get to know each other."),  // 1.00 in all 8 runs
            Answer(display: "Most people only need a drill once or twice a year."),  // 0.82 in all 8 runs
            Answer(display: "People could borrow a drill or a ladder for a day."),  // 0.55 ×7, 0.45
        ]),
        ("es", "es", 0.55, [
            Answer(display: "La gente puede ahorrar dinero y hablar con sus vecinos."),  // 1.00 ×6, 0.70
            Answer(display: "Primero lo probaría con diez vecinos de mi calle."),  // 0.33, 0.78, 0.89, 0.56, 0.33, 0.56, 0.56
            Answer(display: "Quiero hacer una aplicación para compartir herramientas con los vecinos."),  // 1.00 in all 7 runs
        ]),
        ("fr", "fr-fr", 0.2, [
            Answer(display: "Je pense que c'est une bonne idée."),  // 1.00 ×8, 0.63, 0.25
            Answer(display: "Ensuite, je la testerais avec dix voisins."),  // 0.29 in all 7 runs
            Answer(display: "D'abord, je ferais une liste simple."),  // 0.71, 0.71, 0.57, 0.71, 0.57, 0.43, 0.57, 0.43
        ]),
        ("de", "de", 0.45, [
            Answer(display: "Zuerst spreche ich morgen mit meinen Freunden."),  // 0.71, 0.86, 0.86, 0.71, 0.86, 0.86, 0.71, 0.86
            Answer(display: "Viele Leute in meiner Stadt suchen einen ruhigen Ort."),  // 0.33 ×7, 0.56
            Answer(display: "Ich möchte ein kleines Café mit Büchern eröffnen."),  // 0.75, 0.75, 0.88, 0.88
        ]),
        ("ja", "ja", 0.25, [
            Answer(display: "お店もお客さんも、時間の節約になります。", spoken: "おみせも、おきゃくさんも、じかんのせつやくになります。"),  // 0.59, 0.65, 0.65, 0.59, 0.76, 0.76, 0.76, 0.65
            Answer(display: "毎日、電話で予約を受けるのは大変です。", spoken: "まいにち、でんわでよやくおうけるのわ、たいへんです。"),  // 0.44, 0.75, 0.63, 0.31, 0.13, 0.56
            Answer(display: "小さいお店の予約を簡単にしたいです。", spoken: "ちいさいおみせのよやくおかんたんにしたいです。"),  // 0.38 ×7, 0.31
        ]),
    ]

    static func words(_ text: String) -> [String] {
        text.lowercased().folding(options: .diacriticInsensitive, locale: nil)
            .split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// Share of what was said that whisper heard: each word of the answer (Japanese: each
    /// pair of neighbouring characters, punctuation and spaces left out) counts once for every
    /// time it occurs in the transcript.
    static func overlap(_ said: String, _ heard: String, japanese: Bool) -> (found: Int, wanted: Int) {
        func units(_ text: String) -> [String] {
            if japanese {
                let characters = Array(text.filter { !$0.isPunctuation && !$0.isWhitespace })
                return zip(characters, characters.dropFirst()).map { "\($0)\($1)" }
            }
            return words(text)
        }
        let wanted = units(said)
        var available = Dictionary(units(heard).map { ($0, 1) }, uniquingKeysWith: +)
        var found = 0
        for unit in wanted where available[unit, default: 0] > 0 {
            available[unit]! -= 1
            found += 1
        }
        return (found, wanted.count)
    }

    @Test(arguments: 0..<cases.count)
    func injectedAnswersAreHeardAndTranscribed(index: Int) async throws {
        try await Lanes.spokenDialogues.run { try await Self.hearAndTranscribe(Self.cases[index]) }
    }

    static func hearAndTranscribe(_ c: (language: String, voice: String, floor: Double, answers: [Answer])) async throws {
        try #require(c.answers.count >= 2)
        let transcriber = try Self.transcriber.get()
        let audio = try PrivateTestServer()
        defer { audio.stop() }
        let server = try AudioServer(server: audio.address)
        let listener = try Listener(server: server, device: "mic")
        let person = try Speaker(server: server, device: "micfeed")
        let hangover = Endpointing.Configuration.default.hangover
        var heardAnswers = 0, found = 0, wanted = 0
        for answer in c.answers {
            let rendered = try SpeechSynthesizer.shared.render(answer.spoken.isEmpty ? answer.display : answer.spoken, voice: c.voice)
            // The person speaks once the listener listens: a second of silence, then the answer.
            let listening = Flag()
            let speaking = Task {
                try await listening.wait()
                try await person.play(rendered, leadingSilence: 1)
            }
            let result = try await listener.listen(onEvent: { if $0 == .state(.listening) { listening.send() } })
            try await speaking.value
            #expect(result.ending == .endOfSpeech)
            // In the audio: the speech ends where the answer's last sound is, and the end is
            // declared one hangover later.
            let speechEnd = try #require(result.timing.speechEnd)
            let lastSound = try #require(Self.audibleEnd(result.samples)) / 16_000 + result.clipStart
            #expect(abs(speechEnd - lastSound) < 0.03, "speech end \(speechEnd) s, last sound \(lastSound) s")
            #expect(abs(result.timing.endpoint - speechEnd - hangover) < 0.011)
            // Heard whole: as long as espeak-ng said it (a stalled playback would leave a gap).
            let said = try #require(Self.audibleSpan(rendered.samples.map { Float($0) / 32768 }, rate: rendered.sampleRate))
            let heardSpan = try #require(Self.audibleSpan(result.samples, rate: 16_000))
            #expect(abs(Double(heardSpan.count) / 16_000 - Double(said.count) / Double(rendered.sampleRate)) < 0.03,
                    "heard \(Double(heardSpan.count) / 16_000) s of sound, espeak-ng said \(Double(said.count) / Double(rendered.sampleRate)) s")

            let start = ContinuousClock.now
            let transcript = try await transcriber.transcribe(result.samples, options: TranscriptionOptions(language: c.language))
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let text = transcript.text
            let units = Self.overlap(answer.display, text, japanese: c.language == "ja")
            found += units.found
            wanted += units.wanted
            let score = Double(units.found) / Double(max(units.wanted, 1))
            print("[\(c.language)] said: \(answer.display)\n     heard: \(text)\n     overlap \(String(format: "%.3f", score)), transcription \(String(format: "%.2f", seconds)) s for \(String(format: "%.2f", result.duration)) s of audio")
            #expect(!text.isEmpty)
            if c.language == "ja" {
                #expect(text.unicodeScalars.contains { (0x3040...0x30FF).contains($0.value) || (0x4E00...0x9FFF).contains($0.value) })
            } else {
                #expect(text.unicodeScalars.allSatisfy { $0.value < 0x3000 }, "not in the Latin script: \(text)")
            }
            heardAnswers += 1
        }
        #expect(heardAnswers == c.answers.count)
        let share = Double(found) / Double(max(wanted, 1))
        print("[\(c.language)] \(String(format: "%.3f", share)) of the answers heard (floor \(c.floor))")
        #expect(share >= c.floor, "[\(c.language)] heard \(Int(share * 100)) % of the answers' words (floor \(Int(c.floor * 100)) %)")
    }

    /// The end of the last 10 ms window above -50 dBFS, in samples.
    static func audibleEnd(_ samples: [Float]) -> Double? {
        audibleSpan(samples, rate: 16_000).map { Double($0.upperBound) }
    }

    /// From the first to the end of the last 10 ms window above -50 dBFS, in samples.
    static func audibleSpan(_ samples: [Float], rate: Int) -> Range<Int>? {
        let window = rate / 100
        var first: Int?, end = 0
        for start in stride(from: 0, to: samples.count - window, by: window) {
            let rms = (samples[start..<(start + window)].reduce(0) { $0 + $1 * $1 } / Float(window)).squareRoot()
            if rms > 0.00316 { first = first ?? start; end = start + window }
        }
        return first.map { $0..<end }
    }
}

/// Set once by one task, awaited by another.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var sent = false
    func send() { lock.withLock { sent = true } }
    func wait(timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !lock.withLock({ sent }) {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(5))
        }
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
        // The folder runs to the next space: more variables follow it on the line.
        folder = String(text[range.upperBound...].prefix { !$0.isWhitespace })
    }

    func stop() {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.script)
        process.arguments = ["stop", folder]
        try? process.run()
        process.waitUntilExit()
    }
}
