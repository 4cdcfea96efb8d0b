import DialogueCore
import Foundation
import Testing
@testable import Decisions

/// The probe's data file (`Locales/ending-probe.json`): what it holds, and what a person is told
/// when it cannot be used.
@Suite struct EndingProbeFileTests {
    /// Every number comes back from the file bit for bit, the smallest and the largest too.
    @Test func theFileKeepsEveryNumberBitForBit() throws {
        let weights: [Float] = [0.001267711, -7.346748e-05, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
                                -.ulpOfOne, 1 / 3, 0.1, 0]
        let readout = LinearReadout(bias: -5.52426438, weights: weights)
        let probe = EndingProbe(model: ModelFingerprint(embedding: 10, layers: 2, fileBytes: 3), layerCount: 1,
                                whole: .init(readout, threshold: 1 / 3), close: .init(readout, threshold: .leastNonzeroMagnitude),
                                refusal: LinearReadout(bias: .pi, weights: weights.reversed()))
        let data = try EndingProbeFile(trainedWith: "test", probe: probe).encoded()
        let read = try JSONDecoder().decode(EndingProbeFile.self, from: data).probe
        for (back, made) in [(read.whole, probe.whole), (read.close, probe.close)] {
            #expect(back.threshold.bitPattern == made.threshold.bitPattern)
            #expect(back.readout.bias.bitPattern == made.readout.bias.bitPattern)
            #expect(back.readout.weights.map(\.bitPattern) == made.readout.weights.map(\.bitPattern))
        }
        #expect(read.refusal.bias.bitPattern == probe.refusal.bias.bitPattern)
        #expect(read.refusal.weights.map(\.bitPattern) == probe.refusal.weights.map(\.bitPattern))
        #expect(read.model == probe.model && read.layerCount == probe.layerCount)
    }

    /// The installed file: read whole, one weight per feature of its model's width, and not taken
    /// for a language.
    @Test func theInstalledFileIsAWholeProbe() throws {
        let installed = InstalledEndingProbe.standard
        let probe = try #require(installed.probe, "\(installed.path): \(installed.problem ?? "")")
        for readout in [probe.whole.readout, probe.close.readout, probe.refusal] {
            #expect(readout.weights.count == probe.model.embedding && readout.weights.allSatisfy(\.isFinite))
        }
        #expect(probe.layerCount > 0 && probe.layerCount < probe.model.layers)
        #expect(installed.path.hasSuffix("/" + EndingProbeFile.name))
        #expect(!LanguagePackLoader().languages().contains("ending-probe"), "the loader must not take the probe's file for a language")
    }

    /// A probe trained on another model is not used, and the notice names the file, the two
    /// models and the fix; the model it was trained on gets no notice.
    @Test func aProbeForAnotherModelIsNotUsedAndTheNoticeSaysWhy() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(EndingProbeFile.name).path
        let readout = LinearReadout(bias: 0.25, weights: [1, -2])
        let trainedOn = ModelFingerprint(embedding: 2, layers: 4, fileBytes: 1_000)
        let probe = EndingProbe(model: trainedOn, layerCount: 2, whole: .init(readout, threshold: 0.5),
                                close: .init(readout, threshold: 0.4), refusal: readout)
        try EndingProbeFile(trainedWith: "dialogue-memo eval choices x.json", probe: probe).encoded()
            .write(to: URL(fileURLWithPath: path))
        let installed = InstalledEndingProbe(path: path)
        #expect(installed.probe == probe && installed.problem == nil)
        #expect(installed.notice(for: trainedOn, modelPath: "/models/a.gguf") == nil)

        let other = ModelFingerprint(embedding: 2, layers: 4, fileBytes: 2_000)
        let notice = try #require(installed.notice(for: other, modelPath: "/models/b.gguf"))
        #expect(notice.contains(path) && notice.contains("/models/b.gguf"), "\(notice)")
        #expect(notice.contains("trained on another language model (2 wide, 4 layers, 1000 bytes)"), "\(notice)")
        #expect(notice.contains("(2 wide, 4 layers, 2000 bytes)") && notice.contains("not used"), "\(notice)")
        #expect(notice.contains("Fix: ") && notice.contains("--train-ending-probe \(path)"), "\(notice)")
    }

    @Test func aMissingOrMalformedFileIsNotUsedAndTheNoticeSaysWhy() throws {
        let missing = InstalledEndingProbe(path: "/nonexistent/ending-probe.json")
        #expect(missing.probe == nil)
        let notice = try #require(missing.notice(for: ModelFingerprint(embedding: 1, layers: 1, fileBytes: 1), modelPath: "m.gguf"))
        #expect(notice.contains("/nonexistent/ending-probe.json") && notice.contains("does not exist") && notice.contains("Fix: "), "\(notice)")

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{ "weights": [0.5], "bias": 0 }"#.utf8).write(to: file)
        let malformed = InstalledEndingProbe(path: file.path)
        #expect(malformed.probe == nil && malformed.problem?.contains("not an ending probe file") == true, "\(malformed.problem ?? "")")
    }
}
