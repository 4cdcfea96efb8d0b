import DialogueCore
import Foundation
import Transcription

/// `eval speech`: every clip of the real-speech set transcribed our two ways (the file
/// settings of `transcribe`, and the dialogue's, `--fast`) and by `whisper-cli` of the same
/// build and model, side by side, scored per language and split. Noise clips must give no text.
public struct SpeechEvaluation: Sendable {
    public enum System: String, CaseIterable, Sendable {
        case ours, fast, prompted, whisperCLI = "whisper-cli"
    }

    public struct ClipResult: Sendable {
        public let clip: SpeechSet.Clip
        /// Per system: the transcript, its errors and reference units, and the seconds it took.
        public var runs: [System: (text: String, errors: Int, units: Int, seconds: Double)] = [:]

        public var line: String {
            let figures = System.allCases.compactMap { system in
                runs[system].map { run in
                    clip.language == "none" ? "\(system.rawValue) \(run.text.isEmpty ? "no text" : "“\(run.text)”")"
                        : "\(system.rawValue) \(ErrorFigure.format(run.errors, run.units))"
                }
            }
            let seconds = clip.durationSeconds.map { String(format: ", %.1f s", $0) } ?? ""
            return "\(clip.id) (\(clip.language), \(clip.kind), \(clip.split)\(seconds)): " + figures.joined(separator: " · ")
        }
    }

    let transcriber: Transcriber
    /// `whisper-cli` and its model; nil: not compared.
    let whisperCLI: (binary: String, model: String)?
    let threads: Int
    /// Per language, text given to whisper as what was said before the clip (`prompted`: the
    /// dialogue's settings with the question just asked as its initial prompt); empty: not run.
    /// The dialogue does not prompt whisper with its question: it made French worse and nothing
    /// better (scripts/speech.md, "Behind the evaluation code").
    let prompts: [String: String]

    public init(transcriber: Transcriber, whisperCLI: (binary: String, model: String)?, threads: Int = 2,
                prompts: [String: String] = [:]) {
        self.transcriber = transcriber
        self.whisperCLI = whisperCLI
        self.threads = threads
        self.prompts = prompts
    }

    public func run(_ set: SpeechSet, onClip: (ClipResult) -> Void) async throws -> [ClipResult] {
        var results: [ClipResult] = []
        for clip in set.clips {
            guard let file = clip.file else { continue }
            let path = file.hasPrefix("/") ? file : set.folder + "/" + file
            let samples = try WAVFile(contentsOf: path).monoSamples(at: Transcriber.sampleRate)
            // Noise is transcribed, and scored, as English.
            let whisperLanguage = (clip.spokenLanguage ?? .english).code
            var result = ClipResult(clip: clip)
            for system in [System.ours, .fast, .prompted] {
                var options = FileTranscription.options(language: whisperLanguage, fast: system != .ours)
                if system == .prompted {
                    guard let prompt = prompts[whisperLanguage] else { continue }
                    options.initialPrompt = prompt
                }
                let start = ContinuousClock.now
                let text = AudioLevel.containsSpeechEnergy(samples)
                    ? try await transcriber.transcribe(samples, options: options).text : ""
                result.runs[system] = scored(text, clip, seconds: start.duration(to: .now).seconds)
            }
            if let whisperCLI {
                let start = ContinuousClock.now
                let text = try Self.whisperCLI(whisperCLI.binary, model: whisperCLI.model, file: path,
                                               language: whisperLanguage, threads: threads)
                result.runs[.whisperCLI] = scored(text, clip, seconds: start.duration(to: .now).seconds)
            }
            onClip(result)
            results.append(result)
        }
        return results
    }

    /// Errors against the reference as written or with numbers in digits, whichever is fewer:
    /// a number said is right either way.
    func scored(_ text: String, _ clip: SpeechSet.Clip, seconds: Double) -> (text: String, errors: Int, units: Int, seconds: Double) {
        let references = [clip.reference, clip.referenceDigits].compactMap { $0 }
        let best = references.map { ErrorRate.of(text, reference: $0, language: clip.spokenLanguage ?? .english) }.min { $0.errors < $1.errors }
        return (text, best?.errors ?? 0, best?.units ?? 0, seconds)
    }

    /// whisper-cli's defaults (beam 5, best of 5, temperature fallback), text only. A line that
    /// is only a sound label ("[BLANK_AUDIO]", "(clicking)") is whisper-cli saying no speech.
    static func whisperCLI(_ binary: String, model: String, file: String, language: String, threads: Int) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-m", model, "-f", file, "-l", language, "-t", String(threads), "-bs", "5", "-bo", "5", "-nt", "-np"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !Self.isSoundLabel($0) }.joined(separator: " ")
    }

    static func isSoundLabel(_ line: String) -> Bool {
        (line.hasPrefix("[") && line.hasSuffix("]")) || (line.hasPrefix("(") && line.hasSuffix(")"))
    }
}

