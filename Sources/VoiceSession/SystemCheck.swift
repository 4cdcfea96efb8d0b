import Decisions
import DialogueCore
import Foundation
import Speech
import Transcription

/// What `doctor` checks: every component a voice dialogue needs, each with what to do when it
/// is missing. Each check really uses the component (loads the model, renders a word, asks
/// the server), so a file that exists but does not work is found too.
public enum SystemCheck {
    /// Whether a voice dialogue can run with these results, and what to tell the person.
    public static func verdict(_ checks: [Check]) -> (canTalk: Bool, text: String) {
        guard checks.filter(\.requiredForVoice).allSatisfy(\.ok) else {
            return (false, "A voice dialogue cannot run yet. Typing still works: dialogue-memo --type")
        }
        let modelReady = checks.filter { !$0.requiredForVoice }.allSatisfy(\.ok)
        return (true, modelReady ? "A voice dialogue can run." : "A voice dialogue can run; questions will follow the built-in rules.")
    }

    public struct Check: Sendable, Equatable {
        public var ok: Bool
        public var label: String
        public var detail: String
        /// Whether a voice dialogue needs it (the language model is optional: rules take over).
        public var requiredForVoice: Bool

        public init(ok: Bool, label: String, detail: String, requiredForVoice: Bool) {
            (self.ok, self.label, self.detail, self.requiredForVoice) = (ok, label, detail, requiredForVoice)
        }
    }

    public static func whisperCheck(_ path: String) async -> Check {
        do {
            let transcriber = try Transcriber(modelPath: path)
            let size = fileSizeMB(path)
            guard transcriber.isMultilingual else {
                return Check(ok: false, label: "speech model", detail: "\(path) is English-only (\(transcriber.modelType)); fix: use a multilingual model (make deps installs one)", requiredForVoice: true)
            }
            return Check(ok: true, label: "speech model", detail: "whisper \(transcriber.modelType), multilingual, \(size) MB — \(path)", requiredForVoice: true)
        } catch {
            return Check(ok: false, label: "speech model", detail: "\(error)", requiredForVoice: true)
        }
    }

    public static func languageModelCheck(_ path: String) async -> Check {
        let name = URL(fileURLWithPath: path).lastPathComponent
        do {
            let model = try LanguageModel(path: path, contextSize: 512)
            return Check(ok: true, label: "language model", detail: "\(name) loads (\(model.summary), vocabulary \(model.vocabularySize) tokens, \(fileSizeMB(path)) MB)", requiredForVoice: false)
        } catch {
            return Check(ok: false, label: "language model", detail: "\(error) Without it, questions follow the built-in rules.", requiredForVoice: false)
        }
    }

    /// Renders each language's sample with its voice: proves the voice exists and speaks, not
    /// just that a file with its name is installed.
    public static func voicesCheck(loader: LanguagePackLoader = LanguagePackLoader()) -> Check {
        let packs: [LanguagePack]
        do { packs = try loader.loadAll() } catch {
            return Check(ok: false, label: "espeak-ng voices", detail: "\(error)", requiredForVoice: true)
        }
        var voices: [String] = []
        var missing: [String] = []
        var failure: Error?
        for pack in packs where !voices.contains(pack.voice) {
            voices.append(pack.voice)
            do {
                let pcm = try SpeechSynthesizer.shared.render(pack.voiceSample, voice: pack.voice)
                if pcm.samples.isEmpty { missing.append(pack.voice) }
            } catch SpeechError.voiceMissing {
                missing.append(pack.voice)
            } catch {
                failure = error
                break
            }
        }
        if let failure {
            return Check(ok: false, label: "espeak-ng voices", detail: "\(failure)", requiredForVoice: true)
        }
        if missing.isEmpty {
            return Check(ok: true, label: "espeak-ng voices", detail: voices.joined(separator: ", "), requiredForVoice: true)
        }
        return Check(ok: false, label: "espeak-ng voices", detail: "missing \(missing.joined(separator: ", ")); fix: apt-get install espeak-ng-data", requiredForVoice: true)
    }

    public static func audioChecks() -> [Check] {
        do {
            let info = try AudioServer().info()
            var checks = [Check(ok: true, label: "audio server", detail: serverDescription(name: info.serverName, version: info.serverVersion), requiredForVoice: true)]
            if let sink = info.defaultSink, info.sinks.contains(sink) {
                checks.append(Check(ok: true, label: "default output", detail: sink, requiredForVoice: true))
            } else {
                checks.append(Check(ok: false, label: "default output", detail: "none; fix: connect a speaker or headphones, or choose one with --output NAME (pactl list short sinks)", requiredForVoice: true))
            }
            let capture = info.sources.filter { !$0.hasSuffix(".monitor") }
            if let source = info.defaultSource, info.sources.contains(source), !source.hasSuffix(".monitor") {
                checks.append(Check(ok: true, label: "default input", detail: source, requiredForVoice: true))
                checks.append(Check(ok: true, label: "own voice", detail: ownVoiceDetail(source: source, info: info), requiredForVoice: false))
            } else {
                let hint = capture.isEmpty ? "connect a microphone" : "choose one with --input NAME (\(capture.joined(separator: ", ")))"
                checks.append(Check(ok: false, label: "default input", detail: "no microphone is the default; fix: \(hint)", requiredForVoice: true))
            }
            return checks
        } catch {
            return [Check(ok: false, label: "audio server", detail: "\(error)", requiredForVoice: true)]
        }
    }

    /// How the questions' sound is kept out of the answers, for `doctor`: the echo canceller
    /// when the input is one, else a hint to load it.
    static func ownVoiceDetail(source: String, info: AudioServerInfo) -> String {
        if info.echoCancelledSources.contains(source) {
            return "echo cancellation (module-echo-cancel): you can talk over a question to go on with your answer"
        }
        let hint = info.echoCancelledSources.first.map { "choose it with --input \($0)" }
            ?? "pactl load-module module-echo-cancel \(AudioServerInfo.echoCancellerArguments.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")), then use its source with --input"
        return "the program's own echo canceller: you can talk over a question once it has learned the room (about 2 s into the first question); with headphones it hears nothing to learn, so a question plays to its end. The sound server's canceller needs no learning: \(hint)"
    }

    /// The pulse server named for a person: PulseAudio, or PipeWire's pipewire-pulse, which
    /// calls itself "PulseAudio (on PipeWire 0.3.65)" and gives as its version the PulseAudio
    /// protocol it speaks (15.0.0), not its own.
    public static func serverDescription(name: String, version: String) -> String {
        if let marker = name.range(of: "on PipeWire ") {
            let pipewire = name[marker.upperBound...].prefix { $0.isNumber || $0 == "." }
            return "PipeWire \(pipewire) (pipewire-pulse, speaking PulseAudio \(version))"
        }
        if name == "pulseaudio" || name == "PulseAudio" { return "PulseAudio \(version)" }
        return "\(name) \(version)"
    }

    /// Megabytes, rounded as the README's model table gives them (81.8 MB is 82).
    static func fileSizeMB(_ path: String) -> Int {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return (size + 500_000) / 1_000_000
    }
}
