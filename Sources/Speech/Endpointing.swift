import Foundation

/// Decides, frame by frame, when an answer starts and when it has ended. Pure: it is fed audio
/// and knows nothing of devices or clocks, so it is tested on synthetic frames and the
/// `Listener` only adds PulseAudio around it.
///
/// Audio is cut into 10 ms frames and each frame's level compared with an adaptive noise floor
/// (`NoiseFloor`). Speech starts once voice has lasted `minimumSpeech` (gaps under 0.1 s
/// allowed, so syllables join up, while a click cannot reach it) and is dated back to its first
/// voiced frame. It ends after `hangover` of silence, at `maximumAnswer`, or, with no speech by
/// `noAnswerTimeout`, as "no answer". Continuing speech uses a threshold 3 dB lower than the
/// onset (hysteresis) so trailing consonants do not end an answer early.
public struct Endpointing: Sendable {
    public static let frameDuration = 0.01
    static let hysteresis = 3.0
    static let onsetGap = 0.1
    static let floorWindow = 4.0
    static let silenceLevel = -100.0

    public private(set) var configuration: Configuration
    public let sampleRate: Int
    public private(set) var state: ListenState = .listening
    /// The latest frame's level in dBFS.
    public private(set) var level: Double = silenceLevel
    /// Frames processed so far.
    public private(set) var frameCount = 0

    let frameLength: Int
    private var floor: NoiseFloor
    private var sumOfSquares: Float = 0
    private var pendingSamples = 0
    private var candidateStart: Int?
    private var candidateVoiced = 0
    private var candidateGap = 0
    private var speechStartFrame: Int?
    private var lastVoicedFrame: Int?
    private var endFrame: Int?
    /// The hangover decided for the current pause from its transcript (adaptive only).
    private var pauseHangover: Double?

    public init(configuration: Configuration = .default, sampleRate: Int = 16_000) {
        self.configuration = configuration
        self.sampleRate = sampleRate
        frameLength = max(1, Int((Double(sampleRate) * Self.frameDuration).rounded()))
        floor = NoiseFloor(window: Self.frames(Self.floorWindow))
    }

    private static func frames(_ seconds: Double) -> Int { Int((seconds / frameDuration).rounded()) }
    private static func seconds(_ frames: Int) -> Double { Double(frames) * frameDuration }

    /// The noise floor in dBFS (nil before the first frame).
    public var noiseFloor: Double? { floor.level }
    /// The level a frame must reach to count as the start of voice, in dBFS.
    public var speechThreshold: Double {
        max((floor.level ?? Self.silenceLevel) + configuration.speechMargin, configuration.minimumSpeechLevel)
    }
    /// Seconds of audio processed.
    public var elapsed: Double { Self.seconds(frameCount) }
    /// Where speech started, in seconds from the first sample.
    public var speechStart: Double? { speechStartFrame.map(Self.seconds) }
    /// Where voice began, in samples from the first: the speech's start once heard, before that
    /// the first frame of voice still short of `minimumSpeech` (nil when there is none).
    public var voiceOnsetSample: Int? { (speechStartFrame ?? candidateStart).map { $0 * frameLength } }
    /// The end of the last voiced frame, in seconds.
    public var speechEnd: Double? { lastVoicedFrame.map { Self.seconds($0 + 1) } }
    /// Where the answer was declared over, in seconds (the audio kept ends here).
    public var endpoint: Double? { endFrame.map(Self.seconds) }
    /// The endpoint as a sample count.
    public var endpointSample: Int? { endFrame.map { $0 * frameLength } }
    public var hasEnded: Bool { if case .ended = state { true } else { false } }
    /// While speech is being heard: seconds of silence since the last voiced frame.
    public var trailingSilence: Double? {
        guard state == .hearingSpeech, let last = lastVoicedFrame else { return nil }
        return Self.seconds(frameCount - last - 1)
    }

    /// Feeds samples in [-1, 1]; a partial frame waits for the next call. Returns how many
    /// samples were used: all of them, unless the answer ended inside this stretch (the rest
    /// belongs after the answer).
    @discardableResult
    public mutating func process<S: Sequence>(_ samples: S) -> Int where S.Element == Float {
        var used = 0
        for sample in samples {
            if hasEnded { break }
            used += 1
            sumOfSquares += sample * sample
            pendingSamples += 1
            if pendingSamples == frameLength {
                let rms = (sumOfSquares / Float(frameLength)).squareRoot()
                sumOfSquares = 0
                pendingSamples = 0
                processFrame(level: rms > 0 ? max(Self.silenceLevel, 20 * Double(log10(rms))) : Self.silenceLevel)
            }
        }
        return used
    }

    /// The silence that ends the answer now: the fixed `hangover`, or with `adaptive` the one
    /// decided for this pause, and until then `adaptive.undecided` (the fixed one by default).
    public var hangover: Double {
        guard let adaptive = configuration.adaptive else { return configuration.hangover }
        return pauseHangover ?? adaptive.undecided ?? configuration.hangover
    }

    /// The transcript at the current pause has been read: the answer ends after `hangover` of
    /// silence (at once if the silence is already that long). Ignored unless speech is being
    /// heard or without `adaptive`; forgotten when speech resumes.
    public mutating func decidePause(hangover: Double) {
        guard configuration.adaptive != nil, state == .hearingSpeech, let silence = trailingSilence else { return }
        pauseHangover = hangover
        if silence >= hangover { end(.endOfSpeech) }
    }

    /// Judges the first frames against `level`, the room as heard before this listen, instead of
    /// the first frame's own level: a person already speaking when it begins would otherwise be
    /// the floor their voice is measured against. Only before the first frame.
    public mutating func assumeFloor(_ level: Double?) {
        if let level { floor.seed(level) }
    }

    /// From the next frame on, speech needs `seconds` of voice to start (not to go on).
    public mutating func requireVoice(_ seconds: Double) { configuration.minimumSpeech = seconds }

    /// Ends the answer from outside (stop, cancel) at the audio processed so far.
    public mutating func end(_ ending: AnswerEnding) {
        guard !hasEnded else { return }
        endFrame = frameCount
        state = .ended(ending)
    }

    private mutating func processFrame(level: Double) {
        let index = frameCount
        frameCount += 1
        self.level = level
        floor.seed(level)
        let onset = speechThreshold
        switch state {
        case .listening:
            if level >= onset {
                if candidateStart == nil { candidateStart = index; candidateVoiced = 0 }
                candidateVoiced += 1
                candidateGap = 0
            } else if candidateStart != nil {
                candidateGap += 1
                if candidateGap > Self.frames(Self.onsetGap) { candidateStart = nil }
            }
            if let start = candidateStart, candidateVoiced >= Self.frames(configuration.minimumSpeech) {
                speechStartFrame = start
                lastVoicedFrame = index
                state = .hearingSpeech
            } else if candidateStart == nil, elapsed >= configuration.noAnswerTimeout {
                end(.noAnswer)
            }
        case .hearingSpeech:
            if level >= onset - Self.hysteresis {
                lastVoicedFrame = index
                pauseHangover = nil
            } else if let last = lastVoicedFrame, index - last >= Self.frames(hangover) {
                end(.endOfSpeech)
            }
            if !hasEnded, let start = speechStartFrame,
               frameCount - start >= Self.frames(configuration.maximumAnswer) {
                end(.maximumLength)
            }
        case .ended:
            break
        }
        floor.update(level, speechThreshold: onset, mayRise: state == .listening)
    }
}