/// Error rates written as the issue tables write them (.105).
public enum ErrorFigure {
    public static func format(_ errors: Int, _ units: Int) -> String {
        let rate = String(format: "%.3f", Double(errors) / Double(max(units, 1)))
        return rate.hasPrefix("0") ? String(rate.dropFirst()) : rate
    }
}

/// Per language and split: each system's error rate over all the clips' words together, and
/// its time.
public struct SpeechSummary: Sendable {
    public let results: [SpeechEvaluation.ClipResult]

    public init(_ results: [SpeechEvaluation.ClipResult]) { self.results = results }

    public var text: String {
        let systems = SpeechEvaluation.System.allCases.filter { system in results.contains { $0.runs[system] != nil } }
        let speech = results.filter { $0.clip.language != "none" && $0.clip.kind != "noisy" }
        let languages = Set(speech.map(\.clip.language)).sorted()
        var lines = ["== Real speech: WER (ja: CER) per language; ours = transcribe's settings, fast = the dialogue's"
                     + (systems.contains(.prompted) ? ", prompted = the dialogue's with the opening question as the prompt" : "")]
        for split in ["dev", "test", "all"] {
            let rows = speech.filter { split == "all" || $0.clip.split == split }
            guard !rows.isEmpty else { continue }
            lines.append("\(split):" + languages.map { language in
                let clips = rows.filter { $0.clip.language == language }
                let figures = systems.map { system in "\(system.rawValue) \(Self.errorRate(clips, system))" }
                return "\n  \(language) (\(clips.count) clips): " + figures.joined(separator: ", ")
            }.joined())
        }
        let noise = results.filter { $0.clip.language == "none" }
        if !noise.isEmpty {
            lines.append("noise without speech, clips that gave text: " + systems.map { system in
                "\(system.rawValue) \(noise.filter { !($0.runs[system]?.text.isEmpty ?? true) }.count)/\(noise.count)"
            }.joined(separator: ", "))
        }
        lines += underNoise(systems: systems)
        lines.append("time: " + systems.map { system in
            String(format: "%@ %.1f s", system.rawValue, results.compactMap { $0.runs[system]?.seconds }.reduce(0, +))
        }.joined(separator: ", ") + " (ours and fast in this process, the model loaded once; whisper-cli a process per clip, its load included)")
        return lines.joined(separator: "\n")
    }
}

extension SpeechSummary {
    /// `system`'s error rate over all the words of `clips` together.
    static func errorRate(_ clips: [SpeechEvaluation.ClipResult], _ system: SpeechEvaluation.System) -> String {
        let runs = clips.compactMap { $0.runs[system] }
        return ErrorFigure.format(runs.map(\.errors).reduce(0, +), runs.map(\.units).reduce(0, +))
    }

    /// Speech under noise, per split and language: each system's error rate on the noisy clips
    /// next to the same speech clips clean, and the words it wrote that the reference does not
    /// have (what the noise may have invented, though a misheard word counts too: compare the
    /// two columns).
    func underNoise(systems: [SpeechEvaluation.System]) -> [String] {
        let byID = Dictionary(results.map { ($0.clip.id, $0) }, uniquingKeysWith: { first, _ in first })
        let pairs = results.compactMap { noisy in noisy.clip.build?.mix.flatMap { byID[$0.speech] }.map { (noisy: noisy, clean: $0) } }
        guard !pairs.isEmpty else { return [] }
        let snr = pairs.compactMap { $0.noisy.clip.build?.mix?.snrDb }.max() ?? 0
        var lines = [String(format: "== Speech under noise (keyboard, room tone; %.0f dB SNR): WER noisy / clean, and words not in the reference noisy / clean", snr)]
        for split in ["dev", "test"] {
            let rows = pairs.filter { $0.noisy.clip.split == split }
            let languages = Set(rows.map(\.noisy.clip.language)).sorted()
            guard !languages.isEmpty else { continue }
            lines.append("\(split):" + languages.map { language in
                let clips = rows.filter { $0.noisy.clip.language == language }
                let figures = systems.map { system -> String in
                    func invented(_ runs: [SpeechEvaluation.ClipResult]) -> Int {
                        runs.map { result in result.runs[system].map { Self.wordsNotInReference($0.text, result.clip) } ?? 0 }.reduce(0, +)
                    }
                    return "\(system.rawValue) \(Self.errorRate(clips.map(\.noisy), system)) / \(Self.errorRate(clips.map(\.clean), system)), "
                        + "\(invented(clips.map(\.noisy))) / \(invented(clips.map(\.clean)))"
                }
                return "\n  \(language) (\(clips.count) clips): " + figures.joined(separator: "; ")
            }.joined())
        }
        return lines
    }

    /// The transcript's words (characters for ja) that no reference of the clip contains.
    static func wordsNotInReference(_ text: String, _ clip: SpeechSet.Clip) -> Int {
        let known = Set([clip.reference, clip.referenceDigits].compactMap { $0 }.flatMap { ErrorRate.units($0, language: clip.spokenLanguage ?? .english) })
        return ErrorRate.units(text, language: clip.spokenLanguage ?? .english).filter { !known.contains($0) }.count
    }
}
