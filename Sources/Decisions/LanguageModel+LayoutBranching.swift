import CLlama
import DialogueCore
import Foundation

/// Layout decoding that only asks the model where it has a choice. Every ID, bracket and key
/// of the layout is fixed by the format; only the title flag and the separator between two
/// IDs ("," or "],[") are decisions. Forced pieces are appended as tokens without sampling,
/// and each decision compares the log-probabilities of the alternatives' first tokens after
/// one evaluation of the new suffix. The result is a valid partition by construction (and is
/// still validated by the caller).
extension LanguageModel {
    func branchLayout(prompt: String, format: PromptFormat, sourceCount n: Int,
                      cancel: (@Sendable () -> Bool)? = nil) throws -> String {
        precondition(n >= 1)
        let lead = format == .chat ? "" : " "
        var tokens = tokenize(prompt, addSpecial: true)
        var text = ""
        func force(_ piece: String) {
            tokens += tokenize(piece, addSpecial: false)
            text += piece
        }
        /// Index of the best alternative by the log-probability of its first token.
        func choose(_ alternatives: [String]) throws -> Int {
            if cancel?() == true { throw LanguageModelError.cancelled }
            let logProbabilities = try nextTokenLogProbabilities(after: tokens)
            var best = 0
            var bestScore = -Float.infinity
            for (index, alternative) in alternatives.enumerated() {
                guard let first = tokenize(alternative, addSpecial: false).first else { continue }
                let score = logProbabilities[Int(first)]
                if score > bestScore { best = index; bestScore = score }
            }
            return best
        }

        force(lead + #"{"firstSourceIsTitle":"#)
        let title = n >= 2 ? try choose(["true", "false"]) == 0 : false
        force(title ? #"true,"groups":[[1],["# : #"false,"groups":[["#)
        var first = title ? 2 : 1
        if n == 1 || (title && n == 2) {
            force(String(n))
        } else {
            force(String(first))
            var groupSize = 1
            first += 1
            for id in first...n {
                let newGroup = groupSize >= Layout.maxGroupSize ? true : try choose([",", "],["]) == 1
                force(newGroup ? "],[" : ",")
                groupSize = newGroup ? 1 : groupSize + 1
                force(String(id))
            }
        }
        force("]]}")
        return String(text.dropFirst(lead.count))
    }
}
