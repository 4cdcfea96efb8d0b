import Foundation
import Testing

/// Input at the edges gets its own plain answer from the program, not a library's error code,
/// a wrong diagnosis or silence.
@Suite("input at the edges (real binary)", .serialized)
final class InputEdgeTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("edges-\(UUID().uuidString)")

    init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: folder) }

    @Test func aFolderNamedLikeAWAVFileIsCalledAFolder() throws {
        let path = folder.appendingPathComponent("dir.wav").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let result = try CLI.run(["transcribe", path])
        #expect(result.status == 1)
        #expect(result.stderr == "dialogue-memo: \(path): is a folder, not a WAV file. Name a recording inside it.\n")
    }

    /// A cut-short file is not "silent": it says how much of it is there, and the rest is judged as usual.
    @Test func aWAVFileCutShortSaysHowMuchIsThere() throws {
        let path = folder.appendingPathComponent("cut.wav").path
        try Self.wav(samples: [Int16](repeating: 0, count: 32_000)).prefix(44 + 8_000).write(to: URL(fileURLWithPath: path))
        let result = try CLI.run(["transcribe", path])
        #expect(result.status == 0 && result.stdout.isEmpty)
        #expect(result.stderr.contains("\(path): the file is cut short: its header announces 2.0 s of audio, it holds 0.2 s; only that part is transcribed."),
                "\(result.stderr)")
        let empty = folder.appendingPathComponent("header-only.wav").path
        try Self.wav(samples: [Int16](repeating: 0, count: 32_000)).prefix(44).write(to: URL(fileURLWithPath: empty))
        let headerOnly = try CLI.run(["transcribe", empty])
        #expect(headerOnly.status == 1)
        #expect(headerOnly.stderr.contains("\(empty): the file is cut short: its header announces 2.0 s of audio, and none of it is there."))
    }

    /// Ten minutes of white noise were transcribed as "you".
    @Test func whiteNoiseIsNamedAndGivesNoWords() throws {
        let path = folder.appendingPathComponent("noise.wav").path
        var seed: UInt64 = 44
        let noise = (0..<16_000 * 20).map { _ -> Int16 in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int16(truncatingIfNeeded: Int64(bitPattern: seed) >> 50)
        }
        try Self.wav(samples: noise).write(to: URL(fileURLWithPath: path))
        let result = try CLI.run(["transcribe", path])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr == "dialogue-memo: \(path): no speech found: the sound is steady (noise, a hum or a tone), without the rise and fall of a voice.\n")
    }

    /// 200 piped answers: the exchange ends after a few, and the rest are counted, not dropped in silence.
    @Test func pipedLinesAfterTheEndAreCounted() throws {
        let memo = try RunningMemo(["talk", "--type", "--lang", "en", "--yes", "--no-model"])
        memo.type((["A tool library for our street.", "That's all."] + (1...12).map { "Line \($0) after the end." })
            .joined(separator: "\n"))
        let result = memo.finish()
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Lines given after the end that were not used: 12."), "\(result.output)")
    }

    /// A typed exchange that uses every line says nothing about unused ones.
    @Test func noUnusedLinesNoNotice() throws {
        let memo = try RunningMemo(["talk", "--type", "--lang", "en", "--yes", "--no-model"])
        memo.type("A tool library for our street.\nThat's all.")
        let result = memo.finish()
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("not used"), "\(result.output)")
    }

    @Test func theTypedPromptSaysWhatAnEmptyLineDoes() throws {
        let memo = try RunningMemo(["talk", "--type", "--lang", "en", "--yes", "--no-model"])
        memo.type("A tool library for our street.\n")
        let result = memo.finish()
        #expect(result.output.contains("Type your answer (an empty line when you have said everything):"), "\(result.output)")
    }

    /// 16-bit mono 16 kHz WAV bytes.
    static func wav(samples: [Int16]) -> Data {
        var data = Data("RIFF".utf8)
        func put32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func put16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        put32(UInt32(36 + samples.count * 2)); data.append(contentsOf: Array("WAVEfmt ".utf8)); put32(16)
        put16(1); put16(1); put32(16_000); put32(32_000); put16(2); put16(16)
        data.append(contentsOf: Array("data".utf8)); put32(UInt32(samples.count * 2))
        for sample in samples { withUnsafeBytes(of: sample.littleEndian) { data.append(contentsOf: $0) } }
        return data
    }
}
