extension Endpointing {
    /// When an answer starts and ends. Times in seconds, levels in dB.
    public struct Configuration: Sendable, Equatable {
        /// Silence after speech that ends the answer.
        public var hangover: Double
        /// Voice needed before it counts as speech (0.2–0.3 s): clicks and knocks are shorter.
        public var minimumSpeech: Double
        /// The longest answer; it ends there even if the person keeps talking.
        public var maximumAnswer: Double
        /// With no speech this long from the start, the result is "no answer".
        public var noAnswerTimeout: Double
        /// How far above the noise floor a frame must be to count as voice.
        public var speechMargin: Double
        /// Below this level (dBFS) nothing counts as voice, however quiet the room: a faint hum
        /// over digital silence is not speech.
        public var minimumSpeechLevel: Double
        /// With a reader of the transcript at each pause (`Endpointing.decidePause`), the
        /// hangover follows how finished the answer sounds instead of staying `hangover`.
        public var adaptive: AdaptiveWait?

        public init(hangover: Double, minimumSpeech: Double = 0.25, maximumAnswer: Double = 60,
                    noAnswerTimeout: Double = 8, speechMargin: Double = 10,
                    minimumSpeechLevel: Double = -48, adaptive: AdaptiveWait? = nil) {
            self.hangover = hangover
            self.adaptive = adaptive
            self.minimumSpeech = minimumSpeech
            self.maximumAnswer = maximumAnswer
            self.noAnswerTimeout = noAnswerTimeout
            self.speechMargin = speechMargin
            self.minimumSpeechLevel = minimumSpeechLevel
        }

        /// Silence after speech that makes a pause: speculative work starts there, and an
        /// answer's audio is transcribed up to there (the rest of the hangover is silence).
        public var pause: Double { min(0.2, hangover / 2) }

        /// The presets' fixed silence (`SilencePreset` declares them).
        public static let relaxed = SilencePreset.relaxed.endpointing
        public static let `default` = SilencePreset.default.endpointing
        public static let aggressive = SilencePreset.aggressive.endpointing
    }
}

/// The silence that ends an answer once its transcript at a pause has been read: short when the
/// answer sounds finished, long when it does not. Until the reading is in, the preset's own
/// silence holds (or `undecided`), so a slow transcription is never slower than a fixed wait; a
/// cut-off it causes is caught when the person goes on (`Listener.speechResumed`).
public struct AdaptiveWait: Sendable, Equatable {
    /// The wait after an answer that sounds finished.
    public var shortest: Double
    /// The wait after one that does not.
    public var longest: Double
    /// The completion probability (`TurnCompletion`) from which an answer counts as finished.
    public var threshold: Double
    /// The wait while the transcript is not read yet; nil: the preset's fixed silence.
    public var undecided: Double?

    public init(shortest: Double, longest: Double, threshold: Double = 0.5, undecided: Double? = nil) {
        self.shortest = shortest
        self.longest = longest
        self.threshold = threshold
        self.undecided = undecided
    }

    /// The hangover for an answer whose transcript reads as finished with probability `completion`.
    public func hangover(completion: Double) -> Double {
        completion >= threshold ? shortest : longest
    }

    /// The presets' waits (`SilencePreset` declares and calibrates them).
    public static let relaxed = SilencePreset.relaxed.adaptiveWait
    public static let `default` = SilencePreset.default.adaptiveWait
    public static let aggressive = SilencePreset.aggressive.adaptiveWait

    /// This wait with its threshold shifted for a language: whisper is surer of its final mark in
    /// some languages than in others (each language file's `turnThresholdShift`). Rounded to
    /// hundredths, so 0.7 + 0.1 is 0.8.
    public func shifted(by shift: Double) -> AdaptiveWait {
        var wait = self
        wait.threshold = ((threshold + shift) * 100).rounded() / 100
        return wait
    }
}
