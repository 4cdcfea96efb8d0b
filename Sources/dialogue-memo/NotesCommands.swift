import DialogueCore
import Foundation
import Notes
import Options
import VoiceSession

/// `list`, `show`, `search`, `tasks`, `people`, `delete`, `edit`: the notes folder from the command line.
enum NotesCommands {
    /// `--notes-dir DIR`, for every command that reads the notes folder.
    struct Folder {
        var directory: String?
        /// The configuration these commands read (the folder, the editor) from --notes-dir,
        /// the environment and the config file; a bad setting is told on standard error.
        func configuration() -> SessionConfiguration {
            var arguments = SessionArguments()
            arguments[.notesDirectory] = directory
            let settings = arguments.settings()
            for notice in settings.notices { printError(notice) }
            return settings.applied(to: arguments.configuration)
        }
        func store() -> NotesStore { NotesStore(directory: configuration().notesDirectory) }
        static let declarations: [Declaration<Self>] = [
            .value("--notes-dir DIR", \.directory, "the notes folder (default: $XDG_DATA_HOME/dialogue-memo/notes)"),
        ]
    }

    struct List: ParsableOptions {
        static let command = "dialogue-memo list"
        static let about = "Lists the saved notes, newest first."
        var json = false
        var person: String?
        var folder = Folder()
        static let declarations: [Declaration<Self>] = [
            .flag("--json", \.json, "one JSON object per note: id, title, path, created"),
            .value("--person NAME", \.person, "only the notes that name NAME among their people (whole words; case and accents ignored)"),
        ] + Folder.declarations.within(\.folder)
    }

    struct People: ParsableOptions {
        static let command = "dialogue-memo people"
        static let about = "Lists the people the notes name (their people: line), with how many notes name each and the newest one's day."
        var json = false
        var folder = Folder()
        static let declarations: [Declaration<Self>] = [
            .flag("--json", \.json, "one JSON object per person: name, memos, last"),
        ] + Folder.declarations.within(\.folder)
    }

    struct Show: ParsableOptions {
        static let command = "dialogue-memo show"
        static let about = "Prints a note."
        var id = ""
        var folder = Folder()
        static let declarations: [Declaration<Self>] = [
            .positional("ID", \.id, "any unique prefix of the note's id (see dialogue-memo list)"),
        ] + Folder.declarations.within(\.folder)
    }

    struct Search: ParsableOptions {
        static let command = "dialogue-memo search"
        static let about = "Finds notes by title and body; case, accents and width are ignored."
        var query = ""
        var json = false
        var folder = Folder()
        static let declarations: [Declaration<Self>] = [
            .positional("QUERY", \.query, "the words to find (quote several words)"),
            .flag("--json", \.json, "one JSON object per note: id, title, path, created"),
        ] + Folder.declarations.within(\.folder)
    }

    struct Tasks: ParsableOptions {
        static let command = "dialogue-memo tasks"
        static let about = "Lists the open next steps (Markdown task items) of all notes; one ticked in any editor is done."
        var all = false, json = false
        var folder = Folder()
        static let declarations: [Declaration<Self>] = [
            .flag("--all", \.all, "done items too"),
            .flag("--json", \.json, "one JSON object per item: note, path, created, text, done, due"),
        ] + Folder.declarations.within(\.folder)
    }

    struct Delete: ParsableOptions {
        static let command = "dialogue-memo delete"
        static let about = "Deletes a note, after asking."
        var id = ""
        var yes = false
        var folder = Folder()
        static let declarations: [Declaration<Self>] = [
            .positional("ID", \.id, "any unique prefix of the note's id"),
            .flag("--yes", \.yes, "delete without asking"),
        ] + Folder.declarations.within(\.folder)
    }

    struct Edit: ParsableOptions {
        static let command = "dialogue-memo edit"
        static let about = "Opens a note in $VISUAL or $EDITOR and saves the changes."
        var id = ""
        var folder = Folder()
        static let declarations: [Declaration<Self>] = [
            .positional("ID", \.id, "any unique prefix of the note's id"),
        ] + Folder.declarations.within(\.folder)
    }

