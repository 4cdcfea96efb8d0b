/// One language's phrase lists, compiled once for matching.
struct PhraseBook: Sendable {
    let endings: ClauseMatcher
    let interruptions: ClauseMatcher
    let refusals: ClauseMatcher
    let negatives: ClauseMatcher
    /// Fillers and tails together: a sentence made only of these ("Thank you.") adds nothing.
    let smallTalk: PhraseList
    let fillers: PhraseList
    let hesitations: PhraseList
    let productIdea: PhraseList
    let meeting: PhraseList
    let reflection: PhraseList
    let angleCues: [QuestionChoice: PhraseList]

    init(_ phrases: Phrases) {
        let fillers = PhraseList(phrases.fillers)
        let tails = PhraseList(phrases.endingTails)
        func clauses(_ list: [String]) -> ClauseMatcher {
            ClauseMatcher(phrases: PhraseList(list), fillers: fillers, tails: tails)
        }
        endings = clauses(phrases.endings)
        interruptions = clauses(phrases.interruptions)
        refusals = clauses(phrases.refusals)
        negatives = clauses(phrases.negatives + phrases.endings)
        smallTalk = PhraseList(phrases.fillers + phrases.endingTails)
        self.fillers = fillers
        hesitations = PhraseList(phrases.hesitations)
        productIdea = PhraseList(phrases.productIdea)
        meeting = PhraseList(phrases.meeting)
        reflection = PhraseList(phrases.reflection)
        var cues: [QuestionChoice: PhraseList] = [:]
        for (name, list) in phrases.angleCues {
            if let choice = QuestionChoice(rawValue: name) { cues[choice] = PhraseList(list) }
        }
        angleCues = cues
    }

    /// Whether every clause of the sentence is filler or tail words only.
    func isSmallTalk(_ sentence: [[String]]) -> Bool {
        sentence.allSatisfy { smallTalk.composes($0, from: 0, to: $0.count) }
    }
}
