import Foundation

/// Why a language could not be loaded, written for the person who has to fix it: the file,
/// what is wrong, and what to do.
public enum LanguagePackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No searched folder holds `en.json`.
    case folderNotFound(searched: [String])
    /// The language has no file.
    case unsupported(Language)
    /// The file exists in no searched folder, or cannot be read.
    case unreadable(file: String, reason: String)
    /// The file is not valid JSON of the expected shape.
    case malformed(file: String, reason: String)

    public var description: String {
        switch self {
        case .folderNotFound(let searched):
            return "The language files (Locales/en.json …) were not found. Searched: "
                + searched.joined(separator: ", ")
                + ". Fix: reinstall dialogue-memo, or set DIALOGUE_MEMO_LOCALES to the folder that holds en.json."
        case .unsupported(let language):
            return "The language \"\(language)\" is not supported. Supported: "
                + LanguagePackLoader.supportedLanguages.map(\.code).joined(separator: ", ") + "."
        case .unreadable(let file, let reason):
            return "Cannot read the language file \(file): \(reason). Fix: restore the file from the release, or set DIALOGUE_MEMO_LOCALES to a folder that holds it."
        case .malformed(let file, let reason):
            return "The language file \(file) is malformed: \(reason). Fix: correct the JSON (every locale file has the keys of en.json), or restore the file from the release."
        }
    }
}
