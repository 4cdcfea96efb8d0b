import Testing
@testable import DialogueCore

/// The second round of issue 13's detectors, each with content made of the same words: keeping
/// it private refuses (`secrecy`), a sentence that only says goodbye or that one has said it
/// all ends (`farewells`, `saidEnough` as cores of `LeaveTaking`, across commas), and modal
/// particles may stand inside a fixed phrase (`particles`). The phrasings are written here, not
/// taken from the scenario set.
@Suite struct ClosingWordsTests {
    static let keepingPrivate: [Language: [String]] = [
        "en": ["Please keep this between us.", "Let's keep that to ourselves, okay?", "Honestly, nobody needs to know about the loan.",
               "Sorry, this is private, nobody needs to know.", "Between you and me, okay?"],
        "de": ["Das bleibt aber unter uns, ja?", "Den Teil mit dem Geld muss niemand wissen.", "Das soll unter uns bleiben.",
               "Das mit der Kündigung bleibt bitte vertraulich.", "Ehrlich gesagt wegen meiner Schwester, aber das muss keiner wissen."],
        "es": ["Esto que quede entre nosotros, ¿eh?", "Lo de mi hermana, que no salga de aquí.", "Nadie tiene que saber lo de mi hermano.",
               "Oye, esto que no salga de aquí, por favor."],
        "fr": ["Tout ça, ça reste entre nous, d'accord ?", "Ça, personne ne doit savoir.", "Entre toi et moi, hein."],
        "ja": ["この件は内緒にしてください。", "これはここだけの話にしてください。", "ここだけの話にしてもらえますか。", "これはオフレコでお願いします。"],
    ]

    /// The same words as content, or reported: someone else asked for secrecy.
    static let privateWordsAsContent: [Language: [String]] = [
        "en": ["The gap between us and the competitors is price.", "He told me to keep it private, so I signed an NDA.",
               "The secret stays between us and the lawyer until the sale."],
        "de": ["Unter uns wohnt eine alte Dame, die allein ist.", "Sie meinte, das bleibt unter uns, aber dann hat sie es allen erzählt.",
               "Er meinte, das muss niemand wissen."],
        "es": ["La diferencia entre nosotros y ellos es el precio.", "Entre tú y yo hay mucha diferencia de edad, pero nos llevamos bien."],
        "fr": ["Il y a de la concurrence entre nous et les autres boutiques.", "Elle m'a dit : ça reste entre nous."],
        "ja": ["妻には内緒で旅行を計画しています。", "内緒にしてと言われたけど、話してしまいました。"],
    ]

    static let closings: [Language: [String]] = [
        "en": ["Okay, I guess I've said everything.", "That's really all I wanted to say, cheers!", "Alright, I've said my piece. Take care.",
               "Can we wrap it up here?", "Thanks for listening, see you!", "Hmm, I think I've covered it all.", "Okay then, see you later."],
        "de": ["Ich glaube, ich habe dir alles gesagt.", "Gut, dann tschüss!", "Danke, bis bald!", "Ich denke, es ist alles gesagt.",
               "Ich hab gesagt, was ich sagen wollte, danke.", "Lass uns das für heute beenden.", "Mir fällt echt nichts mehr ein.",
               "Also dann, auf Wiedersehen."],
        "es": ["Creo que ya lo he dicho todo.", "Gracias, hasta luego.", "Vale, ya te he contado lo que quería, un saludo.",
               "Ya está todo dicho, gracias.", "Bueno, hasta pronto."],
        "fr": ["Je crois que j'ai tout dit.", "Merci, au revoir !", "Bon, je pense avoir fait le tour, à plus.",
               "Voilà, j'ai dit ce que je voulais dire.", "Bon, à demain !"],
        "ja": ["言いたいことは全部言えました。", "それでは、また。", "じゃあ、またね。", "もう十分話しました。", "では、失礼します。",
               "話したいことは話せたと思います。", "これで言いたいことは全部話せました。", "ここまでにさせてください。", "じゃあ、ここらへんで。",
               "すみません、ここまでにしておきましょう。"],
    ]

