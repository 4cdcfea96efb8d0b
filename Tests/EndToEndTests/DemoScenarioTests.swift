import DialogueCore
import Foundation
import Speech
import Testing
import Transcription

/// The demo's synthetic person, through the real stack without audio devices: each built-in
/// answer is rendered by espeak-ng in its language's voice, resampled to 16 kHz and transcribed
/// by whisper.cpp with the dialogue's settings (greedy, encoder window fitted to the clip). The
/// rules must then hear the last answer as an ending and the others as plain content, or the
/// demo would not end by voice (or would end too early). Serialized: one whisper context, and
/// whisper already uses both cores.
@Suite(.serialized)
struct DemoScenarioTests {
    static let loader = LanguagePackLoader()
    static let transcriber = Result { try Transcriber(modelPath: DefaultModels.whisper) }

    /// What the dialogue would transcribe when the person says `answer`.
    static func heard(_ answer: SpokenText, pack: LanguagePack) async throws -> String {
        let clip = try spokenClip(answer.spoken, voice: pack.voice)
        let transcriber = try transcriber.get()
        return try await transcriber.transcribe(clip, options: TranscriptionOptions(language: pack.whisperLanguage)).text
    }

    /// Japanese: some kana or kanji. The others: some letters, all of them Latin.
    static func isInScript(_ text: String, language: Language) -> Bool {
        let letters = text.unicodeScalars.filter { $0.properties.isAlphabetic }
        if language == "ja" {
            return letters.contains { (0x3041...0x30FF).contains($0.value) || $0.properties.isIdeographic }
        }
        return !letters.isEmpty && letters.allSatisfy { $0.value < 0x0250 || (0x1E00...0x1EFF).contains($0.value) }
    }

    @Test(arguments: LanguagePackLoader.supportedLanguages)
    func demoScenarioEndsByVoice(code: Language) async throws {
        let pack = try Self.loader.load(code)
        let rules = Rules(pack: pack)
        let answers = pack.demoAnswers
        try #require(answers.count >= 3, "\(code): the demo needs an opening, a follow-up and an ending")
        for (index, answer) in answers.enumerated() {
            let heard = try await Self.heard(answer, pack: pack)
            print("[demo \(code)] \(index + 1)/\(answers.count) said: \(answer.text)\n[demo \(code)]      heard: \(heard)")
            if index == answers.count - 1 {
                #expect(rules.endSignal(in: heard) == .ending, "\(code): the ending \"\(answer.text)\" was heard as \"\(heard)\"")
            } else {
                #expect(Self.isInScript(heard, language: code), "\(code): \"\(answer.text)\" was heard as \"\(heard)\"")
                // Whatever was asked, "anything else?" included, a follow-up must not end it.
                for question in [nil, TurnQuestion.opening, .choice(.moreDetails)] {
                    let signal = rules.endSignal(in: heard, answering: question)
                    #expect(signal == nil, "\(code): \"\(heard)\" counts as \(signal.map(\.rawValue) ?? "")")
                }
            }
        }
    }
}
