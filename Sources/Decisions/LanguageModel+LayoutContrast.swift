import CLlama
import DialogueCore
import Foundation

/// Layout in one pass: the note is read once as a single paragraph
/// (`{"firstSourceIsTitle":false,"groups":[[1,2,…,N]]}`, all forced) and at every gap between
/// two IDs the model's log-odds of "],[" (new paragraph) over "," is taken. A paragraph
/// starts where that log-odds is above this note's own average: the tiny models prefer one
/// separator everywhere (SmolLM2 splits every sentence when decoding greedily), so the
/// absolute preference says little and the relative one says where the note turns.
/// The title flag is the model's preference of "true" over "false" at its place, and only
/// for a first sentence short enough to be a title (the renderer's own test).
///
/// `answerBreaks` (gaps after these IDs end an answer) with `answerPrior` β: the gap's
/// standardized log-odds gets +β at an answer break and −β elsewhere, so the answers' own
/// structure stands unless the model clearly disagrees: a paragraph ends inside an answer
/// only where the model's break preference is more than β standard deviations above the
/// note's average, and two answers join only where it is β below (β = 0: the model alone;
/// a large β: one paragraph per answer).
extension LanguageModel {
    func contrastLayout(prompt: String, format: PromptFormat, sourceCount n: Int,
                        answerBreaks: Set<Int> = [], answerPrior: Double = 0, titleAllowed: Bool = true,
                        deadline: Deadline = .unlimited) throws -> Layout {
        precondition(n >= 1)
        let lead = format == .chat ? "" : " "
        let promptTokens = tokenize(prompt, addSpecial: true)
        var forced: [llama_token] = []
        func force(_ piece: String) { forced += tokenize(piece, addSpecial: false) }
        force(lead + #"{"firstSourceIsTitle":"#)
        let titleIndex = forced.count - 1
        force(#"false,"groups":[["#)
        var gapIndices: [Int] = []
        for id in 1...n {
            force(String(id))
            if id < n {
                gapIndices.append(forced.count - 1)
                force(",")
            }
        }
        force("]]}")
        let comma = tokenize(",", addSpecial: false).first ?? 0
        let newGroup = tokenize("],[", addSpecial: false).first ?? 0
        let yes = tokenize("true", addSpecial: false).first ?? 0
        let no = tokenize("false", addSpecial: false).first ?? 0
        try deadline.check()
        let table = try candidateLogProbabilities(promptTokens: promptTokens, forced: forced,
                                                  at: [titleIndex] + gapIndices, candidates: [comma, newGroup, yes, no])
        try deadline.check()
        let title = n >= 2 && titleAllowed && table[0][2] > table[0][3]
        let odds = table.dropFirst().map { Double($0[1] - $0[0]) }
        if DecisionService.traceScores {
            FileHandle.standardError.write(Data("layout {\"n\":\(n),\"title\":\(table[0][2] - table[0][3]),\"odds\":\(odds)}\n".utf8))
        }
        let mean = odds.isEmpty ? 0 : odds.reduce(0, +) / Double(odds.count)
        let variance = odds.isEmpty ? 0 : odds.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(odds.count)
        let spread = max(variance.squareRoot(), 1e-6)
        func score(_ gap: Int) -> Double {
            (odds[gap - 1] - mean) / spread + (answerBreaks.contains(gap) ? answerPrior : -answerPrior)
        }
        var groups: [[Int]] = [[1]]
        for id in stride(from: 2, through: n, by: 1) {
            let split = (title && id == 2) || score(id - 1) > 0 || groups[groups.count - 1].count >= Layout.maxGroupSize
            if split { groups.append([id]) } else { groups[groups.count - 1].append(id) }
        }
        return Layout(firstSourceIsTitle: title, groups: groups)
    }
}
