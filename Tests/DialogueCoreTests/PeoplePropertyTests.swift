import Foundation
import Testing
@testable import DialogueCore

/// Whatever the sentences, the finder only points into them: every mention is a range of its
/// own sentence and its text is exactly that range's, so no name is ever invented or altered.
@Suite struct PeoplePropertyTests {
    /// Name-shaped words, titles, honorifics, cue words and whatever could trip an offset:
    /// accents (precomposed and combining), scripts, emoji, apostrophes, hyphens, odd spaces.
    static let pieces = [
        "Tom", "Frau", "Herrn", "Mr.", "Sra.", "M.", "Mme", "Dr.", "Auntie", "my", "meine", "Tante", "Müller", "Zoë",
        "Jose\u{301}", "O'Neil", "Jean-Luc", "Ninas", "Nina", "Auto", "Monday", "Friday", "the", "der", "to", "nach",
        "and", "und", "y", "et", "ask", "frage", "said", "hat", "wants", "Street", "Café", "さん", "先生", "くん", "田中",
        "ケンジ", "千葉", "田中さん", "ユキちゃん", "に聞く", "と", "、", "。", "の", "屋", "員", "お", "Ω", "Владимир", "🙂", "👨\u{200D}👩\u{200D}👧",
        "'s", "’s", "-", ",", ".", ":", " ", " ", "\u{A0}", "\u{3000}", "\t", "\n", "\"", "(", ")", "\u{200B}", "Ⅻ", "ﬁ",
    ]

    static func sentence(_ random: inout SeededRandom) -> String {
        (0..<Int.random(in: 1...14, using: &random)).map { _ in
            let piece = pieces.randomElement(using: &random)!
            return Bool.random(using: &random) ? piece + " " : piece
        }.joined()
    }

    @Test(arguments: ["en", "de", "es", "fr", "ja"])
    func everyMentionIsASpanOfItsOwnSentence(language: Language) throws {
        let finder = try Fixtures.pack(language).people
        var random = SeededRandom(seed: 0x9E0_91E5 &+ UInt64(language.code.unicodeScalars.first!.value))
        var found = 0
        for round in 0..<400 {
            let sources = (0..<Int.random(in: 1...5, using: &random)).enumerated().map { index, _ in
                Source(id: index + 1, text: Self.sentence(&random), answerIndex: 0)
            }
            let mentions = finder.mentions(in: sources)
            found += mentions.count
            for mention in mentions {
                let text = try #require(sources.first { $0.id == mention.sentence }?.text, "round \(round)") as NSString
                #expect(mention.range.lowerBound >= 0 && mention.range.upperBound <= text.length && !mention.range.isEmpty,
                        "round \(round): \(mention)")
                #expect(text.substring(with: NSRange(location: mention.range.lowerBound, length: mention.range.count)) == mention.text,
                        "round \(round): \(mention)")
            }
            for (a, b) in zip(mentions, mentions.dropFirst()) where a.sentence == b.sentence {
                #expect(a.range.upperBound <= b.range.lowerBound, "round \(round): mentions overlap")
            }
            #expect(finder.names(in: sources).allSatisfy { name in mentions.contains { $0.text == name } }, "round \(round)")
            #expect(finder.mentions(in: sources) == mentions, "round \(round): the same sentences, the same mentions")
        }
        #expect(found > 100, "the random sentences must name people for the property to say anything")
    }
}
