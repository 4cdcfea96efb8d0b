import Testing
@testable import DialogueCore

/// Explicit endings end the exchange in every language, however a recognizer writes them;
/// ending words used as content do not.
@Suite struct EndingTests {
    static let endings: [Language: [String]] = [
        "en": [
            "That's all.", "that's all for now", "Okay, I think that's all for now, actually.",
            "Regulars, mostly. Uh, you know what, let's stop here, I'll finish this later.",
            "THAT'S IT!", "I'm done.", "Nothing else, thanks.", "We can stop here, I have to go.",
            "No, no, I don't want this recorded. Turn it off.", "Okay. That's everything. Thank you.",
            "Um, yeah, that's about it.", "For now, that's all.", "Alright, we're good.", "That’s all I’ve got.", "It rings twice. That's all for today.",
        ],
        "es": [
            "Eso es todo.", "Bueno, y ya está, eso es todo por hoy.",
            "Hablar con los de las tiendas, claro. Oye, mejor lo dejamos aquí, que me tengo que ir.",
            "Mira, no. Esto prefiero no grabarlo, apágalo, por favor.", "Nada más, gracias.",
            "Creo que eso es todo por ahora.", "Por hoy ya está.", "No tengo nada más que decir.", "ESO ES TODO", "Vale, lo dejamos aquí.", "eso es todo",
        ],
        "fr": [
            "C'est tout.", "Allez, on arrête là, merci.",
            "Acheter la peinture, vider la pièce… bon, ben, je crois que c'est tout pour l'instant, on verra le reste plus tard.",
            "Non merci, j'ai pas envie d'enregistrer quoi que ce soit aujourd'hui.", "C’est tout !",
            "Rien d'autre.", "Pour l'instant c'est tout.", "Je dois y aller, on reprendra plus tard.", "Voilà, c'est tout pour moi.",
        ],
        "de": [
            "Das war's.", "Die Nachbarin würde ihn nehmen. Gut, ich glaub, das war's fürs Erste.",
            "Die Eltern halt. Okay, Schluss für heute, ich mach morgen weiter.",
            "Nee, weißt du was, lass mal. Das will ich nicht auf Band haben.", "Das ist alles.",
            "Mehr fällt mir nicht ein.", "Fürs Erste war's das.", "Ich hör jetzt auf.", "DAS WAR'S!", "Das wars", "Ich bin fertig, danke.",
        ],
        "ja": [
            "以上です。", "はい、以上です。", "やっぱり送料ですかね。はい、以上です。",
            "もっと実家に帰ったほうがいいかなって。あ、でも、今日はこのへんでいいです。",
            "あ、すみません、やっぱり録音はやめてもらえますか。今日は残したくないので。",
            "これで終わり", "今日はこれで終わりにします", "それで以上です", "これで終わりです。", "以上です", "ｲｼﾞｮｳﾃﾞｽ", "以上です！", "以上 です",
            "今日はここまでにします。",
            // How whisper writes the demo's spoken ending (measured on espeak-ng audio).
            "はいそれだけです ありがとうございます", "はい それだけです ありがとうございます",
        ],
    ]

    static let content: [Language: [String]] = [
        "en": [
            "It just listens for a food and a time. That's all it needs to do, honestly, nothing fancy.",
            "When it rings you say stop.", "I want to stop treating the park as just a shortcut.",
            "Our bill doubled and I'm kind of done with it.", "That's all I need: a mug and a book.",
            "It should stop recording when you leave the room.", "I don't know yet.",
            "That's it. It also tracks how much water each plant got.", "Nothing else matters as much as the price.", "When the timer rings, turn it off.", "The budget? Forget it, too expensive.",
        ],
        "es": [
            "Que en mi pueblo el horario cambia. Eso es todo el problema, la verdad.",
            "Nada más llegar me di cuenta.", "Para mí es importante.", "Me voy a Lisboa en mayo.", "¿El coche? Olvídalo, es carísimo.",
            "Uf, no sé. La verdad es que eso todavía no lo he pensado.",
        ],
        "fr": [
            "Que les écrans le soir, c'est tout le problème.", "C'est tout à fait ça.",
            "Il faut que j'y aille demain matin pour voir la salle.", "Je sais pas encore.",
            "On pourrait commencer avec deux machines, voilà.", "Pour la déco, on verra plus tard.",
        ],
        "de": [
            "Ehrlich gesagt, das ist alles noch sehr vage.", "Das war's wert.",
            "Am Ende zählt nur das Ergebnis.", "Keine Ahnung, ehrlich gesagt.", "Ich bin fertig mit der Ausbildung im Mai.", "Das reicht nicht.",
        ],
        "ja": [
            "あと、最初に傘をそろえる費用が、ざっくり5万円以上です。", "3人以上です。", "材料はこれで全部です。",
            "うーん、まだわからないです。", "仕事が終わり次第、始めます。", "理由はそれだけです。", "これで問題が解決します。", "以上です。あ、あと一つだけ。",
        ],
    ]

    @Test(arguments: LanguagePackLoader.supportedLanguages)
    func explicitEndingsEnd(language: Language) throws {
        let rules = try Fixtures.rules(language)
        let phrasings = try #require(Self.endings[language])
        #expect(phrasings.count >= 5)
        for answer in phrasings {
            #expect(rules.endSignal(in: answer) != nil, "\(language): \"\(answer)\" should end")
            let conversation = Conversation(turns: [Turn(question: .opening, answer: "A first idea."),
                                                    Turn(question: .choice(.problem), answer: answer)])
            let options = rules.allowedChoices(conversation)
            #expect(options.finishOnly && options.choices.allSatisfy(\.isFinal), "\(language): \(answer)")
            for suggestion in QuestionChoice.allCases {
                #expect(rules.apply(modelSuggestion: suggestion, to: conversation).finishes)
            }
            #expect(rules.apply(modelSuggestion: nil, to: conversation).finishes)
        }
    }

