import Foundation

/// What the person says over a question.
public enum SpeechOverQuestion: Sendable, Equatable {
    /// They go on with the answer before it: it had ended at a pause they only took.
    case goesOn
    /// They answer this question already.
    case answers
}

/// One exchange's audio as one stream: every chunk goes into the recording, and each listen
/// and each watch between listens is a view over it. An answer is a span of the recording,
/// from the end of its question (or from where the person started over it), so nothing said
/// between two listens is lost. Pure: it knows no device, so tests drive it with chunks;
/// `Listener` adds PulseAudio around it. Touched only with the mainloop lock held.
// @unchecked: guarded by the PulseAudio mainloop lock (the capture callback feeds it).
final class AnswerStream: @unchecked Sendable {
    /// Speech that starts over a question within this of its start continues the answer before
    /// it (when that one ended at its silence): the person was still on their thought. Later,
    /// they heard enough of the question to be answering it.
    static let stillGoingOn: Double = 1.5

    let sampleRate: Int
    private(set) var recording: ExchangeRecording
    var ownVoice = Listener.OwnVoice.mayBeHeard
    private(set) var session: ListenSession?
    /// Where the session's own audio starts in the recording.
    private var sessionStart = 0
    /// The watch between two listens (nil while a listen runs, or where nothing is watched).
    private(set) var afterword: Afterword?
    /// The question of the coming answer: where it started and ended in the recording.
    private var question: (start: Int, end: Int?)?
    /// Where the microphone may hear the loudspeaker: the questions taken out of it in process
    /// (from the first question given with its samples).
    private(set) var canceller: OwnVoiceCanceller?

    init(sampleRate: Int) {
        self.sampleRate = sampleRate
        recording = ExchangeRecording(sampleRate: sampleRate)
    }

    func receive(_ chunk: UnsafeBufferPointer<Float>, at now: ContinuousClock.Instant) {
        guard let canceller else { return route(chunk, at: now) }
        canceller.process(chunk).withUnsafeBufferPointer { route($0, at: now) }
    }

    private func route(_ chunk: UnsafeBufferPointer<Float>, at now: ContinuousClock.Instant) {
        guard !chunk.isEmpty else { return }
        recording.append(chunk)
        if let session { session.receive(chunk, at: now) } else if !echoUncancelled { afterword?.receive(chunk) }
    }

    /// Whether the question's sound may be on the microphone as it is: nothing is watched then
    /// (the person could not be told from it). While a question's echo may come, unless this
    /// program's own canceller cancels it (it learns each question's echo for about a second).
    private var echoUncancelled: Bool {
        ownVoice == .mayBeHeard && echoMayBeHeard && canceller?.cancelsEcho != true
    }

    /// From a question's start to `echoTail` after its end (its last sound on its way through
    /// the output, the room and the capture).
    private var echoMayBeHeard: Bool {
        guard let question else { return false }
        return question.end.map { recording.end < $0 + Int(Self.echoTail * Double(sampleRate)) } ?? true
    }
    static let echoTail = 0.3

    /// A question starts playing. When no answer is being watched, the question itself is: the
    /// person may answer over it. Where its sound may reach the microphone, `playing` (its
    /// samples at the microphone's rate) has the echo taken out in process (`OwnVoiceCanceller`),
    /// and the watch waits until that cancels it; without them nothing is watched until the
    /// next listen (the person's voice could not be told from the question). Through any echo
    /// canceller the person needs longer voice (cancellers leave bursts of echo).
    func questionStarts(configuration: Endpointing.Configuration, playing: [Float]? = nil) {
        if let playing, ownVoice == .mayBeHeard {
            if canceller == nil { canceller = OwnVoiceCanceller(sampleRate: sampleRate) }
            canceller?.play(playing)
        }
        question = (recording.end, nil)
        roomFloor = roomFloor ?? floorOfTheLastSecond()
        if let afterword, afterword.heardSpeech { return }
        if ownVoice == .mayBeHeard, canceller == nil {
            afterword?.close()
            return
        }
        watch(configuration)
        if ownVoice != .unheard { afterword?.questionPlays() }
    }

    /// Watches for speech from now, unless an answer or a question is watched already.
    private func watch(_ configuration: Endpointing.Configuration) {
        guard session == nil, afterword == nil || afterword?.isClosed == true else { return }
        roomFloor = lowest(roomFloor, afterword?.noiseFloor)
        afterword = Afterword(answer: [], start: recording.end, configuration: configuration, sampleRate: sampleRate)
        // Over a question whose echo this program cancels, what is left of the echo is part of
        // the room: judged against the quiet room before it, that rest would pass for a person.
        if !cancelsTheQuestionsEcho { afterword?.assumeFloor(roomFloor) }
    }

