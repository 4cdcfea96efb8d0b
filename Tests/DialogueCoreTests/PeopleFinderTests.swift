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

    @Test func aBusinessNamedAfterAPersonIsNoPerson() throws {
        #expect(try names(["I called Hartley Plumbing and Tony's Garage, then Nadia."], "en") == ["Nadia"])
        #expect(try names(["Ich frage Ole, ob Druckerei Lammers offen hat."], "de") == ["Ole"])
        #expect(try names(["Llamé a Reformas Molina y a Pilar."], "es") == ["Pilar"])
        #expect(try names(["J'ai appelé Plomberie Garnier pour Léa."], "fr") == ["Léa"])
    }

    @Test func aTitleMakesItsWordANameWhateverElseItMeans() throws {
        #expect(try names(["J'ai vu Mme Petit et M. Blanc."], "fr") == ["Mme Petit", "M. Blanc"])
        #expect(try names(["Herr Mai kommt morgen."], "de") == ["Herr Mai"])
        #expect(try names(["Father O'Malley met Mrs. O'Brien."], "en") == ["Father O'Malley", "Mrs. O'Brien"])
    }

    @Test func thatBeforeASubjectIsNoArticle() throws {
        #expect(try names(["Tell Oliver that Victoria is coming, and buy that Lego set."], "en") == ["Oliver", "Victoria"])
    }

    @Test func aPrepositionOfPlaceOrOwnerYieldsToANameKnownElsewhere() throws {
        #expect(try names(["Vamos a casa de Andrés. Andrés dice que sí."], "es") == ["Andrés", "Andrés"])
        #expect(try names(["Vuelvo de Valencia con Andrés. Andrés dice que sí."], "es") == ["Andrés", "Andrés"])
        #expect(try names(["On fête l'anniversaire de Maxime chez Paul. Maxime a trente ans."], "fr") == ["Maxime", "Maxime"])
        #expect(try names(["Der Vater von Emil kommt. Emil freut sich."], "de") == ["Emil", "Emil"])
        #expect(try names(["La madre de Lucas llama."], "es") == ["Lucas"], "a relation of someone names a person")
    }

    @Test func aDeterminerAndANounBeforeACapitalMakeABrand() throws {
        #expect(try names(["On prend la salle Zoom avec Léa."], "fr") == ["Léa"])
        #expect(try names(["Compré una tableta Samsung para Irene."], "es") == ["Irene"])
    }

    @Test func germanInvertedAndVerbFinalCues() throws {
        #expect(try names(["Wenn es regnet, holt Jens sie ab. Ich muss Jan anrufen. Dann frag ich Lorenz."], "de")
            == ["Jens", "Jan", "Lorenz"])
        #expect(try names(["Katrins Bruder Fabian kommt auch."], "de") == ["Fabian"], "a role parts a run of capitals")
    }

    @Test func japaneseStemsVerbalNounsAndHonorificsAfterKanaNames() throws {
        #expect(try names(["全部決めた。", "代表の松本くんと相談しました。"], "ja") == ["松本くん"])
        #expect(try names(["スミス様とキム先生に会う。"], "ja") == ["スミス様", "キム先生"])
        #expect(try names(["副代表のあやかちゃんが来る。", "おばあちゃんとみなさんに聞く。"], "ja") == ["あやかちゃん"])
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
