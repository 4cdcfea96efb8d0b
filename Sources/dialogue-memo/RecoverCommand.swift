import Foundation
import VoiceSession

/// `dialogue-memo recover`: exchanges that never finished (a crash, a kill, a failed save) are
/// rebuilt from their journals, opened in the editor and saved like any other note.
enum RecoverCommand {
    static let usage = """
    Usage: dialogue-memo recover [--list] [--yes] [--notes-dir DIR]

    Lists unfinished memos (journals of exchanges that were interrupted by a crash, a kill or a
    failed save) and reopens them one by one in the editor. --list only lists them; --yes saves
    them without asking.
    """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let options = try Options.command(arguments, flags: ["--list", "--yes"], values: ["--notes-dir", "--lang"], usage: usage)
        let context = try SessionConfiguration.command(options.without(["--list"]), usage: usage)
        let recovery = Recovery(context: context)
        let journals = recovery.journals
        if journals.isEmpty { print("No unfinished memos."); return 0 }
        if options.flags.contains("--list") {
            for path in journals { print("\(path)  \(Recovery.summary(of: path))") }
            return 0
        }
        var status: Int32 = 0
        for path in journals where recovery.recover(path) != 0 { status = 1 }
        return status
    }
}
