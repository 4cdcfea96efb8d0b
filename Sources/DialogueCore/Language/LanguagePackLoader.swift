import Foundation

/// Finds and reads the locale files at run time. They are plain files next to the program,
/// not SwiftPM resources, so a translator can fix a string without rebuilding. Folders are
/// searched in order, and the first that holds `en.json` wins:
/// 1. `$DIALOGUE_MEMO_LOCALES`
/// 2. `<executable dir>/../share/dialogue-memo/Locales` (an installed program)
/// 3. `<executable dir>/Locales` (an unpacked archive)
/// 4. the source tree's `Locales/`, found from this file's `#filePath` (development and tests)
public struct LanguagePackLoader: Sendable {
    public static let supportedLanguages = ["en", "ja", "es", "fr", "de"]
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
        for folder in searchFolders where fileManager.fileExists(atPath: folder.appendingPathComponent("en.json").path) {
            return folder
        }
        throw .folderNotFound(searched: searchFolders.map(\.path))
    }

    /// Loads a supported language, with English for any key its file lacks.
    public func load(_ code: String) throws(LanguagePackError) -> LanguagePack {
        guard Self.supportedLanguages.contains(code) else { throw .unsupported(code: code) }
        let folder = try folder()
        let englishURL = folder.appendingPathComponent("en.json")
        let english = try read(englishURL)
        let url = folder.appendingPathComponent("\(code).json")
        let file = code == "en" ? english : try read(url)
        switch file.resolve(code: code, english: english) {
        case .success(let pack):
            return pack
        case .failure(let missing):
            throw .malformed(file: englishURL.path, reason: "missing keys " + missing.names.joined(separator: ", "))
        }
    }

    /// All supported languages, in the supported order.
    public func loadAll() throws(LanguagePackError) -> [LanguagePack] {
        var packs: [LanguagePack] = []
        for code in Self.supportedLanguages { packs.append(try load(code)) }
        return packs
    }

    /// The supported language for a POSIX locale or language tag ("ja_JP.UTF-8", "fr-CA"),
    /// or nil when it is not supported.
    public static func languageCode(forLocale identifier: String) -> String? {
        let code = identifier.lowercased().prefix { $0.isLetter }
        return supportedLanguages.contains(String(code)) ? String(code) : nil
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

    static func describe(_ error: DecodingError) -> String {
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
