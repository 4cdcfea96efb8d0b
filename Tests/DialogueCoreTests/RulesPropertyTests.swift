import Testing
@testable import DialogueCore

/// Random exchanges driven by a random "model": whatever it suggests, the rules hold.
@Suite struct RulesPropertyTests {
    /// Answers without any trigger word (no product, meeting, ending, refusal or hesitation).
    static let neutral: [String: [String]] = [
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
    static let product: [String: String] = [
        "en": "It is an app for neighbours.", "es": "Es una app para vecinos.", "fr": "C'est une appli pour les voisins.",
        "de": "Es ist eine App für Nachbarn.", "ja": "近所の人のためのアプリです。",
    ]
    static let meeting: [String: String] = [
        "en": "I have a meeting with my boss on Monday.", "es": "El lunes tengo una reunión con mi jefa.",
        "fr": "J'ai une réunion lundi avec ma cheffe.", "de": "Am Montag habe ich eine Besprechung mit meiner Chefin.",
        "ja": "月曜日に上司との打ち合わせがあります。",
    ]
    static let hesitant: [String: String] = [
        "en": "I don't know yet.", "es": "No lo sé todavía.", "fr": "Je sais pas encore.", "de": "Keine Ahnung.",
        "ja": "まだわからないです。",
    ]

    @Test func randomExchangesKeepEveryRule() throws {
        var random = SeededRandom(seed: 0xD1A1_0603)
        var exchanges = 0, decisions = 0, endings = 0
        for round in 0..<4_000 {
            let code = LanguagePackLoader.supportedLanguages[round % 5]
            let rules = try Fixtures.rules(code)
            let neutral = try #require(Self.neutral[code])
            let endingPhrases = try #require(EndingTests.endings[code])
            var conversation = Conversation()
            var sawProduct = false, sawMeeting = false
            var question = TurnQuestion.opening
            var finished = false
            while !finished {
                let roll = Int.random(in: 0..<100, using: &random)
                var answer = neutral.randomElement(using: &random)!
                var ends = false
                switch roll {
                case 0..<10: answer += " " + Self.product[code]!; sawProduct = true
                case 10..<18: answer = Self.meeting[code]! + " " + answer; sawMeeting = true
                case 18..<26: answer = Self.hesitant[code]!
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
        print("rules property test: \(exchanges) random exchanges, \(decisions) decisions, \(endings) explicit endings")
    }

    @Test func fallbackAloneNeverRepeatsAndAlwaysFinishes() throws {
        for code in LanguagePackLoader.supportedLanguages {
            let rules = try Fixtures.rules(code)
            for opening in try #require(Self.neutral[code]) + [Self.product[code]!, Self.meeting[code]!] {
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
