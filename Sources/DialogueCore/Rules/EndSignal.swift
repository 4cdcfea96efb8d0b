/// How the user ended the exchange in an answer, whatever the model chose.
public enum EndSignal: String, Sendable, Hashable, Codable {
    /// "That's all": the note is complete; `ready` or `stop` both finish.
    case ending
    /// "Let's stop here", "I have to go": the user breaks off; `stop`.
    case interruption
    /// "Don't record this": `stop`.
    case refusal

    /// The finishing case our rules pick for this signal.
    public var finishingChoice: QuestionChoice { self == .ending ? .ready : .stop }

    /// The finishing cases that fit this signal.
    public var finishingChoices: [QuestionChoice] { self == .ending ? [.ready, .stop] : [.stop] }
}

/// What a refusal covers: the answer that says it, or everything said in the exchange.
public enum RefusalScope: String, Sendable, Hashable, Codable {
    case answer
    case everything
}

extension PhraseBook {
    /// Refusals and interruptions count anywhere in the answer ("let's stop here, I'll finish
    /// this later"). A completion ending counts only in the last sentence that says something,
    /// so "That's it. It also tracks …" goes on, while "That's all. Thank you." ends.
    /// `afterAnythingElse`: the question was "anything else?", where a bare "No." ends too.
    func endSignal(in answer: String, afterAnythingElse: Bool) -> EndSignal? {
        let text = MatchableText(answer)
        let sentences = text.sentences[...]
        if refusals.matches(sentences) { return .refusal }
        if interruptions.matches(sentences) { return .interruption }
        // The last sentence that says something, skipping closing small talk ("Thank you.").
        for sentence in sentences.reversed() {
            if endings.matches([sentence]) { return .ending }
            if !isSmallTalk(sentence) { break }
        }
        if afterAnythingElse, !sentences.isEmpty,
           sentences.allSatisfy({ sentence in sentence.allSatisfy { clause in
               negatives.clauseMatches(clause) || smallTalk.composes(clause, from: 0, to: clause.count) } }),
           sentences.contains(where: { $0.contains(where: negatives.clauseMatches) }) {
            return .ending
        }
        return nil
    }
}
