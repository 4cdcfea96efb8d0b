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
    /// The ending that is unambiguous, so the rules may force it. Only the person's own words
    /// count (`ownWords`). Refusals and interruptions count anywhere in the answer ("let's stop
    /// here, I'll finish this later"), unless their clause reports something ("que lo dejamos").
    /// A completion ending counts only as the last sentence that says something, and only if
    /// that sentence is all control ("Yeah, I think that covers it. I'm done."): "That's it. It
    /// also tracks …" goes on, and so do "… and that's all we have" or "… just goes: done".
    /// A clause that only takes leave ("…, luego lo seguimos") ends in that last sentence too,
    /// and "forget what I said" refuses as the last sentence. A completion said while having to
    /// leave ("もう出ないといけない時間なので、今日はこの辺で") breaks off: the person did not
    /// say the note has enough, so `stop`.
    /// `afterAnythingElse`: the question was "anything else?", where a bare "No." ends too.
    func endSignal(in answer: String, afterAnythingElse: Bool) -> EndSignal? {
        let text = ownWords(answer)
        let sentences = text.sentences
        let clauses = text.clauses
        if sentences.contains(where: refusesKeeping(inSentence:)) || sentences.contains(where: pretendsNothingWasSaid)
            || text.sentences.last.map(forgetsWhatWasSaid) == true {
            return .refusal
        }
        // The last sentence that says something, skipping closing small talk ("Thank you.").
        let lastSaying = text.sentences.indices.last { index in
            !isSmallTalk(text.sentences[index]) || text.sentences[index].contains(where: endings.clauseMatches)
                || takesLeave(text, sentence: index)
        }
        if text.sentences.indices.contains(where: { interrupts(text, sentence: $0, lastSaying: lastSaying) }) || leavesAndPutsOff(text) {
            return stopsHavingSaidEnough(text, lastSaying: lastSaying) ? .ending : .interruption
        }
        if let index = lastSaying, closes(text, sentence: index) {
            return clauses.contains(where: leavesNow) ? .interruption : .ending
        }
        if let index = lastSaying, takesLeave(text, sentence: index) {
            return completes(text.sentences[index]) && !clauses.contains(where: leavesNow) ? .ending : .interruption
        }
        if afterAnythingElse, !sentences.isEmpty,
           sentences.allSatisfy({ sentence in sentence.allSatisfy { clause in
               negatives.clauseMatches(clause) || smallTalk.composes(clause, from: 0, to: clause.count) } }),
           sentences.contains(where: { $0.contains(where: negatives.clauseMatches) }) {
            return .ending
        }
        return nil
    }

    /// Suggesting to stop after saying the note has enough ("I'm out of thoughts on this one,
    /// let's wrap up", "No tengo nada más que añadir, podemos acabar"): a completion, as "that's
    /// all" is. Having to leave or putting the rest off still breaks off.
    func stopsHavingSaidEnough(_ text: MatchableText, lastSaying: Int?) -> Bool {
        guard let index = lastSaying, completes(text.sentences[index]) else { return false }
        return !text.clauses.contains { leavesNow($0) || puttingOff.matches($0) || postponing.occurs(inClause: $0) }
    }

    /// Whether the sentence closes the exchange: it is all control with an ending in it, or its
    /// last clause that says something is an ending ("Families with elderly parents, that's
    /// all.") — unless that clause follows a colon ("he just goes: done") or the sentence uses
    /// ending words as content ("eso es todo lo que hay, no hay más").
    func closes(_ text: MatchableText, sentence index: Int) -> Bool {
        let sentence = text.sentences[index]
        if saysWhatThereIs(sentence) { return false }
        let isEnding = { (clause: [String]) in self.endings.clauseMatches(clause) && !self.isReported(clause) }
        if sentence.allSatisfy(isControl) {
            return sentence.contains(where: isEnding) && !closesAStory(text, sentence: index)
        }
        guard let last = sentence.lastIndex(where: { !smallTalk.composes($0, from: 0, to: $0.count) || endings.clauseMatches($0) }),
              isEnding(sentence[last]), !text.afterColon[index][last], !isOneWord(sentence[last], endingWords) else { return false }
        return !sentence[..<last].contains { !isControl($0) && endingWords.occurs(inClause: $0) }
    }

    /// A sentence that is one ending word right after a sentence of content ("Du gehst raus,
    /// drückst einmal, Licht aus. Fertig."): it closes the example or the list as often as the
    /// talk, so the model weighs it (`endingCue`), and an ending it reads there can be taken
    /// back. After words the rules know to end or take leave ("That's it. Done.") it still
    /// closes. Japanese is matched by character, so it has no one-word sentence here.
    func closesAStory(_ text: MatchableText, sentence index: Int) -> Bool {
        let sentence = text.sentences[index]
        guard index > 0, sentence.count == 1, isOneWord(sentence[0], endingWords) else { return false }
        let before = text.sentences[index - 1]
        return !before.allSatisfy(isControl) && !takesLeave(text, sentence: index - 1)
            && !before.contains { steers($0) || endings.clauseMatches($0) || interruptions.clauseMatches($0) || leavesNow($0) }
    }

    /// A clause that is one word after its fillers ("…, fertig.", "…, and done", "listo"): after
    /// content in the same sentence it as often closes the example as the talk ("erst wenn du
    /// aufstehst, ist Schluss mit dem Klingeln, fertig"), so it is only a cue for the model.
    func isOneWord(_ clause: [String], _ phrases: PhraseList) -> Bool {
        fillers.reachable(clause, from: 0).contains { start in
            start == clause.count - 1 && phrases.matches(in: clause, at: start).contains { $0.tokens.count == 1 }
        }
    }

    /// Whether the sentence breaks off, anywhere in the answer: a clause of it is an interruption
    /// phrase, not reported. A one-word one ("Schluss", "basta", "stop") counts only in the last
    /// sentence that says something: before more content it is as often what someone advised
    /// ("Mein Kumpel sagt: hör einfach auf. Schluss, aus. Aber so einfach ist das nicht.").
    func interrupts(_ text: MatchableText, sentence index: Int, lastSaying: Int?) -> Bool {
        let sentence = text.sentences[index]
        return sentence.indices.contains { at in
            let clause = sentence[at]
            return (interruptions.clauseMatches(clause) && (index == lastSaying || !isOneWord(clause, interruptions.phrases))
                || breaksOffByConstruction(clause) && !followsAReport(sentence, clause: at)) && !isReported(clause)
        } || index == lastSaying && isTooTiredToGoOn(sentence)
    }

    /// Whether the clause before this one reports someone's words ("Mein Chef sagt immer, …").
    func followsAReport(_ sentence: [[String]], clause: Int) -> Bool {
        clause > 0 && reportingVerbs.occurs(inClause: sentence[clause - 1])
    }

    /// Suggesting to stop, putting the talk off to another day, or having to leave, in any
    /// words of their classes; not right after "Mein Chef sagt immer," (his words, not ours).
    func breaksOffByConstruction(_ clause: [String]) -> Bool {
        stopSuggestion.matches(clause) || puttingOff.matches(clause) || havingToLeave.matches(clause)
    }

    /// Worn out and unable to go on now, in one sentence ("I'm absolutely shattered, my head's
    /// just not in it anymore", "眠くて無理"): either alone is as often a story ("I can't think
    /// of a name", "I was exhausted after the race"), so both, and nothing in the past.
    func isTooTiredToGoOn(_ sentence: [[String]]) -> Bool {
        sentence.contains { wornOut.endsClause($0, tails: tailsOrUnable) } && sentence.contains(where: unableNow.occurs(inClause:))
            && !sentence.contains(where: pastTime.occurs(inClause:))
    }

    /// Whether a clause of the sentence takes leave of the talk in its own words ("Perdona, me
    /// llama mi madre, luego lo seguimos", "Bon, ça suffit pour aujourd'hui, je suis crevé"):
    /// the reason around it may be anything; what it says is only that the talk ends now.
    /// Only in the last sentence that says something, and never after a colon or reported.
    /// The whole sentence may take leave across its commas as well ("Ich glaube, ich habe
    /// gesagt, was ich sagen wollte", "では、また"): speech puts commas anywhere, and one word
    /// of content still rules it out ("また、値段も高い"). Not right after a clause that reports
    /// ("Mein Bruder sagt immer, wir reden morgen weiter").
    func takesLeave(_ text: MatchableText, sentence index: Int) -> Bool {
        let sentence = text.sentences[index]
        let speaksFreely = !text.afterColon[index].contains(true) && !sentence.contains(where: isReported)
        return speaksFreely && (leaveTaking.takesLeave(sentence.flatMap { $0 }) || saidWhatWasWanted.matches(sentence.flatMap { $0 }))
            || sentence.indices.contains { clause in
                (leaveTaking.takesLeave(sentence[clause]) || takesLeaveAfterReason(sentence[clause])
                    || saidWhatWasWanted.matches(sentence[clause]))
                    && !text.afterColon[index][clause] && !isReported(sentence[clause])
                    && !followsAReport(sentence, clause: clause)
            }
    }

    /// Whether a sentence that takes leave does so by saying the note has enough ("Right, that
    /// about covers it for now", "Ich glaube, ich habe gesagt, was ich sagen wollte"): a
    /// completion, as "that's all" is, unless it also puts the rest off ("…, we'll pick this up
    /// tomorrow"). A farewell alone ("Bye!") or going on later breaks off.
    func completes(_ sentence: [[String]]) -> Bool {
        let saysEnough = { (words: [String]) in self.enoughSaid.takesLeave(words) || self.saidWhatWasWanted.matches(words) }
        return (saysEnough(sentence.flatMap { $0 }) || sentence.contains(where: saysEnough))
            && !sentence.contains(where: postponing.occurs(inClause:))
    }

    /// A clause that gives its reason and then takes leave, joined without a comma
    /// ("お客さんが来たので失礼します"): the reason may be anything, as in a clause of its own.
    func takesLeaveAfterReason(_ clause: [String]) -> Bool {
        clause.indices.contains { start in
            reasonLinks.matches(in: clause, at: start).contains { link in
                let end = start + link.tokens.count
                return end < clause.count && leaveTaking.takesLeave(Array(clause[end...]))
            }
        }
    }

    /// A possible ending the rules do not force, for the model to weigh: an ending phrase in
    /// a clause of the last sentence amid content, having to leave (anywhere) or putting off
    /// (in the last sentence) alone, or a negated record verb without a pointer to what was said. Quoted words and injections
    /// still never count.
    func endingCue(in answer: String) -> EndSignal? {
        let text = ownWords(answer)
        let clauses = text.clauses
        if clauses.contains(where: { clause in
            negatesRecording(clause)
                && !productIdea.occurs(inClause: clause) && !dataPlaces.occurs(inClause: clause) && !hasOtherSubject(clause)
        }) { return .refusal }
        if clauses.contains(where: { interruptions.clauseMatches($0) || leavesNow($0) })
            || (text.sentences.last ?? []).contains(where: postponing.occurs(inClause:)) {
            return .interruption
        }
        if let last = text.sentences.last, last.contains(where: endings.clauseMatches), !saysWhatThereIs(last) { return .ending }
        return nil
    }
}
