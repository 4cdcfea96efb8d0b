/// Finds phrases that stand as a clause of their own: "Okay, I think that's all for now."
/// ends the exchange, "That's all it needs to do" does not. A clause (text between
/// punctuation) matches when it is the phrase, preceded only by fillers ("okay", "I think",
/// "はい") and followed only by tails ("for now", "fürs Erste", "です"). This is what keeps
/// content such as "das ist alles noch vage", "c'est tout le problème" or "5万円以上です"
/// (a number before 以上) from ending the exchange.
struct ClauseMatcher: Sendable {
    let phrases: PhraseList
    let fillers: PhraseList
    let tails: PhraseList

    /// Whether some clause of the given sentences is a phrase with only fillers and tails.
    func matches(_ sentences: ArraySlice<[[String]]>) -> Bool {
        sentences.contains { sentence in sentence.contains(where: clauseMatches) }
    }

    func clauseMatches(_ clause: [String]) -> Bool {
        let starts = fillers.reachable(clause, from: 0)
        for start in starts.sorted() where start < clause.count {
            for pattern in phrases.matches(in: clause, at: start)
            where tails.composes(clause, from: start + pattern.tokens.count, to: clause.count) {
                return true
            }
        }
        return false
    }
}
