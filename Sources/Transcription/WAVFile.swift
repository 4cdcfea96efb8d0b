import Foundation

/// Reads a RIFF/WAVE file (PCM 8/16/24/32-bit or IEEE float, any rate and channel count) and
/// turns it into the 16 kHz mono float samples whisper needs.
public struct WAVFile: Sendable {
    public var sampleRate: Int
    public var channels: Int
    /// Interleaved samples in [-1, 1].
    public var samples: [Float]
    /// The seconds of audio the header announced, when the file holds fewer (a copy or a
    /// download that stopped early); nil for a whole file, or a stream whose header gives no size.
    public var announcedDuration: Double?

    public enum ReadError: Error, CustomStringConvertible, Equatable {
        case missing(String)
        case directory(String)
        case unreadable(String, reason: String)
        case notWAV(String)
        case unsupported(String, reason: String)
        case empty(String)
        case cutShort(String, announced: Double)

        public var description: String {
            switch self {
            case .missing(let path): return "\(path): no such file."
            case .directory(let path): return "\(path): is a folder, not a WAV file. Name a recording inside it."
            case .unreadable(let path, let reason): return "\(path): cannot be read (\(reason))."
            case .notWAV(let path):
                return "\(path): not a WAV file. Convert it first, e.g. `sox input.mp3 -r 16000 -c 1 output.wav`."
            case .unsupported(let path, let reason):
                return "\(path): unsupported WAV (\(reason)). Convert it with `sox \(path) -b 16 output.wav`."
            case .empty(let path): return "\(path): the file holds no audio samples."
            case .cutShort(let path, let announced):
                return "\(path): the file is cut short: its header announces \(WAVFile.seconds(announced)) of audio, and none of it is there."
            }
        }
    }