    static let commands = [
        Subcommand(List.self, "your saved notes, newest first (--person NAME: those that name NAME)") { options in
            let store = options.folder.store()
            if let person = options.person {
                return printNotes(try store.mentioning(person, progress: indexingProgress), json: options.json,
                                  empty: "No note names “\(Screen.clean(person))”.")
            }
            return printNotes(try store.catalog(progress: indexingProgress), json: options.json, empty: "No notes yet in \(store.directory).")
        },
        Subcommand(Show.self, "print a note") { options in
            let text = try options.folder.store().note(id: options.id).text
            // A note file may come from anywhere: a terminal gets its words, never its control bytes.
            print(isatty(STDOUT_FILENO) == 1 ? UserText.sanitized(text) : text, terminator: "")
            return 0
        },
        Subcommand(Search.self, "notes whose title or body contains QUERY") { options in
            let store = options.folder.store()
            return printNotes(try store.search(options.query, progress: indexingProgress), json: options.json, empty: "No note matches “\(Screen.clean(options.query))”.")
        },
        Subcommand(Tasks.self, "open next steps across all notes (--all: done ones too)") { options in
            let store = options.folder.store()
            let (tasks, skipped) = try store.tasks(all: options.all, progress: indexingProgress)
            for message in skipped { printError(message) }
            if !options.json && tasks.isEmpty { print(options.all ? "No next steps yet." : "No open next steps.") }
            for line in options.json ? TaskListing.jsonLines(tasks) : TaskListing.lines(tasks) { print(line) }
            return 0
        },
        Subcommand(People.self, "the people your notes name, with how many and the last day") { options in
            let (people, skipped) = try options.folder.store().people(progress: indexingProgress)
            for message in skipped { printError(message) }
            if !options.json && people.isEmpty { print("No notes name anyone yet.") }
            for line in options.json ? PeopleListing.jsonLines(people) : PeopleListing.lines(people) { print(line) }
            return 0
        },
        Subcommand(Delete.self, "delete a note (asks first unless --yes)", run: delete),
        Subcommand(Edit.self, "open a note in your editor", run: edit),
    ]

    static func delete(_ options: Delete) throws -> Int32 {
        let store = options.folder.store()
        let note = try store.note(id: options.id)
        if !options.yes {
            print("Delete “\(Screen.clean(note.title))” (\(note.path))? [y/N] ", terminator: "")
            fflush(nil)
            guard readLine()?.trimmingCharacters(in: .whitespaces).lowercased() == "y" else {
                print("Kept.")
                return 1
            }
        }
        try store.delete(note)
        print("Deleted \(note.path)")
        return 0
    }

    static func edit(_ options: Edit) throws -> Int32 {
        let configuration = options.folder.configuration()
        let store = NotesStore(directory: configuration.notesDirectory)
        let note = try store.note(id: options.id)
        let edited = try Editor(configured: configuration.editor).edit(note.text, name: URL(fileURLWithPath: note.path).lastPathComponent)
        if edited != note.text {
            try store.replace(note, with: edited)
            print("Saved \(note.path)")
        } else {
            print("No changes.")
        }
        return 0
    }

    /// The notes, a line each (or JSON); a file left out is named on standard error. Exit 0.
    static func printNotes(_ catalog: NotesStore.Catalog, json: Bool, empty: String) -> Int32 {
        for message in catalog.skipped { printError(message) }
        if !json && catalog.notes.isEmpty { print(empty) }
        for line in json ? NoteListing.jsonLines(catalog.notes) : NoteListing.lines(catalog.notes) { print(line) }
        return 0
    }

    /// "Indexing notes: 2,400 of 20,000" on standard error while a new index is built.
    static func indexingProgress(done: Int, total: Int) {
        let line = "Indexing notes: \(done.formatted()) of \(total.formatted())"
        if isatty(STDERR_FILENO) == 1 {
            FileHandle.standardError.write(Data("\r\(line)\u{1B}[K\(done == total ? "\n" : "")".utf8))
        } else if done == 0 || done == total {
            FileHandle.standardError.write(Data("\(line)\n".utf8))
        }
    }
}
