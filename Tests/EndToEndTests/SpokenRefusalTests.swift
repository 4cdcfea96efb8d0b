import DialogueCore
import Foundation
import Testing
import Transcription

/// A refusal said aloud, in the person's own words: part of the exchange ("don't record this
/// part") or all of it ("delete all of it"). espeak-ng says it, whisper.cpp hears it, and the
/// rules must hear a refusal of the right scope.
///
/// English and German only: whisper base hears espeak-ng's Spanish, French and Japanese voices
/// too poorly to carry any refusal (measured: of 8 Spanish, 8 French and 7 Japanese phrasings,
/// at espeak-ng's normal and a slow rate, none came back as said; "no grabes esto" became "no
/// traves esto", "ぜんぶけしてください" 目を消しちゃっておまさい). Those languages' refusals
/// are tested typed and on the exchange with their transcripts; real recordings of refusals
/// would be the way to test them aloud.
enum SpokenRefusals {
    struct Case: Sendable {
        var text: String
        var scope: RefusalScope
    }

    /// Content the person says before refusing everything, and the refusals. The German
    /// content is one whisper base takes surely from espeak-ng (mean log-probability -0.6 to
    /// -0.8): "Meine Nachbarin will ihr altes Klavier an eine Schule verkaufen." came back
    /// garbled at -1.45, beside the -1.5 below which a transcript was then dropped as unsure, and the
    /// demo then asked again and heard the refusal first.
    static let cases: [String: (content: String, refusals: [Case])] = [
        "en": ("My neighbour wants to sell her old piano to a school.", [
            Case(text: "Please don't record this part.", scope: .answer),
            Case(text: "I don't want any of this recorded.", scope: .everything),
        ]),
        "de": ("Ich habe eine Idee für einen Laden mit gebrauchten Büchern.", [
            Case(text: "Ich möchte das nicht aufnehmen.", scope: .answer),
            Case(text: "Ich will nicht, dass irgendetwas davon gespeichert wird.", scope: .everything),
        ]),
    ]
}

@Suite("Refusals said aloud are heard as refusals (espeak-ng, whisper.cpp, the rules)", .serialized)
struct SpokenRefusalTests {
    static let transcriber = Result { try Transcriber(modelPath: DefaultModels.whisper) }

    @Test(arguments: ["en", "de"])
    func aSpokenRefusalIsHeardAsOne(language: String) async throws {
        let pack = try LanguagePackLoader().load(Language(language))
        let rules = Rules(pack: pack)
        let cases = try #require(SpokenRefusals.cases[language])
        for refusal in cases.refusals {
            let clip = try spokenClip(refusal.text, voice: pack.voice)
            let heard = try await Self.transcriber.get().transcribe(clip, options: TranscriptionOptions(language: pack.whisperLanguage)).text
            print("[refusal \(language)] said: \(refusal.text)\n[refusal \(language)]      heard: \(heard)")
            #expect(rules.refusal(in: heard) == refusal.scope, "\(language): \"\(refusal.text)\" was heard as \"\(heard)\"")
        }
    }
}

/// The whole voice path: the demo's person says something, then refuses all of it. Nothing
/// they said may be in any file the program keeps (notes, journals, state) once it exits.
@Suite("A refusal said aloud leaves no trace (real stack)")
struct RefusedDemoTests {
    @Test(arguments: ["en", "de"])
    func aRefusedDemoLeavesNoTrace(language: String) async throws {
        try await Lanes.spokenDialogues.run { try await Self.refuse(language) }
    }

    static func refuse(_ language: String) async throws {
        let cases = try #require(SpokenRefusals.cases[language])
        let refusal = try #require(cases.refusals.first { $0.scope == .everything })
        let audio = try PrivateTestServer()
        defer { audio.stop() }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("refused-\(language)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let kept = ["notes", "state", "data"].map { work.appendingPathComponent($0).path }
        try FileManager.default.createDirectory(atPath: kept[1], withIntermediateDirectories: true)
        let events = kept[1] + "/events.jsonl"
        let scenario = work.appendingPathComponent("scenario.json")
        let answers = ["answers": [["text": cases.content], ["text": refusal.text]]]
        try JSONSerialization.data(withJSONObject: answers).write(to: scenario)

        let (status, output) = try await DemoDialogueTests.shell(
            [DemoDialogueTests.binary, "demo", "--lang", language, "--audio-server", audio.address,
             "--scenario", scenario.path, "--notes-dir", kept[0],
             // The events file a script asked for is on disk too: it must not keep the words either.
             "--events", events],
            environment: ["PULSE_SERVER": audio.address, "PULSE_COOKIE": audio.folder + "/cookie",
                          "XDG_STATE_HOME": kept[1], "XDG_DATA_HOME": kept[2], "OMP_WAIT_POLICY": "PASSIVE"])
        print(output)
        #expect(status == 0)
        let pack = try LanguagePackLoader().load(Language(language))
        #expect(output.contains(pack.ui(.refusedDiscarded)), "the person was not told nothing was kept:\n\(output)")
        // What the program heard is on the screen, between quotation marks: the content, and
        // any refusal it misheard before the person said it again (none of it may be kept).
        let shown = output.components(separatedBy: "\n").filter { $0.hasPrefix("  “") }
        try #require(!shown.isEmpty, "the content answer was not heard:\n\(output)")
        let heardWords = shown.flatMap { $0.split { !$0.isLetter }.map(String.init) }.filter { $0.count >= 4 }
        try #require(!heardWords.isEmpty)
        #expect(try String(contentsOfFile: events, encoding: .utf8).contains(#""event":"refused""#), "no events were written")
        for folder in kept {
            for name in FileManager.default.enumerator(atPath: folder)?.compactMap({ $0 as? String }) ?? [] {
                let path = folder + "/" + name
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                var text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
                if path == events {   // the questions asked are the program's words, not the person's
                    text = text.split(separator: "\n").filter { !$0.contains(#""event":"question""#) }.joined(separator: "\n")
                }
                #expect(name.hasSuffix(".md") == false, "a note was saved: \(path)")
                for word in heardWords {
                    #expect(!text.contains(word), "\(path) keeps \"\(word)\", which the person refused")
                }
            }
        }
    }
}
