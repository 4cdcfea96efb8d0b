import Foundation
import Testing
@testable import DialogueCore

@Suite("where the default models are")
struct DefaultModelsTests {
    /// An installed program uses the models installed beside it, the same for every user,
    /// whatever their cache holds; a program without them (the source tree's) uses the cache.
    @Test func theModelsBesideAnInstalledProgramComeBeforeTheCache() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("prefix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let program = prefix.appendingPathComponent("bin/dialogue-memo")
        try FileManager.default.createDirectory(at: program.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(DefaultModels.installedModels(beside: program) == nil)

        let models = prefix.appendingPathComponent("share/dialogue-memo/models")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        #expect(DefaultModels.installedModels(beside: program) == models.standardizedFileURL.path)
        #expect(DefaultModels.installedModels(beside: nil) == nil)
    }

    /// The tests run from the build folder, where nothing is installed: the cache's models.
    @Test func theSourceTreesProgramUsesTheCache() {
        #expect(DefaultModels.installedModelsDirectory == nil)
        #expect(DefaultModels.whisper == Paths.cache + "/models/ggml-base-q8_0.bin")
    }
}
