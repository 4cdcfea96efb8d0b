import Foundation
import Testing
@testable import DialogueCore

/// The name finder on sentences written for these tests (the labelled sets are measured by
/// `eval people` and `PeopleEvaluationTests`): what each kind of cue does, in each language.
@Suite struct PeopleFinderTests {
    func names(_ answers: [String], _ language: Language) throws -> [String] {
        let sources = SentenceSplitter.sources(from: answers, language: language)
        return try Fixtures.pack(language).people.mentions(in: sources).map(\.text)
    }

    @Test func titlesAndHonorificsStayWithTheName() throws {
        #expect(try names(["Ask Mrs. Kowalski about the keys."], "en") == ["Mrs. Kowalski"])
        #expect(try names(["Ich rufe Herrn Baumann an. Frau Dr. Lindqvist kommt später."], "de")
            == ["Herrn Baumann", "Frau Dr. Lindqvist"])
        #expect(try names(["Hablé con la Sra. Ibáñez y con don Rigoberto."], "es") == ["Sra. Ibáñez", "don Rigoberto"])
        #expect(try names(["J'ai vu M. Lemaire et Mme Caron."], "fr") == ["M. Lemaire", "Mme Caron"])
        #expect(try names(["明日、岡田さんと西川先生に会う。"], "ja") == ["岡田さん", "西川先生"])
    }

    @Test func aRelationBeforeANameIsATitleOnlyWithoutAPossessive() throws {
        #expect(try names(["We visit Auntie Bea on Sunday."], "en") == ["Auntie Bea"])
        #expect(try names(["We visit my aunt Bea on Sunday."], "en") == ["Bea"])
        #expect(try names(["Am Sonntag besuchen wir Oma Gerda."], "de") == ["Oma Gerda"])
        #expect(try names(["Am Sonntag besuchen wir meine Oma Gerda."], "de") == ["Gerda"])
        #expect(try names(["妹の千夏が来る。"], "ja") == ["千夏"])
    }

    @Test func capitalisedWordsThatAreNoPersonAreLeftOut() throws {
        #expect(try names(["Honestly, on Monday in June we drive to Denver with Pete."], "en") == ["Pete"])
        #expect(try names(["The Nikon camera is at the Hilton on Maple Street."], "en").isEmpty)
        #expect(try names(["I pitched it to Boeing the company, not to Ms. Boeing."], "en") == ["Ms. Boeing"])
        #expect(try names(["El martes vamos a Valencia con Irene."], "es") == ["Irene"])
        #expect(try names(["Mardi, on part à Nantes avec Léa. On passe à la boulangerie Marcel."], "fr") == ["Léa"])
    }

    @Test func germanNounsNeedACueAndFullNamesNeedNone() throws {
        #expect(try names(["Die Werkstatt hat am Montag Zeit, der Mechaniker auch."], "de").isEmpty)
        #expect(try names(["Ich frage Ole, ob Paula Wendt mitkommt."], "de") == ["Ole", "Paula Wendt"])
        #expect(try names(["Ole hat das Auto. Wir fahren nach Bremen."], "de") == ["Ole"])
    }

    @Test func aNameOnceKnownIsKnownWhereverNoCueSaysOtherwise() throws {
        #expect(try names(["Priscilla wants a lift.", "I will call Priscilla."], "en") == ["Priscilla", "Priscilla"])
        #expect(try names(["Zoran zieht um.", "Ich frag Zoran."], "de") == ["Zoran", "Zoran"])
        #expect(try names(["Ich frag Nina. Ninas Auto ist kaputt."], "de") == ["Nina", "Nina"], "a genitive's s is no part of the name")
        #expect(try names(["千葉に行って、千葉さんに会う。"], "ja") == ["千葉さん"])
        #expect(try names(["木村先生と美紀に電話する。美紀は来る。"], "ja") == ["木村先生", "美紀", "美紀"])
    }

    @Test func japaneseRolesShopsAndVerbsAreNoNames() throws {
        #expect(try names(["用務員さんとパン屋さんに聞く。", "お母さんが書くんだって。"], "ja").isEmpty)
    }

    @Test func mentionsAreRangesOfTheirSentence() throws {
        let sources = SentenceSplitter.sources(from: ["Okay. I told Dana, and Mr. Okafor agreed."], language: "en")
        let mentions = try Fixtures.pack("en").people.mentions(in: sources)
        #expect(mentions.map(\.sentence) == [2, 2])
        for mention in mentions {
            let text = try #require(sources.first { $0.id == mention.sentence }?.text) as NSString
            #expect(text.substring(with: NSRange(location: mention.range.lowerBound, length: mention.range.count)) == mention.text)
        }
    }

    @Test func theNoteNamesEachPersonOnceUnlessSpelledOtherwise() throws {
        let sources = SentenceSplitter.sources(from: ["Jon and John came.", "Then Jon left.", "Mr. Müller and Mr. Muller stayed."],
                                               language: "en")
        #expect(try Fixtures.pack("en").people.names(in: sources) == ["Jon", "John", "Mr. Müller"])
    }
}
