/// How long a pause ends an answer, as `--silence` names it. Each preset is declared once, here:
/// its fixed silence and its adaptive wait; `Endpointing.Configuration.relaxed` and
/// `AdaptiveWait.relaxed` (and the others) are read from it.
public enum SilencePreset: String, Sendable, CaseIterable {
    case relaxed, `default`, aggressive

    /// The silence after speech that ends an answer when its words are not read (fixed-silence),
    /// and the wait once the transcript at a pause has been read (how finished the answer sounds).
    /// The waits are calibrated on the dev part of the turn-taking set (`dialogue-memo eval turns`)
    /// with the completion from whisper's confidence in its final mark (`TurnCompletion`): the
    /// thresholds shift with the preset, so relaxed waits out more doubtful endings and aggressive fewer.
    private var declared: (silence: Double, wait: AdaptiveWait) {
        switch self {
        // For people who pause to think.
        case .relaxed: (1.25, AdaptiveWait(shortest: 0.35, longest: 2.5, threshold: 0.75))
        case .default: (0.7, AdaptiveWait(shortest: 0.3, longest: 2.0, threshold: 0.7))
        // Quick turns.
        case .aggressive: (0.35, AdaptiveWait(shortest: 0.25, longest: 1.5, threshold: 0.65))
        }
    }

    /// Seconds of silence after speech that end the answer when the words are not read.
    public var fixedSilence: Double { declared.silence }

    public var endpointing: Endpointing.Configuration { Endpointing.Configuration(hangover: fixedSilence) }

    /// The wait once the transcript at a pause has been read.
    public var adaptiveWait: AdaptiveWait { declared.wait }
}
