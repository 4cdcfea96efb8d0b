import Testing
@testable import DialogueCore

/// The four phrasing families of issue 43, as families: several phrasings of each in every
/// language, labelled by what the product promises, not by what the rules say. Pretending
/// nothing was said refuses everything; saying where data is kept, or that something is all the
/// money or people there are, is content; a wrap-up in the person's own words completes the note
/// and only steers, so it leaves the body and is never a next step.
@Suite struct PhrasingFamilyTests {
    struct Families {
        let pretending: [String]
        let storage: [String]
        let allWeHave: [String]
        let wrapUps: [String]
    }

    static let families: [Language: Families] = [
        "en": Families(
            pretending: ["We'd rent the hall in May. Forget I said anything.", "It's about my brother's debts. Just pretend I never said any of this.",
                         "Honestly, let's act like this conversation never happened.", "No. Pretend you didn't hear a word of it.",
                         "Okay, you know what, let's just say I never told you any of it."],
            storage: ["None of this should be stored in the cloud, everything stays on the device.",
                      "Nothing gets uploaded to a server, the photos stay on the phone.",
                      "We won't keep any of the recordings online, they live on the clinic's own computer.",
                      "No customer data is saved outside the shop."],
            allWeHave: ["That's all the money we have, about two hundred euros.", "Three volunteers, that's all the help we've got.",
                        "Honestly, that's everything we have in the budget, nothing more.", "Two weekends is all the time we have."],
            wrapUps: ["Okay, I think I've said everything I wanted.", "I'm out of thoughts on this one, let's wrap up.",
                      "Right, that about covers it for now.", "Well, I've got nothing more on this, we can finish.",
                      "Yeah, I think that's me done with this one."]),
        "de": Families(
            pretending: ["Tu so, als hätte ich nie etwas gesagt.", "Vergiss einfach, was ich dir gerade erzählt habe.",
                         "Ach, tun wir einfach so, als wäre dieses Gespräch nie passiert.", "Nein, sagen wir einfach, ich hab dir nichts erzählt.",
                         "Weißt du was, tu so, als hättest du nichts gehört."],
            storage: ["Nichts davon soll in der Cloud gespeichert werden, alles bleibt auf dem Gerät.",
                      "Die Fotos werden auf keinen Server hochgeladen, sie bleiben auf dem Handy.",
                      "Keine Kundendaten werden außerhalb des Ladens gespeichert.",
                      "Wir speichern nichts online, alles liegt auf dem eigenen Rechner."],
            allWeHave: ["Das ist alles, was wir an Geld haben, ungefähr zweihundert Euro.", "Drei Freiwillige, das ist alles an Hilfe, was wir haben.",
                        "Zwei Wochenenden, mehr Zeit haben wir nicht.", "Das ist unser ganzes Budget, dreihundert Euro."],
            wrapUps: ["So, ich glaube, ich habe alles gesagt, was ich sagen wollte.", "Mir gehen die Gedanken aus, lass uns abschließen.",
                      "Gut, damit ist das Wichtigste abgedeckt.", "Mehr habe ich dazu eigentlich nicht, wir können Schluss machen.",
                      "Okay, das war's von mir zu dem Thema."]),
        "es": Families(
            pretending: ["Haz como si no te hubiera dicho nada.", "Lo de mi hermano, mejor haz como que no te he contado nada.",
                         "Bueno, hagamos como si esta conversación no hubiera pasado.", "No, olvida que te dije algo de esto.",
                         "Oye, finge que no has oído nada."],
            storage: ["Nada de esto debe guardarse en la nube, todo se queda en el dispositivo.",
                      "Las fotos no se suben a ningún servidor, se quedan en el móvil.",
                      "Ningún dato de los clientes se guarda fuera de la tienda.",
                      "No guardamos nada en internet, todo va en el propio ordenador."],
            allWeHave: ["Eso es todo lo que tenemos de dinero, unos doscientos euros.", "Tres voluntarios, es toda la ayuda que tenemos.",
                        "Dos fines de semana es todo el tiempo que hay.", "Es todo nuestro presupuesto, trescientos euros."],
            wrapUps: ["Bueno, creo que ya he dicho todo lo que quería.", "Ya no tengo más ideas sobre esto, vamos terminando.",
                      "Vale, con esto queda cubierto lo principal.", "No tengo nada más que añadir, podemos acabar.",
                      "Pues eso sería todo por mi parte."]),
        "fr": Families(
            pretending: ["Fais comme si je n'avais rien dit.", "Oublie ce que je t'ai raconté.",
                         "Bon, on fait comme si cette conversation n'avait jamais eu lieu.", "Non, disons que je ne t'ai rien raconté.",
                         "Écoute, fais comme si tu n'avais rien entendu."],
            storage: ["Rien de tout ça ne doit être stocké dans le cloud, tout reste sur l'appareil.",
                      "Les photos ne sont envoyées sur aucun serveur, elles restent sur le téléphone.",
                      "Aucune donnée client n'est enregistrée en dehors du magasin.",
                      "On ne sauvegarde rien en ligne, tout reste sur notre propre ordinateur."],
            allWeHave: ["C'est tout ce qu'on a comme argent, à peu près deux cents euros.", "Trois bénévoles, c'est toute l'aide qu'on a.",
                        "Deux week-ends, c'est tout le temps dont on dispose.", "C'est tout notre budget, trois cents euros."],
            wrapUps: ["Bon, je crois que j'ai dit tout ce que je voulais dire.", "Je n'ai plus d'idées là-dessus, on peut conclure.",
                      "Voilà, je pense que ça couvre l'essentiel.", "Je n'ai rien d'autre à ajouter, on s'arrête là.",
                      "Bon, ce sera tout pour moi."]),
        "ja": Families(
            pretending: ["今の話はなかったことにしてください。", "やっぱり、さっき言ったことは聞かなかったことにして。",
                         "うーん、何も言わなかったことにしてもらえますか。", "この話は全部なかったことでお願いします。",
                         "今日話したことは忘れてください。"],
            storage: ["このデータはクラウドには保存しないで、全部端末に残します。", "写真はサーバーにアップロードせず、スマホの中だけに置きます。",
                      "お客さんの情報は店の外には保存しません。", "ネットには何も保存せず、すべて自分のパソコンに置きます。"],
            allWeHave: ["使えるお金は二十万円くらいで、それで全部です。", "手伝ってくれる人は三人で、うちにいるのはそれだけです。",
                        "時間は週末の二日しかありません。", "予算はこれで全部です、三万円です。"],
            wrapUps: ["言いたかったことは全部言えたと思います。", "もう考えが出てこないので、このへんで終わりにしましょう。",
                      "よし、これで大体カバーできました。", "付け加えることは特にないので、終わりにしてください。",
                      "私からは以上になります。"]),
    ]

