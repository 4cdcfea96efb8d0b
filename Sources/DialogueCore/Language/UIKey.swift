/// Every string the command-line program shows, by key in the locale files' `ui` dictionary.
/// A test checks that this list and `Locales/en.json` agree. The `key…` entries are the single
/// letters a prompt accepts in this language (they match the letters in `savePrompt`,
/// `confirmDiscard`, `recoverPrompt` and the `refusalConfirm…` prompts).
public enum UIKey: String, CaseIterable, Sendable {
    case hintFinish, listening, hearingYou, thinking, noAnswer, wentOn, tookBack, notCaught, youSaid, typePrompt
    case typingModeReason, modelUnavailable, unsupportedLocale, noteReady, savePrompt
    case confirmDiscard, saved, discarded, recoverPrompt, microphoneSilent, audioFailed
    case saveFailed, interrupted, questionCount, transcriptFull, answerCut, unusedLines, layoutFallback
    case recordingHint, transcribingRecording, finishingTranscript, recordingStopsIn, nothingRecorded, audioKept
    case tagProduct, tagMeeting, tagReflection, tagGeneral, nextStepsHeading
    case reviewKeys, keptForRecover, refusedReview, refusedDiscarded, saveFailedChoice, saveElsewherePrompt
    case refusalConfirmAll, refusalConfirmAnswer, refusalKeys
    case keySave, keyEdit, keyDiscard, keyYes, keyNo, keyRetry, keyElsewhere
}
