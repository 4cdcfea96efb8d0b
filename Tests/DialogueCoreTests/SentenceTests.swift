import Testing
@testable import DialogueCore

@Suite struct SentenceTests {
    @Test func icuSplitsSentencesPerLanguage() {
        #expect(SentenceSplitter.sentences(in: "A new idea. Frozen meals for busy people!  Really?", language: "en")
            == ["A new idea.", "Frozen meals for busy people!", "Really?"])
        #expect(SentenceSplitter.sentences(in: "講演の感想です。とても良かった！また行きたい。", language: "ja")
            == ["講演の感想です。", "とても良かった！", "また行きたい。"])
        #expect(SentenceSplitter.sentences(in: "Réunion mardi. Le chantier est bloqué.", language: "fr").count == 2)
    }

    @Test func aTitleWithAFullStopEndsNoSentence() {
        #expect(SentenceSplitter.sentences(in: "I met Mr. Okafor today. He agreed.", language: "en")
            == ["I met Mr. Okafor today.", "He agreed."])
        #expect(SentenceSplitter.sentences(in: "La Sra. López vino. Y se fue.", language: "es") == ["La Sra. López vino.", "Y se fue."])
        #expect(SentenceSplitter.sentences(in: "Frau Dr. Hoffmann prüft das.", language: "de") == ["Frau Dr. Hoffmann prüft das."])
        #expect(SentenceSplitter.sentences(in: "Voir M. Dubois. Puis partir.", language: "fr") == ["Voir M. Dubois.", "Puis partir."])
        #expect(SentenceSplitter.sentences(in: "We need a new drum. Okafor has one.", language: "en").count == 2,
                "only a title joins, not any word before a full stop")
    }

    @Test func emptyAndWhitespaceAnswersHaveNoSentences() {
        #expect(SentenceSplitter.sentences(in: "", language: "en").isEmpty)
        #expect(SentenceSplitter.sentences(in: " \n\t ", language: "de").isEmpty)
    }

    @Test func emojiAndOddTextStayWhole() {
        #expect(SentenceSplitter.sentences(in: "😀🎉", language: "en") == ["😀🎉"])
        #expect(SentenceSplitter.sentences(in: "👨‍👩‍👧 family", language: "en") == ["👨‍👩‍👧 family"])
    }

    @Test func sourcesAreNumberedAcrossAnswersAndKeepTheirAnswer() {
        let sources = SentenceSplitter.sources(from: ["One. Two.", "", "Three."], language: "en")
        #expect(sources == [Source(id: 1, text: "One.", answerIndex: 0), Source(id: 2, text: "Two.", answerIndex: 0),
                            Source(id: 3, text: "Three.", answerIndex: 2)])
        #expect(SourcesJSON.encode(sources) == #"[{"id":1,"text":"One."},{"id":2,"text":"Two."},{"id":3,"text":"Three."}]"#)
    }

    @Test func sentencesAddBackUpToTheAnswer() {
        let answer = "First part… second part!? «Third» — fourth.\nFifth"
        let sentences = SentenceSplitter.sentences(in: answer, language: "fr")
        #expect(withoutWhitespace(sentences.joined()) == withoutWhitespace(answer))
    }

    @Test func controlCharactersAndEscapesAreRemoved() {
        #expect(UserText.sanitized("red \u{1B}[31mALERT\u{1B}[0m done") == "red ALERT done")
        #expect(UserText.sanitized("title \u{1B}]0;pwned\u{07}ok") == "title ok")
        #expect(UserText.sanitized("a\u{0}b\u{7F}c\u{9B}2Jd") == "abcd")
        #expect(UserText.sanitized("line\r\nnext\rlast\u{2028}x") == "line\nnext\nlast\nx")
        #expect(UserText.sanitized("tab\there") == "tab here")
        #expect(UserText.sanitized("evil\u{202E}txt.exe") == "eviltxt.exe")
        #expect(UserText.sanitized("family 👨‍👩‍👧 ok") == "family 👨‍👩‍👧 ok")
    }
}

@Suite struct ConversationJSONTests {
    @Test func encodingIsStableAndOrdered() throws {
        let conversation = Fixtures.conversation([("opening", "An app / a \"tool\"."), ("problem", "Line\nbreak é 日本")])
        let json = ConversationJSON.encode(conversation)
        #expect(json == #"[{"question":"opening","answer":"An app / a \"tool\"."},{"question":"problem","answer":"Line\nbreak é 日本"}]"#)
        #expect(try ConversationJSON.decode(json) == conversation)
        #expect(ConversationJSON.encode(Conversation()) == "[]")
    }

    @Test func unknownQuestionNamesAreRejected() {
        #expect(throws: (any Error).self) { try ConversationJSON.decode(#"[{"question":"marketing","answer":"x"}]"#) }
    }
}
