import Foundation
import Testing
@testable import DialogueCore

/// A sentence that only steers the talk ("Let's wrap up.", "Das war's.") is never note content,
/// nor a next step, nor the key, wherever it stands; every other sentence stays, once, in order.
/// Each language's sentences are labelled here by what the product promises for them, not by
/// what the rules say.
@Suite struct ControlSentenceTests {
    struct Pools {
        /// Content, some of it in ending or refusal words: always in the note, exactly once.
        let content: [String]
        /// Only steering the talk: never in the note.
        let steering: [String]
        /// Control that may also answer the question ("No.", "Done."): kept, except at the end of
        /// the last answer once a rule ended the exchange.
        let answering: [String]
        /// Between the sentences of one answer.
        let separator: String
    }

    static let pools: [Language: Pools] = [
        "en": Pools(content: ["A tool library for our street.", "Most people use a drill twice a year.",
                              "I'll ask Tom on Friday if his garage has room.", "That's all it needs to do, honestly, nothing fancy.",
                              "Nothing else matters as much as the price.",
                              "None of this should be stored in the cloud, everything stays on the device."],
                    steering: ["Let's wrap up.", "That about covers it.", "Let's stop here.", "That's all for now.", "Bye.", "I'm done."],
                    answering: ["No.", "Nothing else.", "Done.", "Thanks.", "That's it."], separator: " "),
        "de": Pools(content: ["Eine Werkzeugbibliothek für unsere Straße.", "Das ist alles, was wir an Geld haben, ungefähr zweihundert Euro.",
                              "Ich frage Tom am Freitag, ob seine Garage Platz hat.", "Das war's wert.", "Am Ende zählt nur das Ergebnis."],
                    steering: ["Das war's.", "Ich habe alles gesagt.", "Lass uns hier aufhören.", "Tschüss.", "Das ist alles."],
                    answering: ["Nein.", "Nichts weiter.", "Fertig.", "Danke."], separator: " "),
        "fr": Pools(content: ["Une bibliothèque d'outils pour notre rue.", "C'est tout à fait ça.",
                              "Je demande à Tom vendredi si son garage a de la place.", "Que les écrans le soir, c'est tout le problème."],
                    steering: ["C'est tout.", "J'ai tout dit.", "On arrête là.", "Au revoir.", "Je crois que c'est tout."],
                    answering: ["Non.", "Rien d'autre.", "Fini.", "Merci."], separator: " "),
        "es": Pools(content: ["Una biblioteca de herramientas para nuestra calle.", "Nada más llegar me di cuenta.",
                              "Le pregunto a Tom el viernes si tiene sitio en el garaje.", "Para mí es importante."],
                    steering: ["Eso es todo.", "Lo he dicho todo.", "Lo dejamos aquí.", "Hasta luego.", "Ya está."],
                    answering: ["No.", "Nada más.", "Listo.", "Gracias."], separator: " "),
        "ja": Pools(content: ["近所で道具を貸し借りするアプリです。", "3人以上です。", "材料はこれで全部です。",
                              "金曜日にトムさんにガレージが空いているか聞きます。"],
                    steering: ["以上です。", "全部話しました。", "今日はここまでにします。", "これで終わりです。"],
                    answering: ["いいえ。", "特にないです。", "ありがとうございます。"], separator: ""),
    ]

    @Test(arguments: ["en", "de", "fr", "es", "ja"])
    func thePoolsAreWhatTheirLabelsSay(language: Language) throws {
        let book = try Fixtures.rules(language).book
        let pools = try #require(Self.pools[language])
        // (Booleans first: a failed expectation would print the whole phrase book.)
        for sentence in pools.content {
            let control = book.isControlOnly(sentence)
            #expect(!control, "\(language): \(sentence) is content")
        }
        for sentence in pools.steering {
            let steers = book.onlySteers(sentence)
            #expect(steers, "\(language): \(sentence) only steers")
        }
        for sentence in pools.answering {
            let (control, steers) = (book.isControlOnly(sentence), book.onlySteers(sentence))
            #expect(control && !steers, "\(language): \(sentence) may answer a question")
        }
    }

    /// "Let's wrap up. I'll ask Tom on Friday if his garage has room." ended an exchange and the
    /// note listed "- [ ] Let's wrap up.": the steering sentence leaves the body at the start of
    /// the last answer as in the middle of an earlier one, and the IDs stay 1…N.
    @Test(arguments: ["en", "de", "fr", "es", "ja"])
    func aSteeringSentenceLeavesTheBodyWhereverItStands(language: Language) throws {
        let rules = try Fixtures.rules(language)
        let pools = try #require(Self.pools[language])
        let (c, s, gap) = (pools.content, pools.steering, pools.separator)
        let conversation = Conversation(turns: [
            Turn(question: .opening, answer: [c[0], s[0], c[1]].joined(separator: gap)),
            Turn(question: .choice(.problem), answer: [s[1], c[2]].joined(separator: gap)),
        ])
        let sources = rules.noteSources(conversation)
        #expect(sources.map(\.text) == [c[0], c[1], c[2]], "\(language)")
        #expect(sources.map(\.id) == [1, 2, 3])
        #expect(sources.map(\.answerIndex) == [0, 0, 1])
    }

