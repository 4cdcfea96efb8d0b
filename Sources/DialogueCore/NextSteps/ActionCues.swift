import Foundation

/// A deterministic guess at whether a sentence is a next step, from the words people use for
/// one in its language (`actionCues` in the language file): intention and obligation ("I'll",
/// "need to", "voy a", "il faut", "muss", "予定"), a command at the start ("Call the hotel…"), or
/// a time still to come ("tomorrow", "el lunes", "来週"); a time already past ("yesterday",
/// "ayer", "昨日") vetoes it. A command counts after a leading time or condition too ("Before
/// Friday, send…"), and a need only when what is needed is something to do ("necesitamos
/// comprar sillas", not "necesitamos más sillas").
public struct ActionCues: @unchecked Sendable {
    /// `actionCues` in a language file: regular expressions, case ignored.
    public struct Patterns: Decodable, Sendable, Hashable {
        /// Any of these makes the sentence a next step.
        public var intent: [String]
        /// Any of these makes it none, whatever else it says.
        public var past: [String]
    }

    let intent: [NSRegularExpression]
    let past: [NSRegularExpression]

    /// No cues: a language without a pack has no next steps by rule.
    public static let none = ActionCues(intent: [], past: [])

    init(intent: [NSRegularExpression], past: [NSRegularExpression]) {
        (self.intent, self.past) = (intent, past)
    }

    /// Throws the first pattern that is no regular expression, with its key.
    public init(_ patterns: Patterns) throws(InvalidPattern) {
        func compile(_ key: String, _ list: [String]) throws(InvalidPattern) -> [NSRegularExpression] {
            var compiled: [NSRegularExpression] = []
            for (index, pattern) in list.enumerated() {
                compiled.append(try .languagePattern(pattern, key: "actionCues.\(key).\(index)"))
            }
            return compiled
        }
        self.init(intent: try compile("intent", patterns.intent), past: try compile("past", patterns.past))
    }

    /// 1 when the sentence reads as a next step, else 0 (a score, so it can weigh against the
    /// model's log-odds).
    public func score(_ sentence: String) -> Double {
        let text = sentence.replacingOccurrences(of: "’", with: "'")
        if past.contains(where: { $0.matches(text) }) { return 0 }
        return intent.contains { $0.matches(text) } ? 1 : 0
    }

    /// `score` with the cues of `language` as the standard search finds its file
    /// (`LanguagePackLoader.standardPack`); 0 in a language without one.
    public static func score(_ sentence: String, language: Language) -> Double {
        (LanguagePackLoader.standardPack(language)?.actionCues ?? .none).score(sentence)
    }
}
