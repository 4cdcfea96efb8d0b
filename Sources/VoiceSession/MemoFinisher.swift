import Dialogue
import DialogueCore
import Foundation
import Notes

/// The end of every exchange, recording and recovery, whatever ended it: the words so far
/// become a note, the person edits it and chooses (or `--yes` saves), and only then the
/// journal goes. A failed save keeps the journal so `dialogue-memo recover` can save it later.
public struct MemoFinisher: Sendable {
    let context: SessionContext
    /// Opens the note for editing and returns the edited text (the person's editor).
    let edit: @Sendable (String) throws -> String

    public enum Result: Sendable, Equatable { case saved(String), discarded, keptInJournal }

    public init(context: SessionContext, edit: @escaping @Sendable (String) throws -> String = { try Editor().edit($0) }) {
        self.context = context
        self.edit = edit
    }

    public func finish(note: String, title: String, created: Date, journal: FileJournal?) -> Result {
        let pack = context.pack, display = context.display, events = context.events
        events.emit(.note(markdown: note))
        var text = note
        if !context.configuration.saveWithoutAsking {
            do {
                let review = Review(pack: pack, display: display, edit: edit, input: context.input)
                switch try review.run(note) {
                case .discard:
                    journal?.remove()
                    display.line(pack.ui(.discarded))
                    events.emit(.discarded)
                    return .discarded
                case .save(let edited):
                    text = edited
                }
            } catch {
                // The editor failed: the note is saved as rendered rather than lost.
                display.error("\(error)")
            }
        } else {
            display.line()
            display.line(note)
        }
        do {
            let path = try context.store.save(text, created: created, title: title)
            journal?.remove()
            display.line(pack.ui(.saved, ["path": path]))
            events.emit(.saved(path: path))
            return .saved(path)
        } catch {
            let message = pack.ui(.saveFailed, ["path": context.store.directory, "reason": "\(error)",
                                               "journal": journal?.path ?? "-"])
            display.error(message)
            events.emit(.error(message: message))
            return .keptInJournal
        }
    }

    /// The title line of a rendered note (what the file name is made from).
    static func title(of note: String) -> String { NoteFile(path: "", text: note).title }
}
