import DialogueCore
import Foundation
import Notes
import VoiceSession

/// `list`, `show`, `search`, `delete`, `edit`: the notes folder from the command line.
enum NotesCommands {
    static let usage = """
    Usage:
      dialogue-memo list [--json] [--notes-dir DIR]          saved notes, newest first
      dialogue-memo show ID [--notes-dir DIR]                print a note (ID: any unique prefix)
      dialogue-memo search QUERY [--json] [--notes-dir DIR]  title and body; case, accents and width ignored
      dialogue-memo delete ID [--yes] [--notes-dir DIR]      delete a note (asks first unless --yes)
      dialogue-memo edit ID [--notes-dir DIR]                open a note in $VISUAL / $EDITOR
    """

    static func run(_ command: String, _ arguments: [String]) async throws -> Int32 {
        let options = try Options.command(arguments, flags: ["--json", "--yes"], values: ["--notes-dir"], usage: usage)
        let store = NotesStore(directory: options.values["--notes-dir"] ?? NotesStore.defaultDirectory)
        let needsArgument = command != "list"
        guard options.positional.count == (needsArgument ? 1 : 0) else {
            printError(needsArgument ? "\(command) needs one \(command == "search" ? "QUERY" : "ID").\n\n\(usage)"
                                     : "list takes no arguments.\n\n\(usage)")
            return 2
        }
        let argument = options.positional.first ?? ""
        do {
            switch command {
            case "list": printNotes(try store.list(), json: options.flags.contains("--json"), empty: "No notes yet in \(store.directory).")
            case "search": printNotes(try store.search(argument), json: options.flags.contains("--json"), empty: "No note matches “\(Screen.clean(argument))”.")
            case "show": print(try store.note(id: argument).text, terminator: "")
            case "delete":
                let note = try store.note(id: argument)
                if !options.flags.contains("--yes") {
                    print("Delete “\(Screen.clean(note.title))” (\(note.path))? [y/N] ", terminator: "")
                    fflush(nil)
                    guard readLine()?.trimmingCharacters(in: .whitespaces).lowercased() == "y" else {
                        print("Kept.")
                        return 1
                    }
                }
                try store.delete(note)
                print("Deleted \(note.path)")
            case "edit":
                let note = try store.note(id: argument)
                let edited = try Editor().edit(note.text, name: URL(fileURLWithPath: note.path).lastPathComponent)
                if edited != note.text {
                    try store.replace(note, with: edited)
                    print("Saved \(note.path)")
                } else {
                    print("No changes.")
                }
            default:
                printError("unknown command \"\(command)\"")
                return 2
            }
            return 0
        } catch {
            printError("\(error)")
            return 1
        }
    }

    static func printNotes(_ notes: [NoteFile], json: Bool, empty: String) {
        if json {
            let formatter = ISO8601DateFormatter()
            for note in notes {
                var object: [String: String] = ["id": note.id, "title": note.title, "path": note.path]
                object["created"] = note.created.map(formatter.string(from:))
                let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
                print(String(decoding: data ?? Data(), as: UTF8.self))
            }
            return
        }
        guard !notes.isEmpty else { print(empty); return }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let width = shortestUniquePrefix(notes.map(\.id))
        for note in notes {
            let date = note.created.map(formatter.string(from:)) ?? "                "
            print("\(note.id.prefix(width).padding(toLength: width, withPad: " ", startingAt: 0))  \(date)  \(Screen.clean(note.title))")
        }
    }

    /// The shortest prefix length (at least 6) that tells every id apart.
    static func shortestUniquePrefix(_ ids: [String]) -> Int {
        var length = 6
        while length < (ids.map(\.count).max() ?? 6), Set(ids.map { $0.prefix(length) }).count < ids.count { length += 1 }
        return length
    }
}
