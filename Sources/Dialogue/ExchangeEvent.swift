import DialogueCore

/// What the exchange reports as it goes, for the screen and for `--events` (JSON lines).
public enum ExchangeEvent: Sendable, Hashable {
    case asking(TurnQuestion, number: Int)
    case answered(String)
    /// The person went on with their last answer: the question was stopped, the answer is heard on.
    case wentOn
    /// The person answered the question while it played: it was stopped, their answer is heard.
    case talkedOver
    /// The person went on after an ending that no rule forced: it is dropped, the answer heard on.
    case tookBack
    case noAnswer
    /// Sound without words: the same question is asked once more.
    case unclear
    case decided(Decision)
    case finished(EndReason)
    case laidOut(LayoutSource)
    /// The exchange is over and the note waits for answers' final transcripts: `done` of `total`.
    case finishingTranscript(done: Int, total: Int)
    /// The answer of `turn` (0 is the opening's) in the note: its final transcript.
    case finalAnswer(turn: Int, text: String)
    case failed(String)
    /// The person refused to be recorded; their refused words are not in the event.
    case refused(RefusalScope)
}

/// Why the exchange stopped asking.
public enum EndReason: String, Sendable, Hashable, Codable {
    /// The rules or the model chose `ready`/`stop` (an ending phrase, the limits, no angle left).
    case finished
    /// A key, Ctrl-C or a signal.
    case interrupted
    /// No answer was heard.
    case noAnswer
    /// Audio or transcription failed; the words so far are kept.
    case failed
    /// The person refused to be recorded: the refused words are dropped, the journal deleted.
    case refused

    /// Whether the exchange ended as the person meant it to: on a final choice, or by their
    /// falling silent (how a person who has said everything usually stops). Only a key, Ctrl-C or
    /// a failure means "give me my words now": one sentence per bullet, no model asked.
    public var isNormal: Bool { self == .finished || self == .noAnswer }
}
