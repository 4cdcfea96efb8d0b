import Testing
@testable import DialogueCore

/// Random exchanges driven by a random "model": whatever it suggests, the rules hold. The
/// answers are written here, not taken from the phrase lists the rules match (or from the
/// other tests' fixtures): each is a sentence a person might say, so a rule that only knows
/// its own list entries fails here.
@Suite struct RulesPropertyTests {
    /// Answers without any trigger word (no product, meeting, ending, refusal or hesitation).
    static let neutral: [Language: [String]] = [
        "en": ["It would help on Sunday mornings.", "Mostly for the kitchen, I think.", "The blue one looked better.",
               "About twenty minutes each way.", "My sister suggested it last spring.", ""],
        "es": ["Sería los domingos por la mañana.", "Sobre todo en la cocina.", "El azul quedaba mejor.",
               "Unos veinte minutos de ida.", "Me lo dijo mi hermana en primavera.", ""],
        "fr": ["Ce serait le dimanche matin.", "Surtout dans la cuisine.", "Le bleu était plus joli.",
               "Environ vingt minutes aller.", "Ma sœur m'en a parlé au printemps.", ""],
        "de": ["Vor allem sonntags morgens.", "Hauptsächlich in der Küche.", "Das Blaue sah besser aus.",
               "Etwa zwanzig Minuten hin.", "Meine Schwester hat es im Frühling vorgeschlagen.", ""],
        "ja": ["日曜日の朝が多いと思います。", "主に台所で使います。", "青いほうがよかったです。",
               "片道二十分くらいです。", "去年の春に姉に言われました。", ""],
    ]
    static let product: [Language: [String]] = [
        "en": ["It is an app for neighbours.", "I'd sell it as a small subscription service.", "Picture a website where you book a plumber."],
        "es": ["Es una app para vecinos.", "Sería un producto para tiendas pequeñas.", "Una web donde reservas al fontanero."],
        "fr": ["C'est une appli pour les voisins.", "Ce serait un produit pour les petits commerces.", "Un site web pour réserver un plombier."],
        "de": ["Es ist eine App für Nachbarn.", "Das wäre ein Produkt für kleine Läden.", "Eine Webseite, auf der man Handwerker bucht."],
        "ja": ["近所の人のためのアプリです。", "小さなお店向けのサービスにしたいです。", "配管工を予約できるウェブサイトです。"],
    ]
    static let meeting: [Language: [String]] = [
        "en": ["I have a meeting with my boss on Monday.", "Tomorrow's team meeting needs an agenda."],
        "es": ["El lunes tengo una reunión con mi jefa.", "Mañana hay una reunión del equipo."],
        "fr": ["J'ai une réunion lundi avec ma cheffe.", "Demain il y a une réunion d'équipe."],
        "de": ["Am Montag habe ich eine Besprechung mit meiner Chefin.", "Morgen ist ein Meeting mit dem Team."],
        "ja": ["月曜日に上司との打ち合わせがあります。", "明日はチームの会議があります。"],
    ]
    static let hesitant: [Language: [String]] = [
        "en": ["I don't know yet.", "Hmm, I'm not sure."], "es": ["No lo sé todavía.", "Mmm, no estoy segura."],
        "fr": ["Je sais pas encore.", "Euh, je ne suis pas sûr."], "de": ["Keine Ahnung.", "Hm, weiß ich noch nicht."],
        "ja": ["まだわからないです。", "うーん、どうでしょう。"],
    ]
    /// Endings said the way people say them, in a sentence of their own after the content.
    static let endings: [Language: [String]] = [
        "en": ["Right, I think that's everything for today.", "Okay, I'm finished, thanks.", "Let's call it a day.",
               "Nothing more to add, really.", "Sorry, I have to run now."],
        "es": ["Bueno, creo que ya está por hoy.", "Y nada más, gracias.", "Vale, paramos aquí.",
               "Lo siento, me tengo que ir ya.", "Pues eso es todo, de momento."],
        "fr": ["Bon, je crois que c'est tout pour aujourd'hui.", "Voilà, j'ai fini, merci.", "On s'arrête là pour l'instant.",
               "Désolé, je dois partir maintenant.", "Je n'ai rien à ajouter, merci."],
        "de": ["Also, das war's für heute.", "Gut, ich bin fertig, danke.", "Lass uns hier aufhören.",
               "Sorry, ich muss jetzt los.", "Gut, sonst nichts, danke."],
        "ja": ["今日はこれで以上です。", "えっと、それで全部です。", "じゃあ、ここまでにしましょう。",
               "すみません、もう行かないと。", "まあ、そんな感じです。"],
    ]

