/// One language's phrase lists, compiled once for matching.
struct PhraseBook: Sendable {
    let endings: ClauseMatcher
    /// The ending phrases anywhere in a clause: ending words, possibly used as content.
    let endingWords: PhraseList
    let interruptions: ClauseMatcher
    let refusals: ClauseMatcher
    let refusalCoversAll: PhraseList
    let ideaStatements: PhraseList
    /// A reply to "anything else?" that ends: the negatives and the endings.
    let negatives: ClauseMatcher
    /// The negatives alone ("no", "nothing", "that's it", "nein", "特にない"): an answer to a
    /// question as often as an ending.
    let negativeAnswers: ClauseMatcher
    /// Fillers and tails together: a sentence made only of these ("Thank you.") adds nothing.
    let smallTalk: PhraseList
    let fillers: PhraseList
    let hesitations: PhraseList
    let productIdea: PhraseList
    let indefiniteArticles: PhraseList
    let meeting: PhraseList
    let habitual: PhraseList
    let reflection: PhraseList
    let planning: PhraseList
    let angleCues: [QuestionChoice: PhraseList]
    let recordVerbs: SplitPhraseList
    let recordPlaces: PhraseList
    let negations: PhraseList
    let negationFollowsVerb: Bool
    let talkDeixis: PhraseList
    let secrecy: SplitPhraseList
    let removalVerbs: SplitPhraseList
    let otherAgents: PhraseList
    let passiveMarkers: PhraseList
    let dataPlaces: PhraseList
    /// "Tu so, als hätte ich nie etwas gesagt", "act like this conversation never happened".
    let pretending: Construction
    let haves: SplitPhraseList
    let leavingNow: SplitPhraseList
    let wornOut: SplitPhraseList
    let postponing: SplitPhraseList
    let reasonLinks: PhraseList
    /// `leavingNow` and `postponing` as whole clauses: control, not content, in a closing sentence.
    let leavingOrPostponingClauses: ClauseMatcher
    let leaveTaking: LeaveTaking
    /// Taking leave by having said enough ("that about covers it for now", "j'ai tout dit pour
    /// aujourd'hui"): a completion, where a farewell or going on later breaks off.
    let enoughSaid: LeaveTaking
    /// "We can stop here", "können wir jetzt aufhören?", "これで終わりにしてください".
    let stopSuggestion: Construction
    /// Suggesting to put the talk off to another day: "let's come back to this another day", "on
    /// peut remettre ça à demain ?", "また日を改めて話してもいいですか". A plain statement ("we'll
    /// continue some other time") only takes leave as the last sentence (`LeaveTaking`).
    let puttingOff: Construction
    /// "That covers what I wanted to get down", "das war das, was ich loswerden wollte".
    let saidWhatWasWanted: Construction
    /// "I'll have to take this", "da muss ich rangehen", "ちょっと見てくる".
    let havingToLeave: Construction
    let unableNow: SplitPhraseList
    /// What may follow being worn out in its clause: tails, or not being able to go on ("眠くて無理").
    let tailsOrUnable: PhraseList
    let instructionCues: PhraseList
    /// "Assistant," as a clause of its own: the line is addressed to the program.
    let addressees: ClauseMatcher
    let forgetVerbs: SplitPhraseList
    let ownSpeech: SplitPhraseList
    let reportingVerbs: PhraseList
    let complementizers: PhraseList
    let pastTime: PhraseList
    let besideThePoint: PhraseList
    let conditionals: PhraseList
    let tails: PhraseList