    static let closingWordsAsContent: [Language: [String]] = [
        "en": ["We said goodbye at the station and I cried.", "I said everything about the price to my boss.",
               "See you later is what the app says when you log out.", "I want to wrap up the old project first and then start this one.",
               "I told her everything, but she didn't believe me.", "She said bye and hung up."],
        "de": ["Wir haben uns am Bahnhof tschüss gesagt.", "Ich habe ihm alles gesagt, aber er hört nicht zu.", "Das Projekt beenden wir im Mai.",
               "Ich will meine Ausbildung beenden und dann reisen.", "Ich habe meiner Mutter alles erzählt.", "Er sagte tschüss und ging."],
        "es": ["Nos dijimos adiós en el aeropuerto.", "Le he dicho todo a mi jefe y no ha servido de nada.",
               "Hasta luego es lo primero que aprenden los niños.", "Se lo he contado todo a mi madre."],
        "fr": ["On s'est dit au revoir sur le quai.", "J'ai tout dit à ma sœur, elle était choquée.",
               "Salut, c'est comme ça que commence chaque message.", "Je veux faire le tour de l'Europe à vélo."],
        "ja": ["また、値段も高いんです。", "駅でさようならを言いました。", "言いたいことを言えない職場が問題です。", "またね、と手を振りました。",
               "失礼しますと言ってから入ります。", "部長には全部話しました。", "ここまで来るのに三年かかりました。", "この辺に公園を作りたいです。"],
    ]

    /// Particles between the words of a fixed phrase; content around it still goes on.
    static let endingsWithParticles: [Language: [String]] = [
        "en": ["That's pretty much it.", "I'm just about done."],
        "de": ["Das ist dann auch schon alles.", "Mehr gibt es dazu eigentlich nicht.", "Nimm das bitte nicht auf.", "Lass uns jetzt hier aufhören.",
               "Ich muss jetzt leider Schluss machen."],
        "es": ["Eso es más o menos todo."],
        "fr": ["C'est à peu près tout."],
    ]

    static let particlesAroundContent: [Language: [String]] = [
        "en": ["That's pretty much it for the design, now the price.", "I'm just about done with the kitchen, the bathroom is next."],
        "de": ["Das ist auch alles teurer geworden.", "Ich bin jetzt fertig mit der Schule und suche Arbeit.", "Das ist dann alles im Keller."],
        "es": ["Eso es más o menos todo lo que gano al mes."],
        "fr": ["C'est à peu près tout ce qu'il me reste."],
    ]

    @Test(arguments: LanguagePackLoader.supportedLanguages)
    func keepingItPrivateRefuses(language: Language) throws {
        let rules = try Fixtures.rules(language)
        for answer in try #require(Self.keepingPrivate[language]) {
            #expect(rules.endSignal(in: answer) == .refusal, "\(language): \"\(answer)\" refuses")
        }
    }

    @Test(arguments: LanguagePackLoader.supportedLanguages)
    func aSentenceThatOnlyClosesEnds(language: Language) throws {
        let rules = try Fixtures.rules(language)
        for answer in try #require(Self.closings[language]) + Self.endingsWithParticles[language, default: []] {
            let conversation = Fixtures.conversation([("opening", "A first idea."), ("problem", "It takes too long."), ("reason", answer)])
            #expect(rules.endSignal(of: conversation) != nil, "\(language): \"\(answer)\" ends")
            #expect(rules.allowedChoices(conversation).finishOnly, "\(language): \(answer)")
        }
    }

    /// Private, closing and particle words as content, or reported: never an ending.
    @Test(arguments: LanguagePackLoader.supportedLanguages)
    func theSameWordsAsContentGoOn(language: Language) throws {
        let rules = try Fixtures.rules(language)
        let answers = try #require(Self.privateWordsAsContent[language]) + #require(Self.closingWordsAsContent[language])
            + Self.particlesAroundContent[language, default: []]
        for answer in answers {
            #expect(rules.endSignal(in: answer) == nil, "\(language): \"\(answer)\" is content")
        }
    }

    /// Japanese lists no particles: between characters they would only mislead.
    @Test func japaneseHasNoParticles() throws {
        #expect(try Fixtures.pack("ja").phrases[.particles].isEmpty)
        #expect(try Fixtures.pack("de").phrases[.particles].contains("eigentlich"))
    }

    /// The goodbye sentence is control, not note content; the content before it stays.
    @Test func aGoodbyeIsNotNoteContent() throws {
        let german = try Fixtures.rules("de")
        let conversation = Fixtures.conversation([("opening", "Eine App für freie Parkplätze."),
                                                  ("problem", "Man sucht ewig. Danke, tschüss!")])
        #expect(german.noteSources(conversation).map(\.text) == ["Eine App für freie Parkplätze.", "Man sucht ewig."])
    }
}
