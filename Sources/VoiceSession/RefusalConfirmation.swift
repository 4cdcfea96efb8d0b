import Dialogue
import DialogueCore
import Foundation

/// Asks a person at a terminal before a refusal discards their words. The rules and the model
/// read "don't keep this" from words, and words misread cost everything: "None of this should be
/// stored in the cloud" is a product requirement. So the refused words wait in memory, nothing on
/// disk, until the person answers. Enter or yes discards, as they asked; so do Ctrl-C and the end
/// of input (Ctrl-D). No keeps the words; edit opens them in the editor. Any other reply says
/// which keys work and asks again, until one of these comes.
struct RefusalConfirmation {
    let pack: LanguagePack
    let display: any SessionDisplay
    let input: LineInput
    /// Whether Ctrl-C came since the question was first asked.
    let interrupted: () -> Bool
    /// The English keys, also taken: a person used to English prompts types y or n by habit.
    /// The interface language's own keys come first where a letter is both.
    let fallback: LanguagePack?

    /// For a session: its language, display and input; a Ctrl-C from now on discards.
    init(context: SessionContext, interrupts: Interrupts) {
        let start = interrupts.count
        self.init(pack: context.pack, display: context.display, input: context.input,
                  interrupted: { interrupts.count > start },
                  fallback: try? LanguagePackLoader().load(Language.english))
    }

    init(pack: LanguagePack, display: any SessionDisplay, input: LineInput, interrupted: @escaping () -> Bool,
         fallback: LanguagePack?) {
        self.pack = pack
        self.display = display
        self.input = input
        self.interrupted = interrupted
        self.fallback = fallback
    }

    enum Verdict: Equatable, Sendable {
        case discard
        /// The words go back; the review's prompt comes next.
        case keep
        /// The words go back; the editor opens first.
        case edit
    }

    func ask(about scope: RefusalScope) -> Verdict {
        while true {
            display.line()
            display.line(pack.ui(scope == .everything ? .refusalConfirmAll : .refusalConfirmAnswer))
            guard let reply = input.readLine(cancelled: interrupted) else { return .discard }
            if let verdict = verdict(for: reply) { return verdict }
            display.line(pack.ui(.refusalKeys, ["yes": pack.ui(.keyYes), "no": pack.ui(.keyNo), "edit": pack.ui(.keyEdit)]))
        }
    }

    /// What a typed reply means; nil when it is none of the keys.
    func verdict(for reply: String) -> Verdict? {
        let key = reply.trimmingCharacters(in: .whitespaces).lowercased()
        if key.isEmpty { return .discard }
        for keys in [pack, fallback].compactMap({ $0 }) {
            if key == keys.ui(.keyYes) { return .discard }
            if key == keys.ui(.keyNo) { return .keep }
            if key == keys.ui(.keyEdit) { return .edit }
        }
        return nil
    }
}

extension FileJournal {
    /// A new journal for `memo` holding `conversation` and its `note`: words a person took back
    /// after a refusal are journaled from then on like any exchange's. `recover` returns the note
    /// as it is (rebuilt from the answers, the rules would drop the refusing words again). nil
    /// when it cannot be written: the review still runs, and keeping the note makes one then.
    static func start(_ memo: Memo, holding conversation: Conversation, note: String, in directory: String) -> FileJournal? {
        guard let journal = try? start(memo, in: directory) else { return nil }
        for turn in conversation.turns {
            try? journal.append(.asked(turn.question))
            try? journal.append(.answered(turn.answer))
        }
        try? journal.append(.edited(note))
        return journal
    }
}
