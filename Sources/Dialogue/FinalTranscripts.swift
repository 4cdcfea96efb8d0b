import DialogueCore
import Foundation
import Synchronization

/// The final passes of the answers kept so far, by turn: each one is journaled as soon as it is
/// done (so `recover` finds the better text), and the note's conversation takes them in at the end.
/// A final text that looks like it lost words (`FinalTranscripts.keepsWords`) is never used.
final class FinalTranscripts: Sendable {
    private struct Tracked: Sendable {
        let live: String
        let pass: any FinalPassing
    }
    private struct State: Sendable {
        var byTurn: [Int: Tracked] = [:]
        var stopped = false
    }
    private let state = Mutex(State())
    private let journal: any JournalWriting

    init(journal: any JournalWriting) { self.journal = journal }

    /// The answer of `turn` is now `live`, and `pass` will make its final text (nil: none will).
    func track(_ pass: (any FinalPassing)?, turn: Int, live: String) {
        state.withLock { state in
            state.byTurn[turn]?.pass.cancel()
            state.byTurn[turn] = pass.map { Tracked(live: live, pass: $0) }
        }
        guard let pass else { return }
        let journal = self.journal
        Task {
            guard let text = await pass.text(), Self.keepsWords(of: live, in: text) else { return }
            // Under the lock: a refusal (`stop`) after this line would otherwise race with it.
            state.withLock { state in
                guard !state.stopped, let tracked = state.byTurn[turn], tracked.live == live else { return }
                try? journal.append(.final(turn: turn, live: live, text: text))
            }
        }
    }

    /// Nothing more is journaled or waited for (a refusal: the words are not kept).
    func stop() {
        let passes = state.withLock { state in
            state.stopped = true
            defer { state.byTurn = [:] }
            return state.byTurn.values.map(\.pass)
        }
        passes.forEach { $0.cancel() }
    }

    /// `conversation` with each answer's final text where it has one: waited for when `waiting`
    /// and the answer `matters` (reporting `progress(done, total)` while some are not done),
    /// else only those done now; the others are cancelled. An answer that does not matter (it
    /// only ended the exchange, as heard live) keeps its live text: the final pass may word the
    /// ending otherwise ("Voilà, c'est tout." read again as "Voilà, pétou."), which the rules
    /// would not know for one and the note would keep as content.
    func refine(_ conversation: Conversation, waiting: Bool, matters: (Int) -> Bool = { _ in true },
                progress: (Int, Int) -> Void) async -> Conversation {
        let current = state.withLock { $0.byTurn }.filter { turn, entry in
            conversation.turns.indices.contains(turn) && conversation.turns[turn].answer == entry.live
        }
        for (turn, entry) in current where !matters(turn) { entry.pass.cancel() }
        let tracked = current.filter { matters($0.key) }
        var turns = conversation.turns
        let pending = Set(tracked.filter { !$0.value.pass.isDone }.keys)
        // Waiting, every pass is counted and awaited; otherwise only those done now.
        let total = waiting ? tracked.count : tracked.count - pending.count
        var done = waiting ? total - pending.count : total
        if done < total { progress(done, total) }
        for (turn, entry) in tracked.sorted(by: { $0.key < $1.key }) {
            guard waiting || !pending.contains(turn) else { entry.pass.cancel(); continue }
            let text = await entry.pass.soonText()
            if pending.contains(turn) { done += 1; progress(done, total) }
            if let text, Self.keepsWords(of: entry.live, in: text) {
                turns[turn] = Turn(question: turns[turn].question, answer: text)
            }
        }
        return Conversation(turns: turns)
    }

    /// Whether `final` can stand for `live`: not empty, and not much shorter. Beam search can end
    /// a hard clip early where greedy decoding went on; the live words are kept then.
    static func keepsWords(of live: String, in final: String) -> Bool {
        let finalLetters = final.letterCount
        return finalLetters > 0 && Double(finalLetters) >= 0.75 * Double(live.letterCount)
    }
}
