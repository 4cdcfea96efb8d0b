import Foundation

/// What the microphone hears after an answer ended at its silence, until the next listen. A
/// person who only paused goes on talking while the next question is prepared or played; this
/// keeps every sample of that and tells, as soon as it is voice, that the answer is not over,
/// so the question can be stopped and the same answer heard on (`Listener.listen(continuing:)`).
/// Touched only with the mainloop lock held.
// @unchecked: guarded by the PulseAudio mainloop lock, like `ListenSession`.
final class Afterword: @unchecked Sendable {
    /// Kept at most this long: past it the exchange has surely moved on.
    static let longest: Double = 30
    /// Voice needed to count as the person going on: shorter than an answer's onset, so a
    /// question stops within about 150 ms of them speaking. A click or a knock is shorter; a key
    /// press ends the exchange anyway.
    static let minimumSpeech: Double = 0.1
    /// Voice needed while a question plays into an echo canceller. webrtc leaves bursts of the
    /// question's echo at its onset and its loudest vowels, as loud as a voice: in 53 plays
    /// through a 0 dB echo path (`OwnVoiceTests`' server, some under load), the longest burst
    /// (gaps under 0.1 s joined) was 0.15 s or more in 5 and 0.33 s once. The person going on
    /// speaks longer; the price is a stop that much later.
    static let minimumSpeechOverQuestion: Double = 0.35

    /// The answer that ended: its audio, up to its endpoint.
    let answer: [Float]
    /// Everything captured since the endpoint (it follows `answer` without a gap).
    private(set) var samples: [Float] = []
    private(set) var heardSpeech = false
    private(set) var isClosed = false
    private var endpointing: Endpointing
    private var waiters: [CheckedContinuation<Bool, Never>] = []

    init(answer: [Float], configuration: Endpointing.Configuration, sampleRate: Int) {
        self.answer = answer
        var watching = configuration
        watching.adaptive = nil
        watching.minimumSpeech = Self.minimumSpeech
        watching.noAnswerTimeout = Self.longest
        endpointing = Endpointing(configuration: watching, sampleRate: sampleRate)
    }

    func receive(_ chunk: UnsafeBufferPointer<Float>) {
        guard !isClosed else { return }
        samples.append(contentsOf: chunk)
        if !heardSpeech {
            endpointing.process(chunk)
            if endpointing.state == .hearingSpeech {
                heardSpeech = true
                resumeWaiters(true)
            }
        }
        if Double(samples.count) >= Self.longest * Double(endpointing.sampleRate) { close() }
    }

    /// A question plays on an echo-cancelled microphone: its leftover echo must not pass for
    /// the person (`minimumSpeechOverQuestion`).
    func questionPlays() {
        endpointing.requireVoice(Self.minimumSpeechOverQuestion)
    }

    /// Resumes `waiter` with true once the person speaks (at once if they already did), with
    /// false when the afterword closes first.
    func wait(_ waiter: CheckedContinuation<Bool, Never>) {
        if heardSpeech { waiter.resume(returning: true) } else if isClosed { waiter.resume(returning: false) } else {
            waiters.append(waiter)
        }
    }

    /// Stops keeping audio; whoever waits hears "not resumed" (unless speech came already).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        resumeWaiters(heardSpeech)
    }

    /// Gives up the waiters (a waiting task was cancelled): they hear whether speech came.
    func cancelWaiters() { resumeWaiters(heardSpeech) }

    private func resumeWaiters(_ value: Bool) {
        let waiting = waiters
        waiters = []
        for waiter in waiting { waiter.resume(returning: value) }
    }
}
