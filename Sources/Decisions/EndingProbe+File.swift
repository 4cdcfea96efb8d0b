import DialogueCore
import Foundation

/// The ending probe's weights as data: `Locales/ending-probe.json`, installed with the language
/// files and found the same way (`LanguagePackLoader.folder()`); its name is no language code,
/// so the loader does not take it for a language. Written by `dialogue-memo eval choices …
/// --train-ending-probe FILE`; the weights fit only the model they were trained on, which the
/// file names by its fingerprint.
public struct EndingProbeFile: Sendable, Hashable, Codable {
    public static let name = "ending-probe.json"

    /// The command that trained it: train again instead of editing.
    public let trainedWith: String
    public let probe: EndingProbe

    public init(trainedWith: String, probe: EndingProbe) {
        self.trainedWith = trainedWith
        self.probe = probe
    }

    /// Sorted keys, one number a line: a new training shows as a readable diff.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}

/// The probe a session uses: read once per process from its file beside the language files,
/// or why it could not be read.
public struct InstalledEndingProbe: Sendable {
    public let path: String
    public let probe: EndingProbe?
    /// Why `probe` is nil.
    public let problem: String?

    /// The probe beside the language files of the standard search.
    public static let standard = InstalledEndingProbe(
        path: ((try? LanguagePackLoader().folder()) ?? URL(fileURLWithPath: "Locales")).appendingPathComponent(EndingProbeFile.name).path)

    public init(path: String) {
        self.path = path
        do {
            probe = try JSONDecoder().decode(EndingProbeFile.self, from: Data(contentsOf: URL(fileURLWithPath: path))).probe
            problem = nil
        } catch let error as DecodingError {
            probe = nil
            problem = "it is not an ending probe file (\(LanguagePackLoader.describe(error)))"
        } catch {
            probe = nil
            problem = FileManager.default.fileExists(atPath: path) ? error.localizedDescription : "the file does not exist"
        }
    }

    /// What a person should know before deciding with the model of `fingerprint`: nothing when
    /// the probe fits it; otherwise which file, why the probe is not used, and what to do.
    public func notice(for fingerprint: ModelFingerprint, modelPath: String) -> String? {
        let without = "so endings the phrase rules miss are read from the model's label scores alone"
        let train = "dialogue-memo eval choices Tests/Fixtures/choice-scenarios.json --split dev --llm-model \(modelPath) --train-ending-probe \(path)"
        guard let probe else {
            return "The ending probe \(path) was not read: \(problem ?? "unknown"), \(without). "
                + "Fix: restore the file from the release, or train it again: \(train)."
        }
        guard probe.model != fingerprint else { return nil }
        return "The ending probe \(path) was trained on another language model (\(probe.model)) than \(modelPath) (\(fingerprint)), "
            + "so it is not used: endings the phrase rules miss are read from the model's label scores alone. "
            + "Fix: use the model it was trained on, or train it for this one: \(train)."
    }
}
