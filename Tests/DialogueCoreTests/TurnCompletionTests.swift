import Testing
@testable import DialogueCore

/// The end-of-turn cues read from a transcript at a pause, in every language: an answer that
/// stops on an open word or a filled pause must read as unfinished (the listener waits), one
/// that ends on a sure full stop as finished.
@Suite struct TurnCompletionTests {
    /// Below every preset's threshold (`AdaptiveWait`): the listener keeps waiting.
    static let unfinished = 0.5

    func probability(_ text: String, _ language: Language, mark: Double? = nil) throws -> Double {
        TurnCompletion.probability(of: text, finalMarkProbability: mark, phrases: try Fixtures.pack(language).phrases)
    }

    func cue(_ text: String, _ language: Language) throws -> TurnCompletion.Cue {
        TurnCompletion.cue(of: text, phrases: try Fixtures.pack(language).phrases)
    }

    @Test(arguments: [
        ("en", "I want to build a shed for the street and"), ("en", "It was cheaper because"), ("en", "We could rent the"),
        ("de", "Ich will das machen, weil"), ("de", "Wir haben einen Garten und"), ("de", "Ich glaube, dass"),
        ("fr", "Je voudrais le faire parce que"), ("fr", "On a un jardin et"), ("fr", "Je pense que"),
        ("es", "Quiero hacerlo porque"), ("es", "Tenemos un jardín y"), ("es", "Lo haría, pero"),
        ("ja", "駅の近くにあるんですけど"), ("ja", "朝起きて"), ("ja", "時間がないから"), ("ja", "作りたいのですが"),
    ])
    func anOpenWordAtTheEndIsUnfinishedEvenAfterAFullStop(language: Language, text: String) throws {
        #expect(try cue(text, language) == .openWord)
        #expect(try probability(text + (language == "ja" ? "。" : "."), language, mark: 0.99) < Self.unfinished)
    }

    @Test(arguments: [("en", "The shed would be by the garages, um"), ("en", "So uh"), ("de", "Und dann, äh"), ("de", "Ähm."),
                      ("fr", "On le mettrait, euh"), ("es", "Lo pondría, este"), ("es", "Eh..."),
                      ("ja", "それは、えーと"), ("ja", "あの")])
    func aFilledPauseAtTheEndIsUnfinished(language: Language, text: String) throws {
        #expect(try cue(text, language) == .filledPause)
        #expect(try probability(text, language, mark: 0.99) < Self.unfinished)
    }

    @Test(arguments: [("en", "I will ask Tom on Friday."), ("de", "Ich frage Tom am Freitag."), ("fr", "Je demanderai à Tom vendredi."),
                      ("es", "Se lo preguntaré a Tom el viernes."), ("ja", "金曜日にトムに聞きます。")])
    func aSureFullStopIsFinishedAndAnUnsureOneIsNot(language: Language, text: String) throws {
        #expect(try cue(text, language) == .finalPunctuation)
        #expect(try probability(text, language, mark: 0.93) == 0.93)
        #expect(try probability(text, language, mark: 0.3) < Self.unfinished)
        // From the text alone a full stop reads as finished.
        #expect(try probability(text, language) > Self.unfinished)
    }

    @Test(arguments: [("en", "I will ask Tom on Friday"), ("de", "Ich frage Tom am Freitag"), ("fr", "Je demanderai à Tom vendredi"),
                      ("es", "Se lo preguntaré a Tom el viernes"), ("ja", "金曜日にトムに聞きます")])
    func noFinalMarkIsDoubtful(language: Language, text: String) throws {
        #expect(try cue(text, language) == .noFinalPunctuation)
        #expect(try probability(text, language, mark: 0.99) < Self.unfinished)
    }

    @Test func aCommaOrAnEllipsisLeavesTheSentenceOpen() throws {
        #expect(try cue("If this is the person you're looking for,", "en") == .openPunctuation)
        #expect(try cue("Die Hütte steht hinten…", "de") == .openPunctuation)
        #expect(try cue("Et la cabane est au fond...", "fr") == .openPunctuation)
        #expect(try cue("駅の近く、", "ja") == .openPunctuation)
        #expect(try probability("If this is the person you're looking for,", "en") < Self.unfinished)
    }

    /// Accents are folded before matching: "qué", "où", "sí", "tú" must not read as the open
    /// words "que", "ou", "si", "tu".
    @Test func questionsAndWordsWithAccentsAreNotOpenWords() throws {
        #expect(try cue("¿Por qué?", "es") == .questionOrExclamation)
        #expect(try cue("Tu vas où ?", "fr") == .questionOrExclamation)
        #expect(try probability("Creo que sí.", "es", mark: 0.9) == 0.9)
        #expect(try probability("¿Y tú?", "es") > Self.unfinished)
        #expect(try probability("Je suis là.", "fr", mark: 0.9) == 0.9)
        #expect(try probability("I think so.", "en", mark: 0.9) == 0.9)
    }

    @Test func nothingHeardIsNotAnEnd() throws {
        #expect(try probability("", "en") == 0)
        #expect(try probability("  \n", "de", mark: 0.9) == 0)
        #expect(try cue("...", "fr") == .nothingHeard)
    }

    @Test func theCuesAreOrderedFromUnfinishedToFinished() {
        let probabilities = TurnCompletion.Cue.allCases.map(\.probability)
        #expect(probabilities == probabilities.sorted())
        #expect(TurnCompletion.Cue.filledPause < .finalPunctuation)
    }

    @Test func everyLanguageHasItsOwnCueLists() throws {
        let english = try Fixtures.pack("en").phrases
        for code: Language in ["de", "fr", "es", "ja"] {
            let phrases = try Fixtures.pack(code).phrases
            #expect(!phrases[.trailingConnectives].isEmpty && phrases[.trailingConnectives] != english[.trailingConnectives], "\(code)")
            #expect(!phrases[.filledPauses].isEmpty && phrases[.filledPauses] != english[.filledPauses], "\(code)")
        }
    }
}
