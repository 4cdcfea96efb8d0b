import Dialogue
import DialogueCore
import Foundation
import Notes

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
        let screen = Screen()
        let setup: SessionSetup
        do { setup = try SessionSetup(options: options, screen: screen) } catch { printError("\(error)"); return 1 }
        let journals = FileJournal.unfinished()
        if journals.isEmpty { print("No unfinished memos."); return 0 }
        if options.flags.contains("--list") {
            for path in journals { print("\(path)  \(summary(of: path))") }
            return 0
        }
        var status: Int32 = 0
        for path in journals where recover(path, setup: setup) != 0 { status = 1 }
        return status
    }

    /// Asked at the start of `talk`: offers the newest unfinished memo. Returns an exit status
    /// when the person chose to deal with it now, nil to go on with a new exchange.
    static func offerRecovery(setup: SessionSetup) async -> Int32? {
        guard isatty(STDIN_FILENO) == 1, let path = FileJournal.unfinished().last else { return nil }
        setup.screen.line(setup.pack.ui(.recoverPrompt, ["date": summary(of: path)]))
        let reply = setup.input.readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard reply.isEmpty || reply == setup.pack.ui(.keyYes) else { return nil }
        return recover(path, setup: setup)
    }

    static func recover(_ path: String, setup: SessionSetup) -> Int32 {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              let replay = try? JournalReplay(Journal.read(text).events) else {
            setup.screen.error("\(path) cannot be read as a journal; it is left in place.")
            return 1
        }
        guard !replay.conversation.answers.isEmpty else {
            unlink(path)   // nothing was said: nothing to keep
            return 0
        }
        let pack = (try? LanguagePackLoader().load(replay.language)) ?? setup.pack
        let note = replay.note(pack: pack)
        let finisher = MemoFinisher(pack: pack, screen: setup.screen, events: setup.events, store: setup.store,
                                    saveWithoutAsking: setup.options.flags.contains("--yes"), input: setup.input)
        let journal = try? FileJournal.existing(path)
        switch finisher.finish(note: note, title: MemoFinisher.title(of: note), created: replay.created, journal: journal) {
        case .saved, .discarded: return 0
        case .keptInJournal: return 1
        }
    }

    static func summary(of path: String) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              let replay = try? JournalReplay(Journal.read(text).events) else { return "(unreadable)" }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let first = replay.conversation.answers.first.map { " — “\(Screen.clean(String($0.prefix(50))))”" } ?? ""
        return formatter.string(from: replay.created) + first
    }
}
