import DialogueCore
import Foundation
@testable import Speech
import Testing
@testable import VoiceSession

/// The parts of the voice session that need no audio device: what is rendered up front, and
/// the demo's scenario files.
@Suite struct VoicePiecesTests {
    @Test(arguments: ["en", "es", "fr", "de", "ja"] as [Language])
    func everyLineTheExchangeMaySayIsRenderedUpFrontInItsSpokenForm(language: Language) throws {
        let pack = try LanguagePackLoader().load(language)
        let texts = VoicePorts.promptTexts(pack)
        #expect(texts.count == 1 + QuestionChoice.questions.count + QuestionChoice.finals.count)
        #expect(texts[.question(.opening)] == pack.opening.spoken)
        for choice in QuestionChoice.questions {
            #expect(texts[.question(.choice(choice))] == pack.line(for: choice).spoken, "\(choice)")
        }
        for choice in QuestionChoice.finals {
            #expect(texts[.closing(choice)] == pack.line(for: choice).spoken, "\(choice)")
        }
        // espeak-ng cannot read kanji: the Japanese speech forms are kana only.
        if language == "ja" {
            for (prompt, text) in texts {
                #expect(!text.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) }, "\(prompt): \(text)")
            }
        }
    }

    static func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-\(UUID().uuidString).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aScenarioFileGivesItsAnswersInOrder() throws {
        let path = try Self.write(#"{"answers": [{"text": "一つ目。", "speech": "ひとつめ。"}, {"text": "That's all."}]}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try SyntheticPerson.scenario(path) == [SpokenText(text: "一つ目。", speech: "ひとつめ。"), SpokenText(text: "That's all.")])
    }

    @Test(arguments: [("", "not valid JSON of the expected shape"), (#"{"answers": []}"#, "no answers"),
                      (#"{"answer": [{"text": "x"}]}"#, "not valid JSON of the expected shape")])
    func aBadScenarioFileNamesTheFileAndTheShape(text: String, reason: String) throws {
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect { try SyntheticPerson.scenario(path) } throws: { error in
            let message = "\(error)"
            return message.hasPrefix(path + ": " + reason) && message.contains(#"Expected {"answers""#)
        }
    }

    @Test func aMissingScenarioFileIsNamed() {
        #expect { try SyntheticPerson.scenario("/nonexistent/scenario.json") } throws: { error in
            "\(error)".hasPrefix("/nonexistent/scenario.json: no such file")
        }
    }
}

/// The demo's private server cannot start: the fix it names must not break the desktop.
@Suite struct PrivateAudioServerMessageTests {
    @Test func withoutPipeWireItSaysToInstallPulseAudio() {
        let failure = PrivateAudioServer.StartFailed(reason: "pulseaudio not found", pipewireDesktop: false)
        #expect(failure.description == "could not start a private PulseAudio server: pulseaudio not found. Install it with: apt-get install pulseaudio")
    }

    @Test func onAPipeWireDesktopItNeverSaysToInstallPulseAudio() {
        let failure = PrivateAudioServer.StartFailed(reason: "pulseaudio not found", pipewireDesktop: true)
        #expect(!failure.description.contains("apt-get install pulseaudio"))
        #expect(failure.description.contains("scripts/test-audio.sh run --pipewire"))
    }
}

/// The live listener waits by how finished an answer sounds: its use of `AdaptiveWait`, not only
/// the type (the shortest wait everywhere cut every thinking pause and failed no test).
@Suite struct PauseHangoverTests {
    @Test(arguments: ["en", "es", "fr", "de", "ja"] as [Language])
    func anUnfinishedAnswerWaitsLongAndAFinishedOneShort(language: Language) throws {
        let pack = try LanguagePackLoader().load(language)
        for preset in [SilencePreset.relaxed, .default, .aggressive] {
            let wait = preset.adaptiveWait.shifted(by: pack.turnThresholdShift)
            try #require(wait.longest > wait.shortest)
            let unfinished = VoiceAnswers.pauseHangover(completion: max(0, wait.threshold - 0.2), adaptive: wait, preset: preset.fixedSilence)
            let finished = VoiceAnswers.pauseHangover(completion: min(1, wait.threshold + 0.2), adaptive: wait, preset: preset.fixedSilence)
            #expect(unfinished == wait.longest, "\(preset)")
            #expect(finished == wait.shortest, "\(preset)")
            #expect(VoiceAnswers.pauseHangover(completion: nil, adaptive: wait, preset: preset.fixedSilence) == preset.fixedSilence)
        }
    }

    /// A voice read as nothing is read again before the person is asked to say it again (the
    /// words are gone once they do); a cough is not, nor what was read carefully already.
    @Test func anEmptyReadingOfAVoiceIsReadAgain() {
        func timing(_ start: Double?, _ end: Double?) -> ListenTiming {
            ListenTiming(speechStart: start, speechEnd: end, endpoint: (end ?? 0) + 0.7, declaredAfter: 1)
        }
        #expect(VoiceAnswers.readsAgain("", timing: timing(0.3, 8.2), readCarefully: false))
        #expect(VoiceAnswers.readsAgain("", timing: timing(0.3, 0.3 + VoiceAnswers.voiceHeldSeconds), readCarefully: false))
        #expect(!VoiceAnswers.readsAgain("", timing: timing(0.3, 0.6), readCarefully: false), "a cough")
        #expect(!VoiceAnswers.readsAgain("", timing: timing(nil, nil), readCarefully: false), "nothing heard")
        #expect(!VoiceAnswers.readsAgain("", timing: timing(0.3, 8.2), readCarefully: true), "read carefully already")
        #expect(!VoiceAnswers.readsAgain("Word, another word.", timing: timing(0.3, 8.2), readCarefully: false))
    }
}
