import Foundation

/// One phrase or keyword from a locale list, as tokens. A `*` at the start of the written
/// phrase lets its first token match the end of a word ("*besprechung"); a `*` at the end lets
/// its last token match the start of a word ("appli*").
struct TokenPattern: Sendable, Hashable {
    let tokens: [String]
    let matchesWordEnd: Bool
    let matchesWordStart: Bool

    init?(_ phrase: String) {
        var text = phrase.trimmingCharacters(in: .whitespaces)
        matchesWordEnd = text.hasPrefix("*")
        matchesWordStart = text.hasSuffix("*") && text.count > 1
        text = text.trimmingCharacters(in: CharacterSet(charactersIn: "*"))
        let tokens = MatchableText(text).tokens
        guard !tokens.isEmpty else { return nil }
        self.tokens = tokens
    }

    /// Whether the pattern occurs in `clause` starting at token `start`, ending by `end`.
    func occurs(in clause: [String], at start: Int, end: Int? = nil) -> Bool {
        guard start >= 0, start + tokens.count <= (end ?? clause.count) else { return false }
        for (offset, token) in tokens.enumerated() {
            let word = clause[start + offset]
            let isFirst = offset == 0, isLast = offset == tokens.count - 1
            switch (isFirst && matchesWordEnd, isLast && matchesWordStart) {
            case (true, true): if !word.contains(token) { return false }
            case (true, false): if !word.hasSuffix(token) { return false }
            case (false, true): if !word.hasPrefix(token) { return false }
            case (false, false): if word != token { return false }
            }
        }
        return true
    }
}

/// A compiled list of phrases, indexed by first token so matching stays cheap.
struct PhraseList: Sendable {
    let patterns: [TokenPattern]
    private let byFirstToken: [String: [TokenPattern]]
    private let withWordEnd: [TokenPattern]

    init(_ phrases: [String]) {
        patterns = phrases.compactMap(TokenPattern.init)
        byFirstToken = Dictionary(grouping: patterns.filter { !$0.matchesWordEnd }, by: { $0.tokens[0] })
        withWordEnd = patterns.filter(\.matchesWordEnd)
    }

    /// Patterns that occur in `tokens` at `start`, ending by `end`.
    func matches(in tokens: [String], at start: Int, end: Int? = nil) -> [TokenPattern] {
        guard start < (end ?? tokens.count) else { return [] }
        let candidates = (byFirstToken[tokens[start]] ?? []) + withWordEnd
        return candidates.filter { $0.occurs(in: tokens, at: start, end: end) }
    }

    /// Whether any phrase occurs anywhere in one clause of the text.
    func occurs(in text: MatchableText) -> Bool {
        text.clauses.contains(where: occurs(inClause:))
    }

    func occurs(inClause clause: [String]) -> Bool {
        clause.indices.contains { !matches(in: clause, at: $0).isEmpty }
    }

    /// Whether a phrase starts the clause, after nothing but `fillers` ("Okay, please delete that").
    func startsClause(_ clause: [String], after fillers: PhraseList) -> Bool {
        fillers.reachable(clause, from: 0).contains { $0 < clause.count && !matches(in: clause, at: $0).isEmpty }
    }

    /// Positions reachable from `from` by a sequence of zero or more phrases of this list.
    func reachable(_ tokens: [String], from: Int) -> Set<Int> {
        var reached: Set<Int> = [from]
        for position in from..<tokens.count where reached.contains(position) {
            for pattern in matches(in: tokens, at: position) { reached.insert(position + pattern.tokens.count) }
        }
        return reached
    }

    /// Whether `tokens[from..<to]` is a sequence of zero or more phrases of this list.
    func composes(_ tokens: [String], from: Int, to: Int) -> Bool {
        guard from < to else { return from == to }
        var reached: Set<Int> = [from]
        for position in from..<to where reached.contains(position) {
            for pattern in matches(in: tokens, at: position, end: to) { reached.insert(position + pattern.tokens.count) }
        }
        return reached.contains(to)
    }
}

/// Phrases whose parts may stand apart within one clause, written with "…": German separable
/// verbs ("nimm … auf" finds "nimm das bitte nicht auf"). An entry without "…" is a plain phrase.
struct SplitPhraseList: Sendable {
    let entries: [[TokenPattern]]

    init(_ phrases: [String]) {
        entries = phrases.compactMap { phrase in
            let parts = phrase.components(separatedBy: "\u{2026}").compactMap(TokenPattern.init)
            return parts.isEmpty ? nil : parts
        }
    }

    /// Whether some entry's parts occur in order within the clause.
    func occurs(inClause clause: [String]) -> Bool {
        occurs(inClause: clause, startingAt: nil, endingBy: nil)
    }

    /// Whether some entry occurs with its first part at `start`.
    func occurs(inClause clause: [String], at start: Int) -> Bool {
        occurs(inClause: clause, startingAt: [start], endingBy: nil)
    }

    /// Whether some entry starts the clause after nothing but `fillers`, or ends it with nothing
    /// but `tails` after it: where an imperative stands ("Please delete that", "lo de Marcos
    /// quítalo", "今のところは消してもらえますか"), not inside a description ("you can delete it").
    func standsAtEdge(of clause: [String], fillers: PhraseList, tails: PhraseList) -> Bool {
        let starts = fillers.reachable(clause, from: 0)
        return occurs(inClause: clause, startingAt: starts, endingBy: nil) || endsClause(clause, tails: tails)
    }

    /// Whether some entry ends the clause, with nothing but `tails` after it ("I'm absolutely
    /// wiped", "ich bin total durch heute").
    func endsClause(_ clause: [String], tails: PhraseList) -> Bool {
        occurs(inClause: clause, startingAt: nil, endingBy: { tails.composes(clause, from: $0, to: clause.count) })
    }

    private func occurs(inClause clause: [String], startingAt starts: Set<Int>?, endingBy end: ((Int) -> Bool)?) -> Bool {
        entries.contains { parts in
            var position = 0
            for (index, part) in parts.enumerated() {
                let candidates = index == 0 && starts != nil ? starts!.sorted() : Array(position..<max(position, clause.count))
                guard let found = candidates.first(where: { $0 >= position && part.occurs(in: clause, at: $0) }) else {
                    return false
                }
                position = found + part.tokens.count
            }
            return end?(position) ?? true
        }
    }
}

extension PhraseList {
    /// Whether the tokens end with one of the phrases ("…, and" ends with "and") of at least
    /// `minimumLength` tokens.
    func ends(_ tokens: [String], minimumLength: Int = 1) -> Bool {
        patterns.contains { $0.tokens.count >= minimumLength && $0.occurs(in: tokens, at: tokens.count - $0.tokens.count) }
    }
}
