import DialogueCore
import Foundation

/// The real-speech clips `scripts/fetch-speech.sh` builds: its folder holds the WAV files and a
/// `manifest.json` that names each clip's file, language, split and reference transcript.
public struct SpeechSet: Sendable {
    public struct Clip: Decodable, Sendable {
        public let id: String
        /// The manifest's word: a language code, or `none` for a recording of noise without speech.
        public let language: String
        /// The language spoken; nil for noise.
        public var spokenLanguage: Language? { language == "none" ? nil : Language(language) }
        public let kind: String
        public let split: String
        public let reference: String?
        /// The reference with numbers in digits, as whisper writes them (where numbers occur).
        public let referenceDigits: String?
        public let file: String?
        public let durationSeconds: Double?
        /// For `kind` "noisy": the speech clip and the noise clip mixed into this one.
        public let build: Build?

        public struct Build: Decodable, Sendable {
            public struct Mix: Decodable, Sendable {
                public let speech: String
                public let noise: String
                public let snrDb: Double
            }
            public let mix: Mix?
        }
    }

    public let folder: String
    public let clips: [Clip]

    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public init(folder: String) throws {
        let manifest = folder + "/manifest.json"
        guard let data = FileManager.default.contents(atPath: manifest) else {
            throw LoadError(description: "\(manifest): no such file. Build the clips with scripts/fetch-speech.sh (it prints their folder).")
        }
        struct File: Decodable { let clips: [Clip] }
        do {
            clips = try JSONDecoder().decode(File.self, from: data).clips
        } catch {
            throw LoadError(description: "\(manifest): not a speech manifest (\(error)). Build it again with scripts/fetch-speech.sh.")
        }
        self.folder = folder
    }

    /// The newest clip folder under `cache` (`speech-<key>`) with a manifest, if any.
    public static func newestFolder(in cache: String) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []
        let folders = names.filter { $0.hasPrefix("speech-") }.map { cache + "/" + $0 }
            .filter { FileManager.default.fileExists(atPath: $0 + "/manifest.json") }
        func modified(_ path: String) -> Date {
            ((try? FileManager.default.attributesOfItem(atPath: path + "/manifest.json"))?[.modificationDate] as? Date) ?? .distantPast
        }
        return folders.max { modified($0) < modified($1) }
    }
}
