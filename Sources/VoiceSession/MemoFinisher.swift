import Dialogue
import DialogueCore
import Foundation
import Notes

/// The end of every exchange, recording and recovery, whatever ended it: the words so far
/// become a note, the person edits it and chooses (or `--yes` saves), and only then the
/// journal goes. Nothing is saved without the save key (or `--yes`); a note not saved yet,
/// or one whose save failed, stays in the journal with the person's edits, for `recover`.
public struct MemoFinisher: Sendable {
    let context: SessionContext
    /// Notices a Ctrl-C at the prompts.
    let interrupts: Interrupts
    /// Opens the note for editing and returns the edited text (the person's editor).
    let edit: @Sendable (String) throws -> String

    public enum Result: Sendable, Equatable { case saved(String), discarded, keptInJournal }

    public init(context: SessionContext, interrupts: Interrupts,
                edit: (@Sendable (String) throws -> String)? = nil) {
        self.context = context
        self.interrupts = interrupts
        let editor = Editor(configured: context.configuration.editor)
        self.edit = edit ?? { try editor.edit($0) }
    }

    /// `refused`: the person refused to be recorded; the refused words are already gone, and
    /// what is left is discarded unless they choose to save it (`--yes` discards it).
    /// `editFirst` false: the review shows the note and asks before opening the editor.
    public func finish(note: String, title: String, memo: Memo, journal: FileJournal?, refused: Bool = false,
                       editFirst: Bool = true) -> Result {
        let pack = context.pack, display = context.display, events = context.events
        events.emit(.note(markdown: note))
        guard !context.configuration.saveWithoutAsking else {
            if refused { return discard(journal, refused: true) }
            display.line()
            display.line(note)
            return save(note, title: title, memo: memo, journal: journal)
        }
        let start = interrupts.count
        let review = Review(pack: pack, display: display, edit: edit, input: context.input,
                            interrupted: { interrupts.count > start })
        do {
            switch try review.run(note, refused: refused, editFirst: editFirst) {
            case .discard: return discard(journal, refused: refused)
            case .keep(let text): return keep(text, memo: memo, journal: journal)
            case .save(let text): return save(text, title: title, memo: memo, journal: journal)
            }
        } catch {
            // The editor failed: the note is saved as rendered rather than lost (unless the
            // person refused: then only their explicit word saves anything).
            display.error("\(error)")
            return refused ? discard(journal, refused: true) : save(note, title: title, memo: memo, journal: journal)
        }
    }

    private func discard(_ journal: FileJournal?, refused: Bool) -> Result {
        journal?.remove()
        context.display.line(context.pack.ui(refused ? .refusedDiscarded : .discarded))
        context.events.emit(.discarded)
        return .discarded
    }

    /// Saves, and on failure offers retry, another folder, discard or keeping it for
    /// `recover`; the edited text is journaled before anything is asked.
    private func save(_ text: String, title: String, memo: Memo, journal: FileJournal?) -> Result {
        let pack = context.pack, display = context.display
        var store = context.store
        var journal = journal
        while true {
            do {
                let path = try store.save(text, created: memo.created, title: title)
                journal?.remove()
                display.line(pack.ui(.saved, ["path": path]))
                context.events.emit(.saved(path: path))
                return .saved(path)
            } catch {
                journal = keepEdited(text, memo: memo, journal: journal)
                let values = ["path": store.directory, "reason": "\(error)", "journal": journal?.path ?? "-"]
                context.events.emit(.error(message: pack.ui(.saveFailed, values)))
                if context.configuration.saveWithoutAsking {
                    display.error(pack.ui(.saveFailed, values))
                    return .keptInJournal
                }
                display.error(pack.ui(.saveFailedChoice, values))
                let start = interrupts.count
                let reply = context.input.readLine(cancelled: { interrupts.count > start })?
                    .trimmingCharacters(in: .whitespaces).lowercased()
                if reply == pack.ui(.keyRetry) { continue }
                if reply == pack.ui(.keyElsewhere) {
                    display.line(pack.ui(.saveElsewherePrompt))
                    if let folder = context.input.readLine()?.trimmingCharacters(in: .whitespaces), !folder.isEmpty {
                        store = NotesStore(directory: (folder as NSString).expandingTildeInPath)
                    }
                    continue
                }
                if reply == pack.ui(.keyDiscard) { return discard(journal, refused: false) }
                display.line(pack.ui(.keptForRecover, ["journal": journal?.path ?? "-"]))
                return .keptInJournal
            }
        }
    }

    /// Not saved yet: the text stays in the journal for `recover`.
    private func keep(_ text: String, memo: Memo, journal: FileJournal?) -> Result {
        let journal = keepEdited(text, memo: memo, journal: journal)
        context.display.line(context.pack.ui(.keptForRecover, ["journal": journal?.path ?? "-"]))
        return .keptInJournal
    }

    /// Journals the edited note (in a new journal when the exchange had none, or its journal
    /// was deleted), so `recover` returns the person's own edits.
    private func keepEdited(_ text: String, memo: Memo, journal: FileJournal?) -> FileJournal? {
        if let journal, (try? journal.append(.edited(text))) != nil { return journal }
        guard let fresh = try? FileJournal.start(memo, in: context.configuration.journalDirectory) else { return nil }
        try? fresh.append(.edited(text))
        return fresh
    }

    /// The title line of a note read back (a recovered journal may hold the person's own edits,
    /// title included); a fresh rendering says its title itself (`RenderedNote.title`).
    static func title(of note: String) -> String { NoteFile(path: "", text: note).title }
}
