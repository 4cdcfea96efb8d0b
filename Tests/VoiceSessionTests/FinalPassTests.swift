import Testing
@testable import VoiceSession

/// The final pass reads an answer again without a prompt when whisper gave the prompt back.
@Suite struct FinalPassTests {
    /// The CI run where answer 2's final text was answer 1's again, and the note lost answer 2.
    @Test func aJapaneseAnswerReadAsTheOneBeforeItIsACopy() {
        let before = "あたらしアポリワイヘアラリマス キサイオミセの予約を単に引いたいヘス"
        #expect(FinalPass.copies(before, in: "マイヘアラリマス キサイオミセの予約を単に引いたいヘス"))
        #expect(!FinalPass.copies(before, in: "毎日、電話で予約を受けるのは大変です。"))
    }

    @Test func differentSentencesOfOnePersonAreNoCopy() {
        let pairs = [
            ("I want to build a small app for sharing tools with my neighbors.",
             "First I would test it with ten neighbors on my street."),
            ("Quiero abrir una panadería pequeña en mi barrio.",
             "El problema es que el alquiler del local es muy caro."),
            ("Ich möchte eine App für den Verleih von Werkzeug bauen.",
             "Zuerst frage ich die Nachbarn in meiner Straße, ob sie mitmachen."),
        ]
        for (prompt, text) in pairs {
            #expect(!FinalPass.copies(prompt, in: text), "\(text)")
            #expect(FinalPass.copies(prompt, in: prompt.uppercased()), "case is folded: \(prompt)")
        }
    }

    @Test func aShortTextIsNeverCalledACopy() {
        #expect(!FinalPass.copies("Yes, yes.", in: "Yes."))
        #expect(!FinalPass.copies("", in: ""))
    }
}
