import Foundation
import Testing
@testable import Transcription

@Suite("WAV reading and resampling")
struct WAVFileTests {
    @Test func roundTripsSixteenBitMono() throws {
        let samples: [Float] = (0..<1600).map { Float(sin(Double($0) * 0.05)) * 0.5 }
        let wav = try WAVFile(data: WAVFile.encode(mono: samples, sampleRate: 16_000))
        #expect(wav.sampleRate == 16_000 && wav.channels == 1)
        #expect(zip(wav.samples, samples).allSatisfy { abs($0 - $1) < 1.0 / 16_000 })
    }

    @Test func rejectsNonAudio() {
        #expect(throws: WAVFile.ReadError.notWAV("x.txt")) {
            _ = try WAVFile(data: Data("just some text, not audio".utf8), path: "x.txt")
        }
    }

    @Test func rejectsAnEmptyDataChunk() {
        var data = WAVFile.encode(mono: [], sampleRate: 16_000)
        data.append(contentsOf: [])
        #expect(throws: WAVFile.ReadError.empty("e.wav")) { _ = try WAVFile(data: data, path: "e.wav") }
    }

    @Test func missingFileNamesThePath() {
        #expect(throws: WAVFile.ReadError.missing("/no/such.wav")) { _ = try WAVFile(contentsOf: "/no/such.wav") }
    }

    @Test func aFolderIsNotReadAsAFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dir-\(UUID().uuidString).wav").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: WAVFile.ReadError.directory(folder)) { _ = try WAVFile(contentsOf: folder) }
        #expect(WAVFile.ReadError.directory("d.wav").description == "d.wav: is a folder, not a WAV file. Name a recording inside it.")
    }

    /// A copy that stopped early is read as far as it goes, and says how much is missing.
    @Test func aFileCutShortSaysHowMuchOfItIsThere() throws {
        let whole = WAVFile.encode(mono: [Float](repeating: 0.1, count: 32_000), sampleRate: 16_000)
        let cut = try WAVFile(data: whole.prefix(44 + 8_000), path: "c.wav")
        #expect(cut.duration == 0.25 && cut.announcedDuration == 2)
        #expect(cut.truncationNotice(file: "c.wav") ==
                "c.wav: the file is cut short: its header announces 2.0 s of audio, it holds 0.2 s; only that part is transcribed.")
        #expect(try WAVFile(data: whole).announcedDuration == nil)
        #expect(throws: WAVFile.ReadError.cutShort("h.wav", announced: 2)) { _ = try WAVFile(data: whole.prefix(44), path: "h.wav") }
        #expect(WAVFile.ReadError.cutShort("h.wav", announced: 2).description ==
                "h.wav: the file is cut short: its header announces 2.0 s of audio, and none of it is there.")
    }

    /// A recording still being written carries no data size (0 or 0xFFFFFFFF): not cut short.
    @Test func aStreamsHeaderWithoutASizeIsNotCutShort() throws {
        var stream = WAVFile.encode(mono: [Float](repeating: 0.1, count: 1_600), sampleRate: 16_000)
        stream.replaceSubrange(40..<44, with: [0xFF, 0xFF, 0xFF, 0xFF])
        let wav = try WAVFile(data: stream)
        #expect(wav.announcedDuration == nil && wav.duration == 0.1)
    }

    @Test func resamplingKeepsAToneAndItsLength() {
        // A 440 Hz tone at 48 kHz → 16 kHz keeps its frequency (zero crossings) and duration.
        let tone = (0..<48_000).map { Float(sin(2 * Double.pi * 440 * Double($0) / 48_000)) }
        let out = Resampler.resample(tone, from: 48_000, to: 16_000)
        #expect(out.count == 16_000)
        let crossings = zip(out.dropLast(), out.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        #expect(abs(crossings - 440) <= 2)
        #expect(abs(AudioLevel.rms(out) - Float(0.5.squareRoot())) < 0.02)
    }

    @Test func silenceHasNoSpeechEnergy() {
        #expect(!AudioLevel.containsSpeechEnergy([Float](repeating: 0, count: 32_000)))
        let hum = (0..<32_000).map { Float(sin(Double($0) * 0.1)) * 0.002 }
        #expect(!AudioLevel.containsSpeechEnergy(hum))
        let voice = (0..<32_000).map { Float(sin(Double($0) * 0.1)) * 0.2 }
        #expect(AudioLevel.containsSpeechEnergy(voice))
    }

    @Test func aVoiceHoldsItsSoundAndKeysDoNot() {
        // 1 s of sound between silences; keys: 40 ms clicks every 150 ms (loud enough to count as speech energy).
        let voice = [Float](repeating: 0, count: 8_000) + (0..<16_000).map { Float(sin(Double($0) * 0.1)) * 0.2 }
            + [Float](repeating: 0, count: 8_000)
        #expect(abs(AudioLevel.longestSound(voice) - 1) < 0.021)
        let keys = (0..<48_000).map { $0 % 2_400 < 640 ? Float(sin(Double($0) * 0.9)) * 0.3 : 0 }
        #expect(AudioLevel.containsSpeechEnergy(keys))
        #expect(AudioLevel.longestSound(keys) <= 0.06)
        #expect(AudioLevel.longestSound([Float](repeating: 0, count: 100)) == 0)
    }
}
