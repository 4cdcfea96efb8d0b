import Decisions
import Foundation

extension LanguageModel {
    /// The model's probability that `text`, said by the person, is their whole turn: that its
    /// chat template closes the person's turn next rather than going on with more words. The
    /// final mark is removed first: at a pause whisper writes one almost always, and the model
    /// would only read it back.
    public func endOfTurnProbability(of text: String) throws -> Double? {
        let marker = "\u{2063}\u{2063}"
        let template = chatPrompt(system: "", user: marker)
        guard let range = template.range(of: marker) else { return nil }
        let closing = tokenize(String(template[range.upperBound...]), addSpecial: false)
        guard let endOfTurn = closing.first else { return nil }
        let said = text.trimmingCharacters(in: .whitespacesAndNewlines)
            .trimmingCharacters(in: CharacterSet(charactersIn: ".。!！?？…"))
        let tokens = tokenize(String(template[..<range.lowerBound]) + said, addSpecial: true)
        let logProbabilities = try nextTokenLogProbabilities(after: tokens)
        // A sentence closing next counts too: the model writes the mark before closing the turn.
        let closers = Set([endOfTurn] + [".", "?", "!", "。", "？", "！"].compactMap { tokenize($0, addSpecial: false).first })
        return closers.reduce(0) { $0 + Double(exp(logProbabilities[Int($1)])) }
    }
}
