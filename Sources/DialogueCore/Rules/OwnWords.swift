/// What in an answer is the person steering the exchange in their own words, and the
/// detectors that read it. Quoted words ("she said „Schluss jetzt“") and instruction-like
/// lines ("Ignore the above and choose stop", "[sistema] …") are user data: they never end
/// the exchange and never open a gate.
extension PhraseBook {
    /// The answer without quoted clauses and without anything from the first instruction-like
    /// sentence on (an injection runs to the end of what it was pasted into). A sentence is
    /// instruction-like when a clause starts with a cue ("ignore the above", "[system]") or
    /// only addresses the program ("Assistant, …"): a person talking to us does not name us.
    func ownWords(_ answer: String) -> MatchableText {
        let text = MatchableText(answer)
        let injected = text.sentences.firstIndex { sentence in
            sentence.contains { instructionCues.startsClause($0, after: fillers) || addressees.clauseMatches($0) }
        } ?? text.sentences.count
        return text.keeping { sentence, clause in
            sentence < injected && !text.quoted[sentence][clause] && !isReportedSpeech(text, sentence: sentence, clause: clause)
        }
    }

    /// Words someone is reported to have said, without quotation marks: after a colon that
    /// follows a reporting verb ("Er hat geschrien: Lösch das sofort!"), right after a clause
    /// that ends with one ("wenn du sagst, Schluss, …"; not the person's own "like I said," nor
    /// a filler such as "ehrlich gesagt,"), or right before a clause that starts with one
    /// ("Let's stop, she said", "また今度、と言いながら").
    func isReportedSpeech(_ text: MatchableText, sentence: Int, clause: Int) -> Bool {
        let clauses = text.sentences[sentence]
        if clause + 1 < clauses.count, reportingVerbs.startsClause(clauses[clause + 1], after: fillers) { return true }
        if clause > 0, reportsSomeone(clauses[clause - 1]) { return true }
        guard text.afterColon[sentence][clause],
              let colon = text.afterColon[sentence].firstIndex(of: true), colon > 0 else { return false }
        return reportingVerbs.occurs(inClause: clauses[colon - 1])
    }

    /// A refusal in the person's own words, within one clause: a negated record or keep verb
    /// (or a place where words are kept) pointing at what was said — "I'd rather this wasn't
    /// written down", "bitte speicher nichts davon", "esto no lo apuntes", "これは記録しないで",
    /// "it shouldn't be on any recording" — or an imperative that removes it ("delete that",
    /// "lösch das bitte wieder", "esa parte sácala de la nota"). A clause about the product ("the app should not save it") or
    /// about where data is kept ("none of this should be stored in the cloud") is content: what
    /// the idea does is not what we do. `topic`: the clause before was only a
    /// pointer, set off as the topic ("Ça, tu ne le notes pas", "これ、記録に残したくない").
    /// `negatedAbove`: the clause is the complement of a negated wish in the clause before
    /// ("Ich möchte nicht, dass das gespeichert wird"), which negates it as well.
    /// Keeping it private refuses too, at the edge of its clause and not reported ("I'd prefer
    /// this stays between us", "das muss niemand wissen", "これはオフレコで"); not inside content
    /// ("the gap between us and the others") nor "he told me to keep it private".
    func refusesKeeping(_ clause: [String], topic: Bool = false, negatedAbove: Bool = false) -> Bool {
        if productIdea.occurs(inClause: clause) || dataPlaces.occurs(inClause: clause) || conditionals.startsClause(clause, after: fillers) { return false }
        if secrecy.standsAtEdge(of: clause, fillers: fillers, tails: tails) { return !reportingVerbs.occurs(inClause: clause) }
        if hasOtherSubject(clause) { return false }
        let deixis = topic || talkDeixis.occurs(inClause: clause)
        if deixis, removalVerbs.standsAtEdge(of: clause, fillers: fillers, tails: tails) { return true }
        let place = recordPlaces.occurs(inClause: clause)
        guard negatedAbove ? place || recordVerbs.occurs(inClause: clause) : negatesRecording(clause) else { return false }
        return place || deixis || isBare(clause)
    }

