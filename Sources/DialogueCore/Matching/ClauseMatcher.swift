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
    /// Words that may stand between a phrase's words: "das ist dann auch schon alles", "that's
    /// pretty much it", "c'est à peu près tout". Modal particles go almost anywhere in speech,
    /// so listing every order would never end; they are a closed class, so content still
    /// cannot slip in.
    var particles = PhraseList([])

    func clauseMatches(_ clause: [String]) -> Bool {
        let starts = fillers.reachable(clause, from: 0)
        for start in starts.sorted() where start < clause.count {
            for end in phraseEnds(in: clause, at: start) where tails.composes(clause, from: end, to: clause.count) {
                return true
            }
        }
        return false
    }

    /// Where a phrase that starts at `start` can end: its words in order, particles between.
    private func phraseEnds(in clause: [String], at start: Int) -> Set<Int> {
        var ends = Set(phrases.matches(in: clause, at: start).map { start + $0.tokens.count })
        guard !particles.patterns.isEmpty else { return ends }
        for pattern in phrases.patterns where pattern.tokens.count > 1 && pattern.tokens[0] == clause[start] {
            var positions: Set<Int> = [start + 1]
            for token in pattern.tokens.dropFirst() {
                let next = positions.flatMap { particles.reachable(clause, from: $0) }.filter { $0 < clause.count && clause[$0] == token }
                positions = Set(next.map { $0 + 1 })
            }
            ends.formUnion(positions)
        }
        return ends
    }
}
