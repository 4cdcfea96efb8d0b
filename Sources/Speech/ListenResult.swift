/// Where things happened during one listen, for latency work. Audio offsets are seconds from
/// the first sample captured after `listen()` began; wall times are seconds from the call.
public struct ListenTiming: Sendable, Equatable {
    /// Wall: from `listen()` to the first audio delivered after it.
    public var firstFrameDelay: Double?
    /// Audio: the first voiced frame of the answer.
    public var speechStart: Double?
    /// Audio: the end of the last voiced frame.
    public var speechEnd: Double?
    /// Audio: where the answer was declared over (speech end plus the hangover, normally).
    public var endpoint: Double
    /// Wall: from `listen()` to the moment the end was declared.
    public var declaredAfter: Double
    /// How long audio takes from the microphone to us (source latency plus server buffer), as
    /// the server reported it when the listen ended.
    public var captureLatency: Double?
    /// Wall: from the moment the audio at `endpoint` entered the microphone to the declaration
    /// (capture latency plus the rest of the chunk it came in). The end of an answer is known
    /// `endpoint - speechEnd + endpointLag` after the person stopped speaking.
    public var endpointLag: Double?
}

/// An answer as captured: 16 kHz mono float samples plus how and when it ended.
public struct ListenResult: Sendable, Equatable {
    public var ending: AnswerEnding
    /// The answer's audio: from a short moment before the speech started up to the endpoint.
    /// Empty for `.noAnswer`. For a stop or cancel before any speech, everything captured.
    public var samples: [Float]
    public var sampleRate: Int
    /// Audio offset of `samples[0]` in seconds.
    public var clipStart: Double
    public var timing: ListenTiming

    /// Whether speech was heard: only then is there anything to transcribe.
    public var heardSpeech: Bool { timing.speechStart != nil }
    public var duration: Double { Double(samples.count) / Double(sampleRate) }

    /// The audio up to `margin` seconds after the last speech: what is transcribed, so that an
    /// answer transcribed at its final pause and one transcribed after the endpoint read the
    /// same audio (the hangover's silence only changes whisper's window and invites invented
    /// words). All of it when no speech end is known.
    public func speech(margin: Double) -> [Float] {
        Self.speech(samples, clipStart: clipStart, speechEnd: timing.speechEnd, margin: margin, sampleRate: sampleRate)
    }

    /// `clip` (audio from `clipStart` seconds on) up to `margin` after `speechEnd`: one rule for
    /// every cut, so that a clip cut at a pause and the answer cut afterwards end on the same
    /// sample.
    static func speech(_ clip: some Collection<Float>, clipStart: Double, speechEnd: Double?, margin: Double,
                       sampleRate: Int) -> [Float] {
        guard let end = speechEnd else { return Array(clip) }
        return Array(clip.prefix(max(0, Int(((end + margin - clipStart) * Double(sampleRate)).rounded()))))
    }
}
