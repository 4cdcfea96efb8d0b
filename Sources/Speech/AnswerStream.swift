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
    /// The watch between two listens (nil while a listen runs, or where nothing is watched).
    private(set) var afterword: Afterword?
    /// The question of the coming answer: where it started and ended in the recording.
    private var question: (start: Int, end: Int?)?

    init(sampleRate: Int) {
        self.sampleRate = sampleRate
        recording = ExchangeRecording(sampleRate: sampleRate)
    }

    func receive(_ chunk: UnsafeBufferPointer<Float>, at now: ContinuousClock.Instant) {
        recording.append(chunk)
        if let session { session.receive(chunk, at: now) } else { afterword?.receive(chunk) }
    }

    /// A question starts playing. Where its sound may be heard, nothing is listened for until
    /// the next listen (the person's voice could not be told from it); through an echo
    /// canceller the person needs longer voice (it leaves bursts of echo). Elsewhere, when no
    /// answer is being watched, the question itself is watched: the person may answer over it.
    func questionStarts(configuration: Endpointing.Configuration) {
        question = (recording.end, nil)
        if let afterword, afterword.heardSpeech { return }
        if ownVoice == .mayBeHeard {
            afterword?.close()
            return
        }
        watch(configuration)
        if ownVoice == .echoCancelled { afterword?.questionPlays() }
    }

    /// Watches for speech from now, unless an answer or a question is watched already.
    private func watch(_ configuration: Endpointing.Configuration) {
        guard session == nil, afterword == nil || afterword?.isClosed == true else { return }
        afterword = Afterword(answer: [], start: recording.end, configuration: configuration, sampleRate: sampleRate)
    }

    /// The question has played (or was stopped).
    func questionEnds() {
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
        afterword?.close()
        afterword = nil
        defer { question = nil }
        if continuing, let watched, watched.heardSpeech, !watched.answer.isEmpty {
            session.resume(answer: watched.answer, since: Array(recording.samples(from: watched.start)))
            return
        }
        if ownVoice == .mayBeHeard {
            flush { [weak session] in session?.arm() }
            return
        }
        var from = question?.end ?? recording.end
        if let watched, let onset {
            from = min(from, max(onset - Int(ListenSession.preroll * Double(sampleRate)), watched.start))
        }
        session.resume(answer: [], since: Array(recording.samples(from: from)))
    }

    /// The listen is over; after an answer that ended at its silence, the person may go on.
    func end(_ session: ListenSession, with result: Result<ListenResult, Error>) {
        guard self.session === session else { return }
        self.session = nil
        if case .success(let heard) = result, heard.ending == .endOfSpeech {
            afterword = Afterword(answer: heard.samples, start: recording.end - session.unusedInLastChunk,
                                  configuration: session.configuration, sampleRate: sampleRate)
        }
    }

    /// Waits for speech between two listens: `waiter` hears true once the person speaks, false
    /// where they cannot be told from the question (or the watch ends first).
    func waitForSpeech(_ waiter: CheckedContinuation<Bool, Never>, configuration: Endpointing.Configuration) {
        if ownVoice != .mayBeHeard { watch(configuration) }
        if let afterword { afterword.wait(waiter) } else { waiter.resume(returning: false) }
    }

    func cancelWaiters() { afterword?.cancelWaiters() }
}