    private var cancelsTheQuestionsEcho: Bool { ownVoice == .mayBeHeard && canceller != nil && echoMayBeHeard }

    /// The room's level as last heard between answers (the lower of what a listen and a watch
    /// judged: the floor falls fast on quiet and rises slowly): a listen or watch that begins
    /// while the person already speaks judges them against it.
    private var roomFloor: Double?

    private func lowest(_ a: Double?, _ b: Double?) -> Double? { [a, b].compactMap { $0 }.min() }

    /// The room before the first question, from the last second the microphone heard (it opens
    /// before that question plays): the first listen may begin with the person already speaking.
    private func floorOfTheLastSecond() -> Double? {
        let recent = recording.samples(from: recording.end - sampleRate)
        guard !recent.isEmpty else { return nil }
        var judge = Endpointing(sampleRate: sampleRate)
        judge.process(recent)
        return judge.noiseFloor
    }

    /// The question has played, or was `stopped` before its end.
    func questionEnds(stopped: Bool = false) {
        if stopped { canceller?.stop() }
        if let start = question?.start { question = (start, recording.end) }
    }

    /// Whether the person spoke since the last answer: nil while nothing was heard.
    var speechOverQuestion: SpeechOverQuestion? {
        guard let afterword, afterword.heardSpeech else { return nil }
        guard !afterword.answer.isEmpty else { return .answers }
        guard let question, let onset = afterword.voiceOnset else { return .goesOn }
        return onset < question.start + Int(Self.stillGoingOn * Double(sampleRate)) ? .goesOn : .answers
    }

    /// Starts `session`. With `continuing` and an answer that goes on, it holds that answer and
    /// all heard since. Otherwise it starts where the person started over the question, or at
    /// the question's end, or now; `flush` (the server's buffer dropped first) only where the
    /// question's sound may be in it.
    func begin(_ session: ListenSession, continuing: Bool, flush: (@escaping () -> Void) -> Void) {
        self.session = session
        let watched = afterword, onset = afterword?.voiceOnset
        session.assumeFloor(lowest(roomFloor, watched?.noiseFloor))
        afterword?.close()
        afterword = nil
        defer { question = nil }
        if continuing, let watched, watched.heardSpeech, !watched.answer.isEmpty {
            sessionStart = watched.start
            session.resume(answer: watched.answer, since: Array(recording.samples(from: watched.start)))
            return
        }
        if echoUncancelled {
            flush { [weak self, weak session] in
                guard let self, let session, !session.isFinished else { return }
                self.sessionStart = self.recording.end
                session.arm()
            }
            return
        }
        var from = question?.end ?? recording.end
        if let watched, let onset {
            from = min(from, max(onset - Int(ListenSession.preroll * Double(sampleRate)), watched.start))
        }
        sessionStart = from
        session.resume(answer: [], since: Array(recording.samples(from: from)))
    }

    /// The listen is over; after an answer that ended at its silence, the person may go on.
    func end(_ session: ListenSession, with result: Result<ListenResult, Error>) {
        guard self.session === session else { return }
        self.session = nil
        roomFloor = session.noiseFloor ?? roomFloor
        // The watch starts at the endpoint, which may lie inside the audio the session was
        // started with (a pause in what was said before the listen): what follows it is not lost.
        if case .success(let heard) = result, heard.ending == .endOfSpeech {
            afterword = Afterword(answer: heard.samples, start: sessionStart + session.heardCount,
                                  configuration: session.configuration, sampleRate: sampleRate)
            afterword?.assumeFloor(roomFloor)
            Array(recording.samples(from: sessionStart + session.heardCount)).withUnsafeBufferPointer { afterword?.receive($0) }
        }
    }

    /// Waits for speech between two listens: `waiter` hears true once the person speaks, false
    /// where they cannot be told from the question (or the watch ends first).
    func waitForSpeech(_ waiter: CheckedContinuation<Bool, Never>, configuration: Endpointing.Configuration) {
        if ownVoice != .mayBeHeard || canceller != nil { watch(configuration) }
        if let afterword { afterword.wait(waiter) } else { waiter.resume(returning: false) }
    }

    func cancelWaiters() { afterword?.cancelWaiters() }
}
