import CSpeexDSP

/// Takes the program's own question out of the microphone signal: the program knows every sample
/// it plays, so an adaptive filter (speexdsp's) learns the path from the speaker to the microphone
/// and subtracts its estimate, and speexdsp's residual-echo suppressor takes down what the filter
/// misses (a loudspeaker's distortion). A person talking over the question stays in the output.
/// Chosen over webrtc-audio-processing 0.3 by `scripts/bench/aec_bench.py`: webrtc removed more
/// echo but took the person down with it.
///
/// Feed it every frame of the microphone with the frame of the reference played just before it
/// reached the microphone (silence when nothing plays), so that the filter keeps what it learned
/// from one question to the next. The reference must lead its echo, never lag it (the filter
/// cannot look ahead), and by at most `filterDuration` less the room's reverb (about 0.1 s).
/// Not thread-safe: one caller at a time (the capture callback).
public final class EchoCanceller {
    /// Samples per frame, of the microphone and of the reference alike.
    public let frameSize: Int
    public let sampleRate: Int
    /// The output lags the microphone by this many samples: the residual suppressor works on
    /// overlapping windows and holds one frame.
    public var outputDelay: Int { suppressor == nil ? 0 : frameSize }

    /// Whether the filter has learned the echo path: over the last 0.5 s of frames in which
    /// something played and the microphone heard it, the output was at least 10 dB below the
    /// microphone. Until then (about the first 2 s of a question on a fresh canceller) the echo
    /// passes for a person: the bench's cold first question did, 3 to 5 times, with 0.35 s of
    /// voice required, and never once this was true. Stays true until `reset`. Stays false
    /// where the microphone never hears the playback (headphones), as there is nothing to learn.
    public private(set) var hasLearnedPath = false
    private var heardFrames: [(microphone: Float, output: Float)] = []
    static let learningFrames = 50
    /// 10 dB, as an energy ratio.
    static let learnedRatio: Float = 10

    private let canceller: OpaquePointer
    private let suppressor: OpaquePointer?
    private var microphone: [Int16]
    private var played: [Int16]
    private var output: [Int16]

    /// Frames of the wrong length: a bug in the caller's framing, never a property of the audio.
    public enum FrameError: Error, Equatable, CustomStringConvertible {
        case wrongSize(microphone: Int, played: Int, frameSize: Int)

        public var description: String {
            switch self {
            case .wrongSize(let microphone, let played, let frameSize):
                return "echo canceller: got \(microphone) microphone and \(played) played samples; both must be the same whole number of \(frameSize)-sample frames"
            }
        }
    }

    /// - Parameters:
    ///   - frameSize: 160 (10 ms at 16 kHz); speexdsp prefers 10–20 ms.
    ///   - filterDuration: the longest echo path it learns (the reference's misalignment plus the
    ///     room's reverb), seconds. 0.4 s: on the bench it learned an echo 250 ms late, which
    ///     0.25 s did not, and cancelled as much elsewhere, for about 1 % of a core.
    ///   - suppressResidual: speexdsp's residual-echo suppressor after the filter (5-10 dB more
    ///     cancellation on the bench). It needs speexdsp's noise suppressor on, which is set
    ///     to its mildest useful depth (-3 dB) so the person's speech keeps its level.
    public init(sampleRate: Int = 16_000, frameSize: Int = 160, filterDuration: Double = 0.4,
                suppressResidual: Bool = true) {
        precondition(frameSize > 0 && sampleRate > 0 && filterDuration > 0)
        self.frameSize = frameSize
        self.sampleRate = sampleRate
        let taps = Int32((filterDuration * Double(sampleRate)).rounded())
        canceller = speex_echo_state_init(Int32(frameSize), taps)
        var rate = Int32(sampleRate)
        speex_echo_ctl(canceller, SPEEX_ECHO_SET_SAMPLING_RATE, &rate)
        if suppressResidual {
            let state = speex_preprocess_state_init(Int32(frameSize), Int32(sampleRate))!
            speex_preprocess_ctl(state, SPEEX_PREPROCESS_SET_ECHO_STATE, UnsafeMutableRawPointer(canceller))
            var on: Int32 = 1
            speex_preprocess_ctl(state, SPEEX_PREPROCESS_SET_DENOISE, &on)
            var noiseDepth: Int32 = -3
            speex_preprocess_ctl(state, SPEEX_PREPROCESS_SET_NOISE_SUPPRESS, &noiseDepth)
            suppressor = state
        } else {
            suppressor = nil
        }
        microphone = Array(repeating: 0, count: frameSize)
        played = microphone
        output = microphone
    }

    deinit {
        if let suppressor { speex_preprocess_state_destroy(suppressor) }
        speex_echo_state_destroy(canceller)
    }

    /// The microphone without the echo of `played`, as many samples as given (a whole number of
    /// frames; `played` is the reference at `sampleRate`, aligned with the microphone frame for
    /// frame). Samples are floats in -1...1, clipped there.
    public func process(microphone: [Float], played: [Float]) throws(FrameError) -> [Float] {
        guard microphone.count == played.count, microphone.count % frameSize == 0, !microphone.isEmpty else {
            throw .wrongSize(microphone: microphone.count, played: played.count, frameSize: frameSize)
        }
        var result = [Float]()
        result.reserveCapacity(microphone.count)
        for start in stride(from: 0, to: microphone.count, by: frameSize) {
            for i in 0..<frameSize {
                self.microphone[i] = Self.int16(microphone[start + i])
                self.played[i] = Self.int16(played[start + i])
            }
            speex_echo_cancellation(canceller, self.microphone, self.played, &output)
            if let suppressor { speex_preprocess_run(suppressor, &output) }
            result.append(contentsOf: output.lazy.map { Float($0) / 32768 })
            if !hasLearnedPath { watchLearning(microphone: microphone[start..<start + frameSize], played: played[start..<start + frameSize]) }
        }
        return result
    }

    /// Watches the learning again from now, keeping the filter: a new question's echo may come
    /// a few milliseconds earlier or later than the last one's, which the filter must follow.
    public func watchLearningAgain() {
        hasLearnedPath = false
        heardFrames = []
    }

    /// Forgets the learned echo path (another output or input device).
    public func reset() {
        speex_echo_state_reset(canceller)
        hasLearnedPath = false
        heardFrames = []
    }

    /// Frames where the playback is on (above -50 dBFS) and the microphone hears something
    /// (above -55 dBFS) count; the output frame is the one just produced (one frame behind with
    /// the suppressor, which a 0.5 s window does not notice).
    private func watchLearning(microphone: ArraySlice<Float>, played: ArraySlice<Float>) {
        let heard = microphone.meanSquare
        guard played.meanSquare > 1e-5, heard > 3e-6 else { return }
        heardFrames.append((heard, output.lazy.map { Float($0) / 32768 }.meanSquare))
        if heardFrames.count > Self.learningFrames { heardFrames.removeFirst() }
        let totals = heardFrames.reduce((Float(0), Float(0))) { ($0.0 + $1.microphone, $0.1 + $1.output) }
        if heardFrames.count == Self.learningFrames,
           totals.0 >= totals.1 * Self.learnedRatio {
            hasLearnedPath = true
        }
    }

    static func int16(_ sample: Float) -> Int16 {
        Int16(min(max((sample * 32768).rounded(), -32768), 32767))
    }
}

extension Collection where Element == Float {
    /// The mean of the squared samples (the power; 0 for none): the cancellers' levels.
    var meanSquare: Float { isEmpty ? 0 : reduce(0) { $0 + $1 * $1 } / Float(count) }
}
