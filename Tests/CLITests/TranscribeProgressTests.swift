import Foundation
import Testing

/// `transcribe` on a terminal shows how far whisper is for a long file (whisper.cpp runs: under
/// the engine lock, as `make test` does). `script` gives the binary a pseudo-terminal.
@Suite("dialogue-memo transcribe progress (whisper, pseudo-terminal)")
struct TranscribeProgressTests {
    @Test func aLongFileShowsProgressOnATerminalAndOnlyThere() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script (util-linux) gives the pty")
        let samples = try Self.samples(of: CLITests.jfk)
        // 11 s of JFK three times with a pause between: 35 s, more than one 30 s window.
        let pause = [Int16](repeating: 0, count: 16_000)
        let long = samples + pause + samples + pause + samples
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("long-\(UUID()).wav").path
        try Self.wav(long).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(Double(long.count) / 16_000 > 30)

        let command = "'\(CLI.binary)' transcribe --fast '\(path)'"
        let terminal = try ConfigCLITests.shell("/usr/bin/script", ["-qec", command, "/dev/null"])
        #expect(terminal.status == 0, "\(terminal.output)")
        #expect(terminal.output.contains("Transcribing… "), "no progress line:\n\(terminal.output)")
        #expect(terminal.output.contains("ask not what your country can do for you"))
        // The line is replaced in place, then erased before the transcript is printed.
        #expect(terminal.output.contains("\r\u{1B}[2K"))

        let piped = try CLI.run(["transcribe", "--fast", path])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(!piped.stderr.contains("Transcribing"), "no progress line when standard error is not a terminal")
        #expect(!piped.stdout.contains("Transcribing"))
    }

    /// The 16-bit mono samples of a canonical 16 kHz WAV file (the JFK sample is one).
    static func samples(of path: String) throws -> [Int16] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let range = data.range(of: Data("data".utf8)) else { throw CocoaError(.fileReadCorruptFile) }
        let body = data[(range.upperBound + 4)...]
        return stride(from: body.startIndex, to: body.endIndex - 1, by: 2).map {
            Int16(bitPattern: UInt16(body[$0]) | UInt16(body[$0 + 1]) << 8)
        }
    }

    static func wav(_ samples: [Int16]) -> Data {
        var wav = Data("RIFF".utf8)
        func put32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { wav.append(contentsOf: $0) } }
        func put16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { wav.append(contentsOf: $0) } }
        let bytes = UInt32(samples.count * 2)
        put32(36 + bytes); wav.append(contentsOf: Array("WAVEfmt ".utf8)); put32(16)
        put16(1); put16(1); put32(16_000); put32(32_000); put16(2); put16(16)
        wav.append(contentsOf: Array("data".utf8)); put32(bytes)
        for sample in samples { put16(UInt16(bitPattern: sample)) }
        return wav
    }
}
