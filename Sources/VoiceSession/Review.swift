import DialogueCore
import Foundation

/// The review loop after an exchange: edit → show → save / edit again / discard. Reads
/// single-letter answers in the interface language. Nothing is saved without the save key:
/// the end of input (Ctrl-D) and Ctrl-C mean "not yet", and the note is kept for `recover`.
struct Review {
    let pack: LanguagePack
    let display: any SessionDisplay
    let edit: (String) throws -> String
    let input: LineInput
    /// Whether Ctrl-C came since the review began.
    let interrupted: () -> Bool

    enum Verdict: Equatable {
        case save(String)
        case discard
        /// Not saved yet (Ctrl-D, Ctrl-C): the text as it stands, for `recover`.
        case keep(String)
    }

    /// `refused`: the person refused to be recorded; the prompt says what is kept, and Enter
    /// (or an explicit discard key, with no confirmation) discards. `editFirst` false: the note
    /// is shown and the prompt asked before any editor (the person chose to keep words they had
    /// refused, and did not ask for the editor).
    func run(_ note: String, refused: Bool = false, editFirst: Bool = true) throws -> Verdict {
        var text = editFirst ? try edit(note) : note
        while true {
            display.line()
            display.line(pack.ui(.noteReady))
            display.line(text)
            display.line(pack.ui(refused ? .refusedReview : .savePrompt))
            guard let reply = input.readLine(cancelled: interrupted)?.trimmingCharacters(in: .whitespaces).lowercased() else {
                return .keep(text)
            }
            if reply == pack.ui(.keySave) { return .save(text) }
            if reply == pack.ui(.keyEdit) { text = try edit(text); continue }
            if refused && (reply.isEmpty || reply == pack.ui(.keyDiscard)) { return .discard }
            if reply == pack.ui(.keyDiscard) {
                display.line(pack.ui(.confirmDiscard))
                guard let confirm = input.readLine(cancelled: interrupted) else { return .keep(text) }
                if confirm.trimmingCharacters(in: .whitespaces).lowercased() == pack.ui(.keyYes) { return .discard }
                continue
            }
            display.line(keysHint)
        }
    }

    /// "Press s to save, e to edit again or d to discard."
    var keysHint: String {
        pack.ui(.reviewKeys, ["save": pack.ui(.keySave), "edit": pack.ui(.keyEdit), "discard": pack.ui(.keyDiscard)])
    }
}
