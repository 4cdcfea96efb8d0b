import Foundation
import Testing
@testable import Speech

@Suite("espeak-ng in memory")
struct SpeechSynthesizerTests {
    @Test(arguments: [("en-us", "What idea would you like to capture?"),
                      ("es", "¿Qué idea quieres guardar?"),
                      ("fr-fr", "Quelle idée voulez-vous noter ?"),
                      ("de", "Welche Idee möchtest du festhalten?"),
                      ("ja", "どんな アイデアお のこしたいですか")])
    func rendersEveryInterfaceLanguage(voice: String, text: String) throws {
        let pcm = try SpeechSynthesizer.shared.render(text, voice: voice)
        #expect(pcm.sampleRate == 22_050)
        #expect(pcm.duration > 0.8 && pcm.duration < 6)
        #expect(pcm.samples.contains { abs(Int($0)) > 3000 })
    }

    /// `dialogue-memo doctor` looks the interface languages' voices up by these tags.
    @Test func voiceNamesListTheInterfaceLanguageTags() throws {
        let names = Set(try SpeechSynthesizer.shared.voiceNames())
        for tag in ["en-us", "es", "fr-fr", "de", "ja"] { #expect(names.contains(tag), "\(tag)") }
        #expect(!names.contains("xx-nonexistent"))
    }

    @Test func unknownVoiceIsAnError() {
        #expect(throws: SpeechError.voiceMissing("xx-nonexistent")) {
            _ = try SpeechSynthesizer.shared.render("hello", voice: "xx-nonexistent")
        }
    }

    @Test func renderingSealsAtTheEndOfSynthesis() {
        let rendering = Rendering()
        var one: [Int16] = [1, 2, 3]
        one.withUnsafeMutableBufferPointer { rendering.receive($0.baseAddress, 3) }
        rendering.receive(nil, 0)
        one.withUnsafeMutableBufferPointer { rendering.receive($0.baseAddress, 3) }
        #expect(rendering.samples == [1, 2, 3])
    }
}
