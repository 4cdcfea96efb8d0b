/// A clause that only takes leave of the talk: "we'll continue some other time", "talk soon",
/// "lass uns das ein anderes Mal fertig machen", "por hoy ya vale", "続きはまた次回に話しますね".
/// Every token belongs to a closed vocabulary (fillers, tails, pointers, glue, time frames)
/// around a core: a farewell or having said enough, going on with a time frame ("later",
/// "tomorrow"), or a closing word with a time frame. Going on without one asks to go on now
/// ("Okay, carry on.", "Nee, im Ernst, weiter."), which is no leave-taking.
/// Why a grammar rather than more phrases: the reasons people give for leaving are endless
/// ("my battery's dying", "que viene mi jefe"), but the clause that closes is short and made
/// of few words. One content word and it is not one: "we'll continue with the garden in May",
/// "I have to leave at six on Fridays", "6時には出ないと".
struct LeaveTaking: Sendable {
    let vocabulary: PhraseList
    let timeFrames: PhraseList
    let closers: PhraseList
    let continuations: SplitPhraseList
    let cores: SplitPhraseList

    private struct Found: OptionSet, Hashable {
        let rawValue: Int
        static let core = Found(rawValue: 1)
        static let time = Found(rawValue: 2)
        static let closer = Found(rawValue: 4)
        static let continuation = Found(rawValue: 8)
    }

    func takesLeave(_ clause: [String]) -> Bool {
        var reached: [Int: Set<Found>] = [0: [[]]]
        for position in 0..<clause.count {
            guard let states = reached[position] else { continue }
            var steps: [(Int, Found)] = []
            steps += vocabulary.matches(in: clause, at: position).map { (position + $0.tokens.count, []) }
            steps += timeFrames.matches(in: clause, at: position).map { (position + $0.tokens.count, .time) }
            steps += closers.matches(in: clause, at: position).map { (position + $0.tokens.count, .closer) }
            steps += coreEnds(cores, in: clause, at: position).map { ($0, .core) }
            steps += coreEnds(continuations, in: clause, at: position).map { ($0, .continuation) }
            for (end, found) in steps {
                for state in states { reached[end, default: []].insert(state.union(found)) }
            }
        }
        // A time frame may also sit inside a core's gap ("wir machen | ein andermal | weiter").
        let timed = clause.indices.contains { !timeFrames.matches(in: clause, at: $0).isEmpty }
        return (reached[clause.count] ?? []).contains { found in
            found.contains(.core) || found.isSuperset(of: [.time, .closer]) || timed && found.contains(.continuation)
        }
    }

    /// Where a core of `list` that starts at `start` can end: its parts in order, the gaps
    /// between them made of vocabulary and time frames ("wir reden | morgen | weiter").
    private func coreEnds(_ list: SplitPhraseList, in clause: [String], at start: Int) -> Set<Int> {
        var ends: Set<Int> = []
        for parts in list.entries where parts[0].occurs(in: clause, at: start) {
            var positions: Set<Int> = [start + parts[0].tokens.count]
            for part in parts.dropFirst() {
                let gapEnds = positions.flatMap(gapReach(in: clause))
                positions = Set(gapEnds.filter { part.occurs(in: clause, at: $0) }.map { $0 + part.tokens.count })
            }
            ends.formUnion(positions)
        }
        return ends
    }

    private func gapReach(in clause: [String]) -> (Int) -> Set<Int> {
        { from in
            var reached: Set<Int> = [from]
            for position in from..<clause.count where reached.contains(position) {
                for pattern in vocabulary.matches(in: clause, at: position) + timeFrames.matches(in: clause, at: position) {
                    reached.insert(position + pattern.tokens.count)
                }
            }
            return reached
        }
    }
}