    /// 4,000 random exchanges in four seeded parts of 1,000, which run side by side.
    @Test(arguments: 0..<4)
    func randomExchangesKeepEveryRule(part: Int) throws {
        var random = SeededRandom(seed: 0xD1A1_0603 &+ UInt64(part))
        var exchanges = 0, decisions = 0, endings = 0
        for round in 0..<1_000 {
            let code = LanguagePackLoader.supportedLanguages[round % 5]
            let rules = try Fixtures.rules(code)
            let neutral = try #require(Self.neutral[code])
            let endingPhrases = try #require(Self.endings[code])
            let products = try #require(Self.product[code]), meetings = try #require(Self.meeting[code])
            let hesitations = try #require(Self.hesitant[code])
            var conversation = Conversation()
            var sawProduct = false, sawMeeting = false
            var question = TurnQuestion.opening
            var finished = false
            while !finished {
                let roll = Int.random(in: 0..<100, using: &random)
                var answer = neutral.randomElement(using: &random)!
                var ends = false
                switch roll {
                case 0..<10: answer += " " + products.randomElement(using: &random)!; sawProduct = true
                case 10..<18: answer = meetings.randomElement(using: &random)! + " " + answer; sawMeeting = true
                case 18..<26: answer = hesitations.randomElement(using: &random)!
                case 26..<32: answer += " " + endingPhrases.randomElement(using: &random)!; ends = true
                default: break
                }
                conversation = conversation.appending(question, answer: answer)
                let options = rules.allowedChoices(conversation)
                let asked = Set(conversation.askedChoices)
                #expect(!options.choices.isEmpty)
                #expect(asked.isDisjoint(with: options.questions), "a case is allowed twice")
                if !sawProduct { #expect(!options.contains(.audience), "audience without a product idea") }
                if !sawMeeting {
                    #expect(!options.contains(.decision) && !options.contains(.meetingFocus), "meeting cases without a meeting")
                }
                let suggestion: QuestionChoice? = Int.random(in: 0..<10, using: &random) == 0
                    ? nil : QuestionChoice.allCases.randomElement(using: &random)
                let decision = rules.apply(modelSuggestion: suggestion, to: conversation)
                decisions += 1
                #expect(options.contains(decision.choice), "the decision is always allowed")
                #expect(!asked.contains(decision.choice))
                if ends {
                    endings += 1
                    #expect(decision.finishes, "explicit ending in \(code): \(answer)")
                }
                #expect(conversation.questionCount <= Rules.maxQuestions)
                if decision.finishes {
                    finished = true
                } else {
                    question = .choice(decision.choice)
                }
            }
            #expect(conversation.questionCount <= Rules.maxQuestions)
            exchanges += 1
        }
        print("rules property test, part \(part): \(exchanges) random exchanges, \(decisions) decisions, \(endings) explicit endings")
        #expect(exchanges == 1_000)
        #expect(endings > 125, "only \(endings) explicit endings were tried")
    }

    /// Each ending written here, after some content, ends the exchange; no neutral answer does.
    @Test func theEndingsWrittenHereAreHeardAsEndings() throws {
        var checked = 0
        for code in LanguagePackLoader.supportedLanguages {
            let rules = try Fixtures.rules(code)
            for ending in try #require(Self.endings[code]) {
                let answer = try #require(Self.neutral[code]?.first) + " " + ending
                #expect(rules.endSignal(in: answer) != nil, "\(code): \(answer)")
                checked += 1
            }
            for answer in try #require(Self.neutral[code]) where !answer.isEmpty {
                #expect(rules.endSignal(in: answer) == nil, "\(code): \(answer)")
            }
        }
        #expect(checked == 25)
        // An adverb inside a listed phrase ("mehr fällt mir nicht ein"): a person says it so.
        let german = try Fixtures.rules("de")
        for phrase in ["Mehr fällt mir gerade nicht ein.", "Mehr habe ich dazu nicht, danke."] {
            #expect(german.endSignal(in: "Das Blaue sah besser aus. " + phrase) != nil, "\(phrase)")
        }
    }

    @Test func fallbackAloneNeverRepeatsAndAlwaysFinishes() throws {
        for code in LanguagePackLoader.supportedLanguages {
            let rules = try Fixtures.rules(code)
            for opening in try #require(Self.neutral[code]) + Self.product[code]! + Self.meeting[code]! {
                var conversation = Conversation(turns: [Turn(question: .opening, answer: opening)])
                var asked: [QuestionChoice] = []
                while true {
                    let choice = rules.fallbackChoice(conversation)
                    if choice.isFinal { break }
                    #expect(!asked.contains(choice))
                    asked.append(choice)
                    conversation = conversation.appending(.choice(choice), answer: "Fine.")
                    #expect(asked.count <= Rules.maxQuestions)
                }
                #expect(asked.count <= Rules.enoughQuestions)
            }
        }
    }
}