    public init(sampleRate: Int, channels: Int, samples: [Float]) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.samples = samples
    }

    public init(contentsOf path: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw ReadError.missing(path) }
        guard !isFolder.boolValue else { throw ReadError.directory(path) }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe) }
        catch { throw ReadError.unreadable(path, reason: error.localizedDescription) }
        try self.init(data: data, path: path)
    }

    public init(data: Data, path: String = "audio") throws {
        let bytes = [UInt8](data)
        func u32(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o+1]) << 8 | Int(bytes[o+2]) << 16 | Int(bytes[o+3]) << 24 }
        func u16(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o+1]) << 8 }
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8),
              bytes[8..<12].elementsEqual("WAVE".utf8) else { throw ReadError.notWAV(path) }

        var format: (tag: Int, channels: Int, rate: Int, bits: Int)?
        var payload: Range<Int>?
        var announcedBytes: Int?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset+4], as: UTF8.self)
            var size = u32(offset + 4)
            let body = offset + 8
            // Streams written while recording carry 0 or 0xFFFFFFFF as the data size; any other
            // size beyond the end is a file cut short, read as far as it goes.
            if id == "data" && (size == 0 || size == 0xFFFF_FFFF || body + size > bytes.count) {
                if size != 0 && size != 0xFFFF_FFFF { announcedBytes = size }
                size = bytes.count - body
            }
            guard body + size <= bytes.count else { break }
            if id == "fmt ", size >= 16 {
                var tag = u16(body)
                if tag == 0xFFFE, size >= 26 { tag = u16(body + 24) }   // WAVE_FORMAT_EXTENSIBLE
                format = (tag, u16(body + 2), u32(body + 4), u16(body + 14))
            } else if id == "data" {
                payload = body..<(body + size)
            }
            offset = body + size + (size & 1)
        }
        guard let format, let payload else { throw ReadError.notWAV(path) }
        guard format.channels > 0, format.rate > 0 else {
            throw ReadError.unsupported(path, reason: "\(format.channels) channels at \(format.rate) Hz")
        }
        let width = format.bits / 8
        let decode: (Int) -> Float
        switch (format.tag, format.bits) {
        case (1, 8): decode = { (Float(bytes[$0]) - 128) / 128 }
        case (1, 16): decode = { Float(Int16(bitPattern: UInt16(u16($0)))) / 32768 }
        case (1, 24):
            decode = { o in
                let raw = UInt32(bytes[o]) << 8 | UInt32(bytes[o+1]) << 16 | UInt32(bytes[o+2]) << 24
                return Float(Int32(bitPattern: raw) >> 8) / 8_388_608
            }
        case (1, 32): decode = { Float(Int32(bitPattern: UInt32(u32($0)))) / 2_147_483_648 }
        case (3, 32): decode = { Float(bitPattern: UInt32(u32($0))) }
        default:
            throw ReadError.unsupported(path, reason: "format \(format.tag) with \(format.bits)-bit samples")
        }
        let count = payload.count / width
        let announced = announcedBytes.map { Double($0 / (width * format.channels)) / Double(format.rate) }
        guard count > 0 else { throw announced.map { ReadError.cutShort(path, announced: $0) } ?? ReadError.empty(path) }
        var samples = [Float](repeating: 0, count: count)
        for i in 0..<count {
            samples[i] = decode(payload.lowerBound + i * width)
        }
        self.init(sampleRate: format.rate, channels: format.channels, samples: samples)
        announcedDuration = announced
    }

    /// Says how much of the announced audio a cut-short file holds; nil for a whole file.
    public func truncationNotice(file: String) -> String? {
        announcedDuration.map {
            "\(file): the file is cut short: its header announces \(Self.seconds($0)) of audio, it holds \(Self.seconds(duration)); only that part is transcribed."
        }
    }

    static func seconds(_ value: Double) -> String { String(format: "%.1f s", value) }

    public var duration: Double { Double(samples.count / max(channels, 1)) / Double(sampleRate) }

    /// Averages the channels, then resamples to `rate` with a windowed-sinc filter (band-limited,
    /// so a 44.1 kHz recording does not alias into the speech band).
    public func monoSamples(at rate: Int = 16_000) -> [Float] {
        var mono = [Float](repeating: 0, count: samples.count / max(channels, 1))
        if channels == 1 { mono = samples } else {
            for i in mono.indices {
                var sum: Float = 0
                for c in 0..<channels { sum += samples[i * channels + c] }
                mono[i] = sum / Float(channels)
            }
        }
        return Resampler.resample(mono, from: sampleRate, to: rate)
    }

    /// 16-bit PCM WAV bytes for mono samples (used by tests and `--keep-audio`).
    public static func encode(mono samples: [Float], sampleRate: Int) -> Data {
        var data = Data()
        func put32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { data.append(contentsOf: $0) } }
        func put16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); put32(36 + samples.count * 2)
        data.append(contentsOf: Array("WAVEfmt ".utf8)); put32(16)
        put16(1); put16(1); put32(sampleRate); put32(sampleRate * 2); put16(2); put16(16)
        data.append(contentsOf: Array("data".utf8)); put32(samples.count * 2)
        for s in samples {
            let v = Int16(max(-32768, min(32767, (s * 32768).rounded())))
            withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }
}

/// Sample-rate conversion with a Hann-windowed sinc; slow-but-exact is fine for clips.
public enum Resampler {
    public static func resample(_ input: [Float], from source: Int, to target: Int) -> [Float] {
        guard source != target, !input.isEmpty else { return input }
        let ratio = Double(target) / Double(source)
        let outCount = Int((Double(input.count) * ratio).rounded(.down))
        let cutoff = min(1.0, ratio)          // low-pass at the lower Nyquist
        let halfWidth = 16.0 / cutoff          // taps on each side, in input samples
        var output = [Float](repeating: 0, count: outCount)
        for i in 0..<outCount {
            let center = Double(i) / ratio
            let lo = max(0, Int((center - halfWidth).rounded(.up)))
            let hi = min(input.count - 1, Int((center + halfWidth).rounded(.down)))
            var acc = 0.0, norm = 0.0
            if lo <= hi {
                for j in lo...hi {
                    let x = Double(j) - center
                    let sinc = x == 0 ? 1 : sin(.pi * x * cutoff) / (.pi * x * cutoff)
                    let window = 0.5 + 0.5 * cos(.pi * x / halfWidth)
                    let w = sinc * window
                    acc += Double(input[j]) * w
                    norm += w
                }
            }
            output[i] = norm == 0 ? 0 : Float(acc / norm)
        }
        return output
    }
}