    init(_ phrases: Phrases) {
        let fillers = PhraseList(phrases[.fillers])
        let tails = PhraseList(phrases[.endingTails])
        let particles = PhraseList(phrases[.particles])
        func clauses(_ list: [String]) -> ClauseMatcher {
            ClauseMatcher(phrases: PhraseList(list), fillers: fillers, tails: tails, particles: particles)
        }
        endings = clauses(phrases[.endings])
        endingWords = PhraseList(phrases[.endings])
        interruptions = clauses(phrases[.interruptions])
        // What a refusal covers may stand around it: "don't record any of this", "全部記録しないで".
        refusals = ClauseMatcher(phrases: PhraseList(phrases[.refusals]),
                                 fillers: PhraseList(phrases[.fillers] + phrases[.refusalCoversAll]),
                                 tails: PhraseList(phrases[.endingTails] + phrases[.refusalCoversAll]), particles: particles)
        refusalCoversAll = PhraseList(phrases[.refusalCoversAll])
        ideaStatements = PhraseList(phrases[.ideaStatements])
        negatives = clauses(phrases[.negatives] + phrases[.endings])
        negativeAnswers = clauses(phrases[.negatives])
        smallTalk = PhraseList(phrases[.fillers] + phrases[.endingTails])
        self.fillers = fillers
        hesitations = PhraseList(phrases[.hesitations])
        productIdea = PhraseList(phrases[.productIdea])
        indefiniteArticles = PhraseList(phrases[.indefiniteArticles])
        meeting = PhraseList(phrases[.meeting])
        habitual = PhraseList(phrases[.habitual])
        reflection = PhraseList(phrases[.reflection])
        planning = PhraseList(phrases[.planning])
        var cues: [QuestionChoice: PhraseList] = [:]
        for (name, list) in phrases.angleCues {
            if let choice = QuestionChoice(rawValue: name) { cues[choice] = PhraseList(list) }
        }
        angleCues = cues
        recordVerbs = SplitPhraseList(phrases[.recordVerbs])
        recordPlaces = PhraseList(phrases[.recordPlaces])
        negations = PhraseList(phrases[.negations])
        negationFollowsVerb = phrases.negationFollowsVerb
        talkDeixis = PhraseList(phrases[.talkDeixis])
        secrecy = SplitPhraseList(phrases[.secrecy])
        removalVerbs = SplitPhraseList(phrases[.removalVerbs])
        otherAgents = PhraseList(phrases[.otherAgents])
        passiveMarkers = PhraseList(phrases[.passiveMarkers])
        dataPlaces = PhraseList(phrases[.dataPlaces])
        haves = SplitPhraseList(phrases[.haves])
        let (pretend, never, said) = (PhraseList(phrases[.pretendFrames]), PhraseList(phrases[.pretendNegations]), PhraseList(phrases[.pretendVerbs]))
        pretending = Construction(orders: [[pretend, never, said], [pretend, said, never], [said, never, pretend], [never, pretend]],
                                  vocabulary: PhraseList(phrases[.fillers] + phrases[.endingTails] + phrases[.talkDeixis] + phrases[.particles]
                                                         + phrases[.refusalCoversAll] + phrases[.ownSpeech].filter { !$0.contains("…") }
                                                         + phrases[.pretendWords]))
        leavingNow = SplitPhraseList(phrases[.leavingNow])
        wornOut = SplitPhraseList(phrases[.wornOut])
        postponing = SplitPhraseList(phrases[.postponing])
        reasonLinks = PhraseList(phrases[.reasonLinks])
        leavingOrPostponingClauses = clauses(phrases[.leavingNow] + phrases[.wornOut] + phrases[.postponing])
        let leaveVocabulary = PhraseList(phrases[.fillers] + phrases[.endingTails] + phrases[.talkDeixis] + phrases[.glue] + phrases[.particles])
        let leaveTimes = PhraseList(phrases[.timeFrames] + phrases[.postponing])
        leaveTaking = LeaveTaking(vocabulary: leaveVocabulary, timeFrames: leaveTimes, closers: PhraseList(phrases[.closers]),
                                  continuations: SplitPhraseList(phrases[.continuations]),
                                  cores: SplitPhraseList(phrases[.farewells] + phrases[.saidEnough]))
        enoughSaid = LeaveTaking(vocabulary: leaveVocabulary, timeFrames: leaveTimes, closers: PhraseList([]),
                                 continuations: SplitPhraseList([]), cores: SplitPhraseList(phrases[.saidEnough]))
        let closed = PhraseList(phrases[.fillers] + phrases[.endingTails] + phrases[.talkDeixis] + phrases[.glue] + phrases[.particles]
                                + phrases[.timeFrames] + phrases[.postponing])
        func either(_ first: [String], _ second: [String]) -> [[PhraseList]] {
            [[PhraseList(first), PhraseList(second)], [PhraseList(second), PhraseList(first)]]
        }
        stopSuggestion = Construction(orders: either(phrases[.stopFrames], phrases[.stopVerbs]), vocabulary: closed)
        let (frames, goOn, later) = (PhraseList(phrases[.stopFrames]), PhraseList(phrases[.continuations]), PhraseList(phrases[.laterDays]))
        puttingOff = Construction(orders: [[frames, goOn, later], [frames, later, goOn], [later, goOn, frames]], vocabulary: closed)
        saidWhatWasWanted = Construction(orders: either(phrases[.saidVerbs], phrases[.wantedThings]), vocabulary: closed)
        havingToLeave = Construction(orders: either(phrases[.mustFrames], phrases[.leaveVerbs]), vocabulary: closed)
        unableNow = SplitPhraseList(phrases[.unableNow])
        tailsOrUnable = PhraseList(phrases[.endingTails] + phrases[.unableNow])
        instructionCues = PhraseList(phrases[.instructionCues])
        addressees = clauses(phrases[.addressees])
        forgetVerbs = SplitPhraseList(phrases[.forgetVerbs])
        ownSpeech = SplitPhraseList(phrases[.ownSpeech])
        reportingVerbs = PhraseList(phrases[.reportingVerbs])
        complementizers = PhraseList(phrases[.complementizers])
        pastTime = PhraseList(phrases[.pastTime])
        besideThePoint = PhraseList(phrases[.besideThePoint])
        conditionals = PhraseList(phrases[.conditionals])
        self.tails = tails
    }

