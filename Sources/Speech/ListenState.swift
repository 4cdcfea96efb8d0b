/// How an answer ended. Only answers with speech are worth transcribing: `.noAnswer` never is,
/// so silence cannot turn into invented words.
public enum AnswerEnding: String, Sendable, Equatable {
    /// Speech, then silence for the hangover: the person finished.
    case endOfSpeech
    /// Speech went on until the maximum answer length.
    case maximumLength
    /// No speech within the no-answer timeout.
    case noAnswer
    /// `Listener.stop()` ended it (for example a key press meaning "done").
    case stopped
    /// The listening task was cancelled (Ctrl-C, quitting, typing instead).
    case cancelled
}

/// The partial state of a listen, for the screen.
public enum ListenState: Sendable, Equatable {
    case listening
    case hearingSpeech
    case ended(AnswerEnding)
}

/// What a listen reports while it runs (on the audio thread: handlers must return quickly).
public enum ListenEvent: Sendable, Equatable {
    case state(ListenState)
    /// The level of the latest audio, in dBFS (0 is full scale, digital silence is -100).
    case level(Double)
    /// Speech has paused for `Listener.pauseToSpeculate`: the answer may be over. Carries the
    /// clip so far, so work on it can start while the hangover is waited out.
    case pause(clip: [Float])
    /// Speech came back after a `.pause`: work started on that clip is stale.
    case resumed
    /// The person is speaking: the answer's audio so far, every `ListenSession.speakingInterval`
    /// of speech, so whisper can keep a draft of it for the next pause.
    case speaking(clip: [Float])
}