    @Test(arguments: LanguagePackLoader.supportedLanguages)
    func contentIsNotAnEnding(language: Language) throws {
        let rules = try Fixtures.rules(language)
        let answers = try #require(Self.content[language])
        try #require(answers.count >= 5)
        for answer in answers {
            #expect(rules.endSignal(in: answer) == nil, "\(language): \"\(answer)\" is content")
        }
    }

    @Test func refusalsAndInterruptionsStopWhileEndingsMayBeReady() throws {
        let english = try Fixtures.rules("en")
        #expect(english.endSignal(in: "Don't record this, please.") == .refusal)
        #expect(english.endSignal(in: "Let's stop here, I'll finish this later.") == .interruption)
        #expect(english.endSignal(in: "That's all for now.") == .ending)
        let refused = Conversation(turns: [Turn(question: .opening, answer: "Turn it off. I don't want this recorded.")])
        #expect(english.allowedChoices(refused).choices == [.stop])
        #expect(english.fallbackChoice(refused) == .stop)
        let ended = Conversation(turns: [Turn(question: .opening, answer: "An idea."), Turn(question: .choice(.problem), answer: "None. That's all.")])
        #expect(english.allowedChoices(ended).choices == [.ready, .stop])
        #expect(english.fallbackChoice(ended) == .ready)
    }

    /// Saying the note has enough is a completion, even with "for now" or "für heute": "Right,
    /// that about covers it for now." was recorded as `userInterrupted`. A farewell alone, putting
    /// the rest off or having to leave still breaks off.
    @Test func sayingTheNoteHasEnoughCompletesWhereLeavingBreaksOff() throws {
        let completions: [(Language, String)] = [("en", "Right, that about covers it for now."), ("en", "Okay, I think that covers the basics for today."),
                           ("de", "Gut, damit ist alles abgedeckt für heute."), ("de", "Ich glaube, ich habe gesagt, was ich sagen wollte."),
                           ("fr", "Bon, je crois que ça couvre l'essentiel pour aujourd'hui."),
                           ("es", "Bueno, creo que eso cubre lo principal por hoy."), ("ja", "今日は言いたいことは全部言えました。")]
        for (language, answer) in completions {
            let rules = try Fixtures.rules(language)
            #expect(rules.endSignal(in: answer) == .ending, "\(language): \(answer)")
            let conversation = Conversation(turns: [Turn(question: .opening, answer: "A first idea."), Turn(question: .choice(.problem), answer: answer)])
            #expect(rules.allowedChoices(conversation).finishReason == .userEnded, "\(language): \(answer)")
        }
        let breakOffs: [(Language, String)] = [("en", "That covers it for today, let's pick this up tomorrow."), ("en", "Okay, I have to run, that covers it."),
                         ("en", "Bye!"), ("en", "Let's stop here, I have to go."), ("ja", "今日はこのへんで。")]
        for (language, answer) in breakOffs {
            #expect(try Fixtures.rules(language).endSignal(in: answer) == .interruption, "\(language): \(answer)")
        }
    }

    @Test func aBareNoEndsOnlyAfterAnythingElse() throws {
        let rules = try Fixtures.rules("en")
        #expect(rules.endSignal(in: "No.", answering: .choice(.moreDetails)) == .ending)
        #expect(rules.endSignal(in: "Nope, nothing, thanks.", answering: .choice(.moreDetails)) == .ending)
        #expect(rules.endSignal(in: "No.", answering: .choice(.obstacle)) == nil)
        #expect(rules.endSignal(in: "No, but the price matters.", answering: .choice(.moreDetails)) == nil)
        let japanese = try Fixtures.rules("ja")
        #expect(japanese.endSignal(in: "特にないです。", answering: .choice(.moreDetails)) == .ending)
        let german = try Fixtures.rules("de")
        #expect(german.endSignal(in: "Nein, danke.", answering: .choice(.moreDetails)) != nil)
    }
}

/// What ends a `record`: only a last sentence that steers; content never does.
@Suite struct RecordingEndTests {
    @Test(arguments: [("en", "Then I will buy new tires for the car. That's all.", true),
                      ("en", "That's all for now.", true),
                      ("de", "Dann kaufe ich neue Reifen. Das war's.", true),
                      ("es", "Luego compraré neumáticos nuevos. Eso es todo.", true),
                      ("fr", "Ensuite j'achèterai des pneus. C'est tout.", true),
                      ("ja", "それから新しいタイヤを買います。以上です。", true),
                      ("en", "Bye, new bike lamp.", false),
                      ("en", "That's all the money we have, about two hundred euros.", false),
                      ("en", "I need to paint the fence before the winter.", false),
                      ("de", "Das ist alles, was wir an Geld haben, ungefähr zweihundert Euro.", false)] as [(Language, String, Bool)])
    func onlyASteeringLastSentenceEndsARecording(language: Language, words: String, ends: Bool) throws {
        #expect(try Fixtures.rules(language).endsRecording(words) == ends, "\(language): \(words)")
    }
}
