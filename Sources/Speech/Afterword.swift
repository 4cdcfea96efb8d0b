import Foundation

/// Watches the exchange's recording between two listens: after an answer that ended at its
/// silence (the person may only have paused) and while a question plays. It tells as soon as
/// it is voice, so the question can be stopped, and where that voice began, so the next listen
/// starts there. The audio itself stays in the recording (`ExchangeRecording`).
/// Touched only with the mainloop lock held.
// @unchecked: guarded by the PulseAudio mainloop lock, like `ListenSession`.
final class Afterword: @unchecked Sendable {
    /// Watched at most this long: past it the exchange has surely moved on.
    static let longest: Double = 30
    /// Voice needed to count as the person speaking: shorter than an answer's onset, so a
    /// question stops within about 150 ms of them speaking. A click or a knock is shorter; a key
    /// press ends the exchange anyway.
    static let minimumSpeech: Double = 0.1
    /// Voice needed while a question plays into an echo canceller. webrtc leaves bursts of the
    /// question's echo at its onset and its loudest vowels, as loud as a voice: in 53 plays
    /// through a 0 dB echo path (`OwnVoiceTests`' server, some under load), the longest burst
    /// (gaps under 0.1 s joined) was 0.15 s or more in 5 and 0.33 s once. The person going on
    /// speaks longer; the price is a stop that much later.
    static let minimumSpeechOverQuestion: Double = 0.35

    /// The answer that ended at its silence: its audio, up to its endpoint (empty when the
    /// watch is only over a question).
    let answer: [Float]
    /// Where the watch began in the recording (the answer's endpoint, or the question's start).
    let start: Int
    private(set) var heardSpeech = false
    private(set) var isClosed = false
    private var endpointing: Endpointing
    private var waiters: [CheckedContinuation<Bool, Never>] = []

    init(answer: [Float], start: Int, configuration: Endpointing.Configuration, sampleRate: Int) {
        self.answer = answer
        self.start = start
        var watching = configuration
        watching.adaptive = nil
        watching.minimumSpeech = Self.minimumSpeech
        watching.noAnswerTimeout = Self.longest
        endpointing = Endpointing(configuration: watching, sampleRate: sampleRate)
    }

    /// The room's level as the watch judged it (nil before its first frame).
    var noiseFloor: Double? { endpointing.noiseFloor }
    /// See `Endpointing.assumeFloor`.
    func assumeFloor(_ level: Double?) { endpointing.assumeFloor(level) }

    /// Where voice began in the recording, heard or still too short to count (nil: none).
    var voiceOnset: Int? {
        guard !isClosed || heardSpeech else { return nil }
        return endpointing.voiceOnsetSample.map { start + $0 }
    }

    func receive(_ chunk: UnsafeBufferPointer<Float>) {
        guard !isClosed, !heardSpeech else { return }
        endpointing.process(chunk)
        if endpointing.state == .hearingSpeech {
            heardSpeech = true
            resumeWaiters(true)
        } else if endpointing.elapsed >= Self.longest {
            close()
        }
    }

    /// A question plays on an echo-cancelled microphone: its leftover echo must not pass for
    /// the person (`minimumSpeechOverQuestion`).
    func questionPlays() {
        endpointing.requireVoice(Self.minimumSpeechOverQuestion)
    }

    /// Resumes `waiter` with true once the person speaks (at once if they already did), with
    /// false when the watch closes first.
    func wait(_ waiter: CheckedContinuation<Bool, Never>) {
        if heardSpeech { waiter.resume(returning: true) } else if isClosed { waiter.resume(returning: false) } else {
            waiters.append(waiter)
        }
    }

    /// Stops watching; whoever waits hears "not resumed" (unless speech came already).
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
