/// Everything the microphone heard during one exchange, in memory only: answers are spans of
/// it, so no sample falls between two listens. Indices count from the first sample and stay
/// valid; past `longest` the oldest audio is forgotten: a listen reaches back at most to the
/// start of the watch before it (30 s), so two minutes (7.7 MB) leave room.
struct ExchangeRecording {
    static let longest: Double = 120
    let capacity: Int
    private var kept: [Float] = []
    /// Samples forgotten at the start.
    private var forgotten = 0

    init(sampleRate: Int, longest: Double = ExchangeRecording.longest) {
        capacity = Int(longest * Double(sampleRate))
    }

    /// The index the next sample will have.
    var end: Int { forgotten + kept.count }

    mutating func append(_ chunk: UnsafeBufferPointer<Float>) {
        kept.append(contentsOf: chunk)
        // Forgotten in blocks of a quarter, not chunk by chunk (each cut moves the whole array).
        if kept.count > capacity + capacity / 4 {
            let cut = kept.count - capacity
            kept.removeFirst(cut)
            forgotten += cut
        }
    }

    /// The audio from `index` (clamped to what is kept) to now.
    func samples(from index: Int) -> ArraySlice<Float> {
        kept[min(kept.count, max(0, index - forgotten))...]
    }
}
