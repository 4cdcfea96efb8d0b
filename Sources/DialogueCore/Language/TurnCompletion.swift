import Foundation

/// How likely the answer heard so far is a finished turn, read from its transcript at a pause.
/// The listener waits briefly after an answer that sounds complete and long after one that
/// does not (a trailing "and", "weil", "〜て", a filler, no final punctuation), so a person
/// who pauses mid-thought is not cut off and one who has finished is not kept waiting.
public enum TurnCompletion {
    /// 0 (surely unfinished) to 1 (surely finished). The strongest cue wins: a filled pause or an
    /// open word at the end says unfinished even after a full stop; then a comma or an ellipsis,
    /// then no final mark. Whisper's full stop alone says little: at a pause the audio simply
    /// stops, and on the real-speech set (`eval turns`) it wrote one at 24 of 29 pauses inside
    /// answers. How sure it was of that mark says more: pass `finalMarkProbability`
    /// (`Transcript.finalMarkProbability`) and it becomes the probability.
    public static func probability(of text: String, finalMarkProbability: Double? = nil, phrases: Phrases) -> Double {
        let cue = cue(of: text, phrases: phrases)
        guard cue >= .finalPunctuation, let finalMarkProbability else { return cue.probability }
        return min(max(finalMarkProbability, 0), 1)
    }

    /// What the end of a transcript says about its turn, weakest to strongest evidence of an end.
    public enum Cue: String, Sendable, CaseIterable, Comparable {
        case nothingHeard, filledPause, openWord, openPunctuation, noFinalPunctuation, finalPunctuation, questionOrExclamation

        public var probability: Double {
            switch self {
            case .nothingHeard: 0
            case .filledPause: 0.05
            case .openWord: 0.1
            case .openPunctuation: 0.15
            case .noFinalPunctuation: 0.35
            case .finalPunctuation: 0.85
            case .questionOrExclamation: 0.9
            }
        }

        public static func < (a: Cue, b: Cue) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// The cue the end of `text` gives (`probability` is its probability).
    public static func cue(of text: String, phrases: Phrases) -> Cue {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let tokens = MatchableText(text).tokens
        guard let last = text.unicodeScalars.last, !tokens.isEmpty else { return .nothingHeard }
        // "¿Por qué?", "Tu vas où ?": accents are folded away before matching, so a question or
        // an exclamation is never read as stopping on an open word ("que", "ou").
        if questionOrExclamationMarks.contains(last) { return .questionOrExclamation }
        if PhraseList(phrases[.filledPauses]).ends(tokens) { return .filledPause }
        if PhraseList(phrases[.trailingConnectives]).ends(tokens) { return .openWord }
        if text.hasSuffix("...") || openMarks.contains(last) { return .openPunctuation }
        return finalMarks.contains(last) ? .finalPunctuation : .noFinalPunctuation
    }

    static let questionOrExclamationMarks: Set<Unicode.Scalar> = ["?", "!", "\u{FF1F}", "\u{FF01}"]
    static let finalMarks: Set<Unicode.Scalar> = [".", "\u{3002}", "\u{FF0E}", "\u{FF61}"]
    /// A comma, a dash, an ellipsis: whisper's way of writing a sentence left open.
    static let openMarks: Set<Unicode.Scalar> = [",", "\u{3001}", "\u{FF0C}", "\u{2026}", ";", ":", "-", "\u{2013}", "\u{2014}"]
}
