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

        public init(hangover: Double, minimumSpeech: Double = 0.25, maximumAnswer: Double = 60,
                    noAnswerTimeout: Double = 8, speechMargin: Double = 10,
                    minimumSpeechLevel: Double = -48) {
            self.hangover = hangover
            self.minimumSpeech = minimumSpeech
            self.maximumAnswer = maximumAnswer
            self.noAnswerTimeout = noAnswerTimeout
            self.speechMargin = speechMargin
            self.minimumSpeechLevel = minimumSpeechLevel
        }

        /// Silence after speech that makes a pause: speculative work starts there, and an
        /// answer's audio is transcribed up to there (the rest of the hangover is silence).
        public var pause: Double { min(0.2, hangover / 2) }

        /// For people who pause to think: 1.25 s of silence ends the answer.
        public static let relaxed = Configuration(hangover: 1.25)
        /// 0.7 s of silence ends the answer.
        public static let `default` = Configuration(hangover: 0.7)
        /// Quick turns: 0.35 s of silence ends the answer.
        public static let aggressive = Configuration(hangover: 0.35)

        /// A preset by name ("relaxed", "default", "aggressive"), for command-line options.
        public static func preset(named name: String) -> Configuration? {
            switch name.lowercased() {
            case "relaxed": return .relaxed
            case "default", "normal": return .default
            case "aggressive", "fast": return .aggressive
            default: return nil
            }
        }
    }
}