    /// "No." may be the answer ("Does anyone else use it?" "No. Only me."): control that may answer
    /// a question stays where content follows it, as does a one-word "Done." in a story.
    @Test(arguments: ["en", "de", "fr", "es", "ja"])
    func controlThatMayAnswerTheQuestionStays(language: Language) throws {
        let rules = try Fixtures.rules(language)
        let pools = try #require(Self.pools[language])
        for answering in pools.answering {
            let conversation = Conversation(turns: [
                Turn(question: .opening, answer: pools.content[0]),
                Turn(question: .choice(.audience), answer: [answering, pools.content[1]].joined(separator: pools.separator)),
                Turn(question: .choice(.problem), answer: pools.content[2]),
            ])
            #expect(rules.noteSources(conversation).map(\.text) == [pools.content[0], answering, pools.content[1], pools.content[2]],
                    "\(language): \(answering)")
        }
    }

    /// A person who took a refusal back keeps every word: the sentence read as a refusal stays,
    /// wherever it stands.
    @Test func afterARefusalIsTakenBackItsSentenceStays() throws {
        let rules = try Fixtures.rules("ja")
        let requirement = "その話は記録しないでください。"
        let conversation = Conversation(turns: [Turn(question: .opening, answer: "メモアプリのアイデアです。"),
                                                Turn(question: .choice(.problem), answer: requirement + "全部端末に残ります。")])
        #expect(rules.noteSources(conversation).map(\.text) == ["メモアプリのアイデアです。", "全部端末に残ります。"])
        #expect(rules.noteSources(conversation, keepingRefusals: true).map(\.text)
                == ["メモアプリのアイデアです。", requirement, "全部端末に残ります。"])
        let english = try Fixtures.rules("en")
        let refused = Conversation(turns: [Turn(question: .opening, answer: "A tool library."),
                                           Turn(question: .choice(.problem), answer: "Please don't record this.")])
        #expect(english.noteSources(refused).map(\.text) == ["A tool library."])
        #expect(english.noteSources(refused, keepingRefusals: true).map(\.text) == ["A tool library.", "Please don't record this."])
    }

    /// Random exchanges of labelled sentences, rendered as notes with every sentence offered as a
    /// next step: each content sentence is in the body exactly once and in order; no steering
    /// sentence is anywhere in the note; no control is a next step or the key. Seeded.
    @Test func everyContentSentenceOnceInOrderAndNoControlAnywhereItMatters() throws {
        var random = SeededRandom(seed: 0xC0_4712)
        let languages: [Language] = ["en", "de", "fr", "es", "ja"]
        var checked = 0
        for round in 0..<800 {
            let language = languages[round % languages.count]
            let pools = try #require(Self.pools[language])
            let (pack, rules) = (try Fixtures.pack(language), try Fixtures.rules(language))
            enum Kind { case content, steering, answering }
            var turns: [[(String, Kind)]] = (0..<Int.random(in: 1...4, using: &random)).map { _ in
                (0..<Int.random(in: 1...4, using: &random)).map { _ in
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0..<5: (pools.content.randomElement(using: &random)!, .content)
                    case 5..<8: (pools.steering.randomElement(using: &random)!, .steering)
                    default: (pools.answering.randomElement(using: &random)!, .answering)
                    }
                }
            }
            if !turns.joined().contains(where: { $0.1 == .content }) { turns[0].append((pools.content[0], .content)) }
            let conversation = Conversation(turns: turns.enumerated().map { index, sentences in
                Turn(question: index == 0 ? .opening : .choice(.problem), answer: sentences.map(\.0).joined(separator: pools.separator))
            })
            let said = turns.joined().map { $0 }
            #expect(SentenceSplitter.sources(from: conversation.answers, language: language).map(\.text) == said.map(\.0),
                    "round \(round): the splitter must give back the sentences for this test to mean anything")

            let sources = rules.noteSources(conversation)
            #expect(sources.map(\.id) == Array(0..<sources.count).map { $0 + 1 }, "round \(round)")
            let offered = Highlights(nextSteps: sources.map(\.id), key: sources.isEmpty ? 1 : Int.random(in: 1...sources.count, using: &random))
            let fields = Memo.ExchangeFields(ending: "userEnded", highlights: rules.highlights(offered, of: sources), highlightsSource: .model)
            let memo = Memo(id: "p\(round)", created: Date(timeIntervalSince1970: 1_780_000_000), timeZone: TimeZone(secondsFromGMT: 0)!,
                            language: language)
            let note = memo.note(conversation, sources: sources, layout: .fallback(sourceCount: sources.count), layoutSource: .fallback,
                                 exchange: fields, pack: pack, rules: rules)
            let read = try ReadNote(note.markdown)
            let body = (read.blocks.first ?? []).map { MarkdownEscaping.unescape(String($0.dropFirst(2))) }
            let steps = read.blocks.dropFirst(2).joined().map { MarkdownEscaping.unescape(String($0.dropFirst(6))) }

            // The body is the sentences said, in order, each at most once (a subsequence)…
            var rest = said[...]
            for sentence in body {
                guard let at = rest.firstIndex(where: { $0.0 == sentence }) else {
                    Issue.record("round \(round) \(language): \(sentence) is in the body out of order or twice:\n\(note.markdown)"); break
                }
                #expect(rest[rest.startIndex..<at].allSatisfy { $0.1 != .content }, "round \(round): content skipped before \(sentence)")
                rest = rest[(at + 1)...]
            }
            #expect(rest.allSatisfy { $0.1 != .content }, "round \(round): content missing at the end:\n\(note.markdown)")
            // …with no steering sentence, and only content as a next step or the key.
            let kinds = Dictionary(said.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
            #expect(body.allSatisfy { kinds[$0] != .steering }, "round \(round):\n\(note.markdown)")
            #expect(steps.allSatisfy { kinds[$0] == .content }, "round \(round): a control sentence is a next step:\n\(note.markdown)")
            let key = sources.first { $0.id == fields.highlights.key }
            #expect(key.map { kinds[$0.text] == .content } ?? true, "round \(round): the key is \(key?.text ?? "")")
            checked += said.count
        }
        #expect(checked > 3_000)
    }
}
