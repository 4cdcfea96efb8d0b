import Dialogue
import DialogueCore
import Foundation
import Notes

/// The end of every exchange, whatever ended it: the words so far become a note, the person
/// edits it and chooses (or `--yes` saves), and only then the journal goes. A failed save keeps
/// the journal so `dialogue-memo recover` can save it later.
struct MemoFinisher {
    let pack: LanguagePack
    let screen: Screen
    let events: EventLog
    let store: NotesStore
    let saveWithoutAsking: Bool
    let input: LineInput

    enum Result: Equatable { case saved(String), discarded, keptInJournal }

    func finish(note: String, title: String, created: Date, journal: FileJournal?) -> Result {
        events.emit("note", ["markdown": note])
        var text = note
        if !saveWithoutAsking {
            do {
                let review = Review(pack: pack, screen: screen, editor: Editor(), input: input)
                switch try review.run(note) {
                case .discard:
                    journal?.remove()
                    screen.line(pack.ui(.discarded))
                    events.emit("discarded")
                    return .discarded
                case .save(let edited):
                    text = edited
                }
            } catch {
                // The editor failed: the note is saved as rendered rather than lost.
                screen.error("\(error)")
            }
        } else {
            screen.line()
            screen.line(note)
        }
        do {
            let path = try store.save(text, created: created, title: title)
            journal?.remove()
            screen.line(pack.ui(.saved, ["path": path]))
            events.emit("saved", ["path": path])
            return .saved(path)
        } catch {
            let message = pack.ui(.saveFailed, ["path": store.directory, "reason": "\(error)",
                                               "journal": journal?.path ?? "-"])
            screen.error(message)
            events.emit("error", ["message": message])
            return .keptInJournal
        }
    }

    /// The title line of a rendered note (what the file name is made from).
    static func title(of note: String) -> String { NoteFile(path: "", text: note).title }
}