    /// Whether a sentence only steers the exchange: every clause an ending, interruption,
    /// refusal or short negative, or small talk ("Okay, I think that's all. Thanks!").
    func isControlOnly(_ sentence: String) -> Bool {
        let text = MatchableText(sentence)
        return !text.clauses.isEmpty && (text.clauses.allSatisfy(isControl) || text.sentences.allSatisfy(pretendsWholly))
    }

    /// One clause that only steers: an ending, interruption, refusal, having to leave or
    /// putting off, taking leave, a short negative, or small talk.
    func isControl(_ clause: [String]) -> Bool {
        endings.clauseMatches(clause) || interruptions.clauseMatches(clause) || refusals.clauseMatches(clause)
            || leavingOrPostponingClauses.clauseMatches(clause) || refusesKeeping(clause) || leaveTaking.takesLeave(clause)
            || negatives.clauseMatches(clause) || smallTalk.composes(clause, from: 0, to: clause.count)
            || breaksOffByConstruction(clause) || saidWhatWasWanted.matches(clause)
    }

    /// Whether a sentence is never note content, wherever it stands: it is control only and one
    /// of its clauses steers the talk (`steers`). Left in: a bare or negative answer ("No.",
    /// "Nothing else."), which may answer the question; small talk ("Thanks."); a one-word
    /// ending ("Done.", "Fertig."), which before more words is as often part of a story.
    func onlySteers(_ sentence: String) -> Bool {
        let text = MatchableText(sentence)
        let clauses = text.clauses
        return !clauses.isEmpty && (clauses.allSatisfy(isControl) && clauses.contains(where: steers) || text.sentences.allSatisfy(pretendsWholly))
    }

    /// A clause that says what happens to the talk: a refusal, or, in more than one word and
    /// without a negative that could answer a question, an ending, breaking off or taking leave.
    func steers(_ clause: [String]) -> Bool {
        if refusals.clauseMatches(clause) || refusesKeeping(clause) { return true }
        guard !negativeAnswers.clauseMatches(clause), !negativeAnswers.phrases.occurs(inClause: clause) else { return false }
        return endings.clauseMatches(clause) && !isOneWord(clause, endingWords)
            || interruptions.clauseMatches(clause) && !isOneWord(clause, interruptions.phrases)
            || leavingOrPostponingClauses.clauseMatches(clause) || leaveTaking.takesLeave(clause)
            || breaksOffByConstruction(clause) || saidWhatWasWanted.matches(clause)
    }

    /// Whether the sentence, from one of its clauses to its end, pretends nothing was said
    /// ("Weißt du was, tu so, als hättest du nichts gehört"): across commas, since the frame and
    /// what was not said often stand apart ("Tu so, | als hätte ich nie etwas gesagt"). Not after
    /// a clause that reports someone ("Er meinte, tu so, als …").
    func pretendsNothingWasSaid(_ sentence: [[String]]) -> Bool {
        sentence.indices.contains { start in
            !followsAReport(sentence, clause: start) && pretending.matches(sentence[start...].flatMap { $0 })
        }
    }

    /// The whole sentence pretends nothing was said, with nothing else in it: only steering.
    func pretendsWholly(_ sentence: [[String]]) -> Bool {
        pretending.matches(sentence.flatMap { $0 })
    }

    /// Whether a clause other than an ending says what there is to have ("was wir an Geld haben",
    /// "que tenemos", "使えるお金は…"): the sentence's ending words then say that this is all of it,
    /// which is content ("Das ist alles, was wir an Geld haben"), not the end of the talk. An
    /// ending clause of its own still ends ("That's all we have time for").
    func saysWhatThereIs(_ sentence: [[String]]) -> Bool {
        sentence.contains { !endings.clauseMatches($0) && haves.occurs(inClause: $0) }
    }

    /// Whether a sentence refuses to be kept, in any clause or as a whole answer would.
    func refuses(_ sentence: String) -> Bool {
        MatchableText(sentence).clauses.contains { refusals.clauseMatches($0) || refusesKeeping($0) }
            || endSignal(in: sentence, afterAnythingElse: false) == .refusal
    }

    /// Whether every clause of the sentence is filler or tail words only.
    func isSmallTalk(_ sentence: [[String]]) -> Bool {
        sentence.allSatisfy { smallTalk.composes($0, from: 0, to: $0.count) }
    }
}