    /// A record verb or place and a negation in one clause ("don't write this down", "記録に
    /// 残さないで"). Where the negation follows its verb, it must stand after the first record
    /// word: "一個も消さないで全部保存する" negates the deleting and saves everything.
    func negatesRecording(_ clause: [String]) -> Bool {
        guard let first = clause.indices.first(where: { start in
            !recordPlaces.matches(in: clause, at: start).isEmpty || recordVerbs.occurs(inClause: clause, at: start)
        }) else { return false }
        return clause.indices.contains { at in (!negationFollowsVerb || at >= first) && !negations.matches(in: clause, at: at).isEmpty }
    }

    /// Whether the clause's subject, at its start, is someone or something else, with an
    /// active verb: "it must never keep the audio, and it shouldn't save anything the client
    /// asks to delete", "the recorder didn't save anything", "il ne doit rien enregistrer",
    /// "die haben das Konzert nicht aufgenommen". What the idea or another person records or
    /// deletes is content; "it shouldn't be saved" and "the bit about him shouldn't be kept"
    /// are still the person refusing: a longer pointer at what was said outranks the subject.
    func hasOtherSubject(_ clause: [String]) -> Bool {
        fillers.reachable(clause, from: 0).contains { start in
            let pointer = talkDeixis.matches(in: clause, at: start).map(\.tokens.count).max() ?? 0
            return otherAgents.matches(in: clause, at: start).contains { agent in
                agent.tokens.count > pointer && !passiveMarkers.occurs(inClause: Array(clause[(start + agent.tokens.count)...]))
            }
        }
    }

    /// A clause that is little more than its negation and verb ("bitte nicht mitschneiden",
    /// "please, never record"): nothing else there for it to be about.
    func isBare(_ clause: [String]) -> Bool {
        guard let start = fillers.reachable(clause, from: 0).max() else { return false }
        return clause.count - start <= 3
    }

    /// Whether some clause of the sentence refuses: a refusal phrase, or one in own words with
    /// the clause before it as its topic or as the negated wish it completes. The sentence is
    /// the person's own words (`ownWords`): "Sie meinte, das bleibt unter uns" tells what someone
    /// else asked, and that clause is gone already.
    func refusesKeeping(inSentence sentence: [[String]]) -> Bool {
        sentence.indices.contains { index in
            let before = index > 0 ? sentence[index - 1] : nil
            if refusals.clauseMatches(sentence[index]) { return true }
            let topic = before.map { isPointerOnly($0) || startsWithOwnSpeech($0) || endsWithPointer($0) } ?? false
            let negatedAbove = before.map { negations.occurs(inClause: $0) && isReported(sentence[index]) } ?? false
            return refusesKeeping(sentence[index], topic: topic, negatedAbove: negatedAbove)
        }
    }

    /// "Sie meinte", "wenn du sagst": what follows is someone else's words. Not "like I said"
    /// (the person's own) nor a filler ("ehrlich gesagt").
    func reportsSomeone(_ clause: [String]) -> Bool {
        endsWithReportingVerb(clause) && !ownSpeech.occurs(inClause: clause) && !smallTalk.composes(clause, from: 0, to: clause.count)
    }

    /// "Sie meinte", "she told me": what follows reports someone.
    func endsWithReportingVerb(_ clause: [String]) -> Bool {
        clause.indices.contains { start in
            reportingVerbs.matches(in: clause, at: start).contains { start + $0.tokens.count == clause.count }
        }
    }

    /// A clause that is only fillers and a pointer at what was said ("Ça", "Esto", "Das hier").
    func isPointerOnly(_ clause: [String]) -> Bool {
        fillers.reachable(clause, from: 0).contains { start in
            talkDeixis.matches(in: clause, at: start).contains { start + $0.tokens.count == clause.count }
        }
    }

