import DialogueCore
import Foundation
import Speech
import Synchronization

/// What the person sees and `--events` records while a listen runs: the state word (listening,
/// hearing you, thinking) with a level meter on the status line, and the listen's events.
/// One mapping for every command that listens (talk, demo, record). Called on the audio
/// thread: it only formats and writes.
public final class ListenFeedback: Sendable {
    let pack: LanguagePack
    let display: any SessionDisplay
    let events: EventLog
    private let meter = Mutex(LevelMeter())
    /// The silence that ends a recording: counted down on the status line once a pause has
    /// lasted a second (record; nil in a dialogue, whose waits are short).
    let countdown: Double?

    public init(pack: LanguagePack, display: any SessionDisplay, events: EventLog, countdown: Double? = nil) {
        self.pack = pack
        self.display = display
        self.events = events
        self.countdown = countdown
    }

    /// The listen has begun.
    public func started() {
        meter.withLock { $0 = LevelMeter() }
        events.emit(.listening)
        display.status(pack.ui(.listening), level: 0, partial: nil)
    }

    /// The answer so far as transcribed at a pause: shown live on the status line (the last
    /// words) until the next one replaces it, and a `partial` event. It costs no engine work:
    /// the pause transcribed it anyway.
    public func heard(_ text: String) {
        let words = UserText.terminalLine(text)
        let state = meter.withLock { meter in meter.partial = words; return meter.state }
        display.status(state ?? pack.ui(.hearingYou), level: nil, partial: words)
        events.emit(.partial(text: text))
    }

    /// One event of the listen, at `now`.
    public func show(_ event: ListenEvent, at now: ContinuousClock.Instant = .now) {
        switch event {
        case .state(.hearingSpeech):
            meter.withLock { $0.state = pack.ui(.hearingYou); $0.pausedAt = nil }
            events.emit(.hearing)
        case .state(.ended(let ending)):
            meter.withLock { $0.state = pack.ui(.thinking) }
            events.emit(.endpoint(ending: ending))
        case .state(.listening):
            break
        case .level(let dBFS):
            guard let (state, level, partial, paused) = meter.withLock({ meter in
                meter.throttled(dBFS, at: now).map { (meter.state, $0, meter.partial, meter.pausedAt) } }) else { return }
            let left = countdown.flatMap { silence in paused.flatMap { Self.secondsLeft(of: silence, pausedAt: $0, now: now) } }
            let shown = left.map { pack.ui(.recordingStopsIn, ["seconds": "\($0)"]) } ?? state ?? pack.ui(.listening)
            display.status(shown, level: level, partial: partial)
            events.emit(.level(dbfs: (dBFS * 10).rounded() / 10))
        case .pause(let clip):
            meter.withLock { $0.pausedAt = now }
            events.emit(.pause(seconds: Double(clip.count) / Double(Listener.sampleRate)))
        case .resumed:
            meter.withLock { $0.pausedAt = nil }
            events.emit(.resumed)
        case .speaking:
            break
        }
    }
}

extension ListenFeedback {
    /// Whole seconds left of `silence` (counted from the speech's end, a pause's length before
    /// `pausedAt`), once the pause has lasted a second: a short breath shows no countdown.
    static func secondsLeft(of silence: Double, pausedAt: ContinuousClock.Instant, now: ContinuousClock.Instant,
                            pauseLength: Double = 0.2) -> Int? {
        let silent = (now - pausedAt).seconds + pauseLength
        guard silent >= 1 else { return nil }
        return max(0, Int((silence - silent).rounded(.up)))
    }
}

/// Turns the listener's ~100 level events a second into a few screen updates, and remembers
/// the state word to show.
struct LevelMeter {
    /// At most one update per this interval.
    static let interval: Duration = .milliseconds(80)
    var state: String?
    /// The latest words heard, shown after the level.
    var partial: String?
    /// When the current pause began (nil while speaking or before any speech).
    var pausedAt: ContinuousClock.Instant?
    private var last: ContinuousClock.Instant?

    /// A level in 0…1 (−60 dBFS and below is 0) at most every `interval`, else nil.
    mutating func throttled(_ dBFS: Double, at now: ContinuousClock.Instant) -> Float? {
        if let last, now - last < Self.interval { return nil }
        last = now
        return Float(max(0, min(1, (dBFS + 60) / 60)))
    }
}
