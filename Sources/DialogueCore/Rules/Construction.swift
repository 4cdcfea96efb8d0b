/// A clause built from a few word classes in order, with only closed-class words around and
/// between them: "so | we can | probably | end | the session | now", "wir können | jetzt |
/// aufhören", "これで | 終わりにし | てください". Why a construction rather than more phrases:
/// each class is a short list, and they combine freely ("we could wrap up here", "ya podemos
/// terminar aquí"), where a phrase list needs every combination spelled out and misses the
/// next one. One content word and it is not one: "we can end the contract in May".
struct Construction: Sendable {
    /// The classes in the order they stand; another order may be listed (Japanese puts the
    /// frame after the verb).
    let orders: [[PhraseList]]
    /// The closed-class words that may stand around and between the classes.
    let vocabulary: PhraseList

    func matches(_ clause: [String]) -> Bool {
        orders.contains { slots in
            // reached[position] = how many classes are filled when that position is reached
            var reached: [Int: Set<Int>] = [0: [0]]
            for position in 0..<clause.count {
                guard let filled = reached[position] else { continue }
                for pattern in vocabulary.matches(in: clause, at: position) {
                    reached[position + pattern.tokens.count, default: []].formUnion(filled)
                }
                for slot in filled where slot < slots.count {
                    for pattern in slots[slot].matches(in: clause, at: position) {
                        reached[position + pattern.tokens.count, default: []].insert(slot + 1)
                    }
                }
            }
            return reached[clause.count]?.contains(slots.count) ?? false
        }
    }
}