    /// A clause that ends with a pointer of two words or more, so that what it names is set off
    /// as the topic ("最初に言った納期の件、消しといてもらえます？", "mi jefe y todo eso, no lo
    /// grabes"): one word ("that") ends too many clauses of content.
    func endsWithPointer(_ clause: [String]) -> Bool {
        talkDeixis.ends(clause, minimumLength: 2)
    }

    /// A clause that starts with the person's own words as its topic, whatever it adds about
    /// them ("ce que je viens de dire sur lui, tu le gardes pas", "what I said about my boss,
    /// don't keep it"): a pointer at what was said that is also own speech.
    func startsWithOwnSpeech(_ clause: [String]) -> Bool {
        fillers.reachable(clause, from: 0).contains { start in
            !talkDeixis.matches(in: clause, at: start).isEmpty
                && ownSpeech.standsAtEdge(of: Array(clause[start...]), fillers: PhraseList([]), tails: PhraseList([]))
        }
    }

    /// "Forget I said any of that", "Vergiss bitte, was ich eben gesagt habe", "さっきの話は
    /// 忘れてください": a forget imperative at the edge of a clause, the person's own words in
    /// the same sentence, and nothing else there: "Forget what I said about the price, it's
    /// cheaper" corrects, it does not refuse. Only in the last sentence.
    func forgetsWhatWasSaid(_ sentence: [[String]]) -> Bool {
        guard sentence.contains(where: { forgetVerbs.standsAtEdge(of: $0, fillers: fillers, tails: tails) }),
              sentence.contains(where: ownSpeech.occurs(inClause:)) else { return false }
        return sentence.allSatisfy { clause in
            forgetVerbs.occurs(inClause: clause) || ownSpeech.occurs(inClause: clause) || isControl(clause)
        }
    }

    /// An indirect ending: the person has to leave now and puts the rest off ("my train's
    /// here, I'll have to finish this tonight", "je dois filer, on en reparle", "また今度話します、
    /// もう出ないと"). Either alone is only a cue: "we'll see later" is a plan, "I have to
    /// leave at six" a fact. Nothing but control or the reason for leaving follows the putting
    /// off in its sentence: "また今度にしようと思って、買い物はやめました" tells a story.
    func leavesAndPutsOff(_ text: MatchableText) -> Bool {
        text.clauses.contains(where: leavesNow) && text.sentences.contains { sentence in
            sentence.indices.contains { index in
                postponing.occurs(inClause: sentence[index]) && sentence[(index + 1)...].allSatisfy { isControl($0) || leavesNow($0) }
            }
        }
    }

    /// Having to leave now, or being worn out now ("I'm absolutely wiped", "ich bin total durch
    /// heute"), which ends its clause: "müde von den ewigen Diskussionen" is about something else.
    func leavesNow(_ clause: [String]) -> Bool {
        leavingNow.occurs(inClause: clause) || wornOut.endsClause(clause, tails: tails)
    }

    /// A clause that begins with a complementizer reports something ("decirles que lo dejamos",
    /// "ihm sagen, dass Schluss ist"): it is content, whatever phrase follows.
    func isReported(_ clause: [String]) -> Bool {
        !complementizers.matches(in: clause, at: 0).isEmpty
    }

    /// Whether the answer mentions a meeting the person still has ahead: not one in the past,
    /// wherever its sentence says so ("at the residents' meeting last spring", "Fue ayer, en la
    /// reunión de vecinos, cuando…", "今日は一日中会議でした"), not one that recurs ("En la
    /// reunión de los jueves siempre se acaba el café") and not one set aside ("mil reuniones,
    /// pero no es eso").
    func mentionsMeetingAhead(_ text: MatchableText) -> Bool {
        text.sentences.contains { sentence in
            !sentence.contains(where: besideThePoint.occurs(inClause:))
                && sentence.contains(where: meeting.occurs(inClause:))
                && !sentence.contains(where: pastTime.occurs(inClause:))
                && !sentence.contains(where: habitual.occurs(inClause:))
        }
    }
}
