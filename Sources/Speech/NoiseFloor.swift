/// The level of the background noise, tracked so speech is judged against the room rather than
/// against a fixed number: a quiet study and a noisy café need different thresholds.
///
/// It falls fast (a quiet stretch is good evidence of the floor), rises slowly while nobody is
/// speaking (the room got noisier), and jumps up when nothing in the last few seconds was
/// quieter than the speech threshold: a fan that starts is not an endless answer.
struct NoiseFloor: Sendable {
    /// Fraction of the distance covered per frame when the level is below the floor.
    static let fall = 0.2
    /// Fraction per frame when the level is above the floor but not speech (~1 s at 10 ms).
    static let rise = 0.01

    private(set) var level: Double?
    private var recent: [Double]
    private var next = 0
    private var filled = false

    /// `window` frames of history are kept for the jump rule.
    init(window: Int) {
        recent = Array(repeating: 0, count: max(1, window))
    }

    /// Starts the floor at the first frame's level (the room as the microphone opens).
    mutating func seed(_ frame: Double) {
        if level == nil { level = frame }
    }

    /// Takes one frame's level. `mayRise` is false while someone speaks: pauses between words
    /// must not lift the floor into the speech.
    mutating func update(_ frame: Double, speechThreshold: Double, mayRise: Bool) {
        recent[next] = frame
        next = (next + 1) % recent.count
        if next == 0 { filled = true }
        guard let floor = level else { level = frame; return }
        if frame < floor {
            level = floor + (frame - floor) * Self.fall
        } else if mayRise, frame < speechThreshold {
            level = floor + (frame - floor) * Self.rise
        }
        if filled, let quietest = recent.min(), quietest > speechThreshold {
            level = quietest
        }
    }
}