    static func answers(_ language: Language, _ family: KeyPath<Families, [String]>) throws -> [String] {
        let answers = try #require(families[language])[keyPath: family]
        try #require(answers.count >= 4)
        return answers
    }

    /// After a first answer with content in it, as the family is said in an exchange.
    static func conversation(_ answer: String) -> Conversation {
        Conversation(turns: [Turn(question: .opening, answer: "A first idea about the garden."), Turn(question: .choice(.problem), answer: answer)])
    }

    @Test(arguments: LanguagePackLoader.supportedLanguages)
    func pretendingNothingWasSaidRefusesEverything(language: Language) throws {
        let rules = try Fixtures.rules(language)
        for answer in try Self.answers(language, \.pretending) {
            let scope = rules.refusal(in: answer)
            #expect(scope == .everything, "\(language): \(answer)")
            #expect(rules.allowedChoices(Self.conversation(answer)).choices == [.stop], "\(language): \(answer)")
        }
    }

    @Test(arguments: LanguagePackLoader.supportedLanguages)
    func whereDataIsKeptIsContent(language: Language) throws {
        let rules = try Fixtures.rules(language)
        for answer in try Self.answers(language, \.storage) {
            let conversation = Self.conversation(answer)
            let (signal, cue) = (rules.endSignal(of: conversation), rules.endingCue(of: conversation))
            #expect(signal == nil && cue != .refusal, "\(language): \(answer) is content")
            let refuses = rules.book.refuses(answer)
            #expect(!refuses, "\(language): \(answer) is content")
            #expect(rules.noteSources(conversation).contains { $0.answerIndex == 1 }, "\(language): \(answer) stays in the note")
        }
    }

    @Test(arguments: LanguagePackLoader.supportedLanguages)
    func allTheMoneyWeHaveIsContent(language: Language) throws {
        let rules = try Fixtures.rules(language)
        for answer in try Self.answers(language, \.allWeHave) {
            let conversation = Self.conversation(answer)
            let (signal, cue) = (rules.endSignal(of: conversation), rules.endingCue(of: conversation))
            #expect(signal == nil && cue == nil, "\(language): \(answer) is content")
            let control = rules.book.isControlOnly(answer)
            #expect(!control, "\(language): \(answer) is content")
            #expect(!rules.allowedChoices(conversation).finishOnly, "\(language): \(answer)")
        }
    }

    @Test(arguments: LanguagePackLoader.supportedLanguages)
    func aWrapUpInOwnWordsCompletesAndOnlySteers(language: Language) throws {
        let rules = try Fixtures.rules(language)
        for answer in try Self.answers(language, \.wrapUps) {
            let conversation = Self.conversation(answer)
            let signal = rules.endSignal(of: conversation)
            #expect(signal == .ending, "\(language): \(answer) completes")
            #expect(rules.allowedChoices(conversation).finishReason == .userEnded, "\(language): \(answer)")
            let steers = rules.book.onlySteers(answer)
            #expect(steers, "\(language): \(answer) only steers")
            #expect(!rules.noteSources(conversation).contains { $0.answerIndex == 1 }, "\(language): \(answer) leaves the body")
        }
    }
}
