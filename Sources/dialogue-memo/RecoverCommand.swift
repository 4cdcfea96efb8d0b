import DialogueCore
import Foundation
import Options
import VoiceSession

/// `dialogue-memo recover`: exchanges that never finished (a crash, a kill, a failed save) are
/// rebuilt from their journals, opened in the editor and saved like any other note.
enum RecoverCommand {
    struct Arguments: ParsableOptions {
        static let command = "dialogue-memo recover"
        static let about = """
        Lists unfinished memos (journals of exchanges that were interrupted by a crash, a kill or a
        failed save) and reopens them one by one in the editor.
        """
        var list = false
        var yes = false
        var lang: Language?
        var folder = NotesCommands.Folder()
        static let declarations: [Declaration<Self>] = [
            .flag("--list", \.list, "only list them"),
            .flag("--yes", \.yes, "save them without asking"),
            .value("--lang", \.lang, "interface language (default: from LC_ALL / LC_MESSAGES / LANG)", .language),
        ] + NotesCommands.Folder.declarations.within(\.folder)
    }

    static func run(_ options: Arguments) async throws -> Int32 {
        var session = SessionArguments()
        session[.language] = options.lang?.code
        session[.notesDirectory] = options.folder.directory
        session.configuration.saveWithoutAsking = options.yes
        let recovery = Recovery(context: try session.context())
        let journals = recovery.journals
        if journals.isEmpty { print("No unfinished memos."); return 0 }
        if options.list {
            for path in journals { print("\(path)  \(Recovery.summary(of: path))") }
            return 0
        }
        var status: Int32 = 0
        for path in journals where recovery.recover(path) != 0 { status = 1 }
        return status
    }
}
