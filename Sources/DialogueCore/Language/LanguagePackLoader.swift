import Foundation
import Synchronization

/// Finds and reads the locale files at run time. They are plain files next to the program,
/// not SwiftPM resources, so a translator can fix a string without rebuilding. Folders are
/// searched in order, and the first that holds `en.json` wins:
/// 1. `$DIALOGUE_MEMO_LOCALES`
/// 2. `<executable dir>/../share/dialogue-memo/Locales` (an installed program)
/// 3. `<executable dir>/Locales` (an unpacked archive)
/// 4. the source tree's `Locales/`, found from this file's `#filePath` (development and tests)
///
/// A language is its file: `<code>.json`, named by its ISO 639 code (two or three lowercase
/// letters), so other JSON files in the folder are not taken for languages. English is the
/// fallback and must be there.
public struct LanguagePackLoader: Sendable {
    /// The languages of this process's standard search (`init()`), English first: what
    /// `--lang` and the locale variables may name.
    public static let supportedLanguages = LanguagePackLoader().languages()
    public static let environmentVariable = "DIALOGUE_MEMO_LOCALES"

    public let searchFolders: [URL]

    public init(searchFolders: [URL]) { self.searchFolders = searchFolders }

    /// The standard search order for this process.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment,
                executableURL: URL? = LanguagePackLoader.currentExecutable()) {
        var folders: [URL] = []
        if let custom = environment[Self.environmentVariable], !custom.isEmpty {
            folders.append(URL(fileURLWithPath: custom, isDirectory: true))
        }
        if let executableDir = executableURL?.deletingLastPathComponent() {
            folders.append(executableDir.appendingPathComponent("../share/dialogue-memo/Locales", isDirectory: true).standardizedFileURL)
            folders.append(executableDir.appendingPathComponent("Locales", isDirectory: true))
        }
        if let sourceTree = Self.sourceTreeLocales() { folders.append(sourceTree) }
        self.init(searchFolders: folders)
    }

    /// The first searched folder that holds `en.json`.
    public func folder() throws(LanguagePackError) -> URL {
        let fileManager = FileManager.default
        let english = Self.fileName(.english)
        for folder in searchFolders where fileManager.fileExists(atPath: folder.appendingPathComponent(english).path) {
            return folder
        }
        throw .folderNotFound(searched: searchFolders.map(\.path))
    }

    /// The languages of the files in `folder()`, English first and the rest in order;
    /// only English when no folder is found (loading it then says where it looked).
    public func languages() -> [Language] {
        let names = (try? folder()).flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0.path) } ?? []
        let others = names.compactMap(Self.language(fileName:)).filter { $0 != .english }.sorted()
        return [.english] + others
    }

    /// `fr.json` → fr; nil for a file that is not a language's.
    static func language(fileName: String) -> Language? {
        guard fileName.hasSuffix(".json") else { return nil }
        let code = fileName.dropLast(".json".count)
        return (2...3).contains(code.count) && code.allSatisfy({ $0.isASCII && $0.isLowercase }) ? Language(String(code)) : nil
    }

    /// fr → `fr.json`.
    static func fileName(_ language: Language) -> String { "\(language.code).json" }

    /// Loads a language of `languages()`, with English for any key its file lacks.
    public func load(_ language: Language) throws(LanguagePackError) -> LanguagePack {
        guard languages().contains(language) else { throw .unsupported(language) }
        let folder = try folder()
        let englishURL = folder.appendingPathComponent(Self.fileName(.english))
        let english = try read(englishURL)
        let url = folder.appendingPathComponent(Self.fileName(language))
        let file = language == .english ? english : try read(url)
        do {
            return try file.resolve(language: language, english: english)
        } catch {
            switch error {
            case .missingKeys(let names):
                throw .malformed(file: englishURL.path, reason: "missing keys " + names.joined(separator: ", "))
            case .invalidPattern(let invalid, let fromEnglish):
                throw .malformed(file: (fromEnglish ? englishURL : url).path,
                                 reason: "\(invalid.key) is not a regular expression: \(invalid.pattern)")
            }
        }
    }

    /// All languages of `languages()`, in that order.
    public func loadAll() throws(LanguagePackError) -> [LanguagePack] {
        var packs: [LanguagePack] = []
        for language in languages() { packs.append(try load(language)) }
        return packs
    }

    private static let standardPacks = Mutex<[Language: LanguagePack?]>([:])

    /// The pack of `language` as the standard search (`init()`) finds it, loaded once per process;
    /// nil when the language has no file or its file does not load. For code that knows a note
    /// only by its language: its dates, its next-step cues.
    public static func standardPack(_ language: Language) -> LanguagePack? {
        standardPacks.withLock { packs in
            if let known = packs[language] { return known }
            let pack = try? LanguagePackLoader().load(language)
            packs[language] = pack
            return pack
        }
    }

    /// The supported language for a POSIX locale or language tag ("ja_JP.UTF-8", "fr-CA"),
    /// or nil when it is not supported.
    public static func language(forLocale identifier: String) -> Language? {
        let language = Language(String(identifier.lowercased().prefix { $0.isLetter }))
        return supportedLanguages.contains(language) ? language : nil
    }

    func read(_ url: URL) throws(LanguagePackError) -> LanguagePackFile {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let reason = FileManager.default.fileExists(atPath: url.path) ? "\(error.localizedDescription)" : "the file does not exist"
            throw .unreadable(file: url.path, reason: reason)
        }
        let file: LanguagePackFile
        do {
            file = try JSONDecoder().decode(LanguagePackFile.self, from: data)
        } catch let error as DecodingError {
            throw .malformed(file: url.path, reason: Self.describe(error))
        } catch {
            throw .malformed(file: url.path, reason: "\(error)")
        }
        let unknown = file.unknownNames()
        guard unknown.isEmpty else {
            throw .malformed(file: url.path, reason: "unknown keys " + unknown.joined(separator: ", "))
        }
        return file
    }

    public static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return keys.isEmpty ? "" : " at " + keys.joined(separator: ".")
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "expected \(type)\(path(context))"
        case .valueNotFound(let type, let context):
            return "missing \(type) value\(path(context))"
        case .keyNotFound(let key, let context):
            return "missing key \"\(key.stringValue)\"\(path(context))"
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " (\($0.localizedDescription))" } ?? ""
            return "not valid JSON\(path(context)): \(context.debugDescription)\(underlying)"
        @unknown default:
            return "\(error)"
        }
    }

    /// The running program, through /proc so a symlinked install still finds its files.
    public static func currentExecutable() -> URL? {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: target)
        }
        guard let first = CommandLine.arguments.first, !first.isEmpty else { return nil }
        return URL(fileURLWithPath: first).standardizedFileURL
    }

    /// `<repository>/Locales`, from where this source file was compiled.
    static func sourceTreeLocales() -> URL? {
        // #filePath here, not as a default argument: that would be the caller's file.
        var url = URL(fileURLWithPath: #filePath)
        while url.pathComponents.count > 1 {
            url.deleteLastPathComponent()
            if url.lastPathComponent == "Sources" {
                return url.deletingLastPathComponent().appendingPathComponent("Locales", isDirectory: true)
            }
        }
        return nil
    }
}
