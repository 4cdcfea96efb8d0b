import Dialogue
import DialogueCore
import Foundation
import Notes

/// Exchanges that never finished (a crash, a kill, a failed save) are rebuilt from their
/// journals, opened in the editor and saved like any other note.
public struct Recovery: Sendable {
    let context: SessionContext
    let finisher: MemoFinisher

    public init(context: SessionContext) {
        self.init(context: context, finisher: MemoFinisher(context: context, interrupts: Interrupts()))
    }

    /// `finisher` nil: the default one, which catches no signals (tests).
    init(context: SessionContext, finisher: MemoFinisher?) {
        self.context = context
        self.finisher = finisher ?? MemoFinisher(context: context, interrupts: Interrupts(catchesSignals: false))
    }

    /// Journals left unfinished, oldest first.
    public var journals: [String] { FileJournal.unfinished(in: context.configuration.journalDirectory) }

    /// Asked at the start of `talk`: offers the newest unfinished memo. Returns an exit status
    /// when the person chose to deal with it now, nil to go on with a new exchange.
    public func offer() -> Int32? {
        guard isatty(STDIN_FILENO) == 1, let path = journals.last else { return nil }
        context.display.line(context.pack.ui(.recoverPrompt, ["date": Self.summary(of: path)]))
        let reply = context.input.readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard reply.isEmpty || reply == context.pack.ui(.keyYes) else { return nil }
        return recover(path)
    }

    /// Rebuilds, reviews and saves one journal: 0 saved, discarded or empty; 1 unreadable or
    /// still unsaved.
    public func recover(_ path: String) -> Int32 {
        guard let replay = Self.replay(path) else {
            context.display.error("\(path) cannot be read as a journal; it is left in place.")
            return 1
        }
        guard !replay.conversation.answers.isEmpty else {
            unlink(path)   // nothing was said: nothing to keep
            return 0
        }
        let pack = (try? LanguagePackLoader().load(replay.language)) ?? context.pack
        let note = replay.note(pack: pack, rules: pack.language == context.pack.language ? context.rules : nil)
        let journal = try? FileJournal.existing(path)
        switch finisher.finish(note: note, title: MemoFinisher.title(of: note), memo: replay.memo,
                               journal: journal) {
        case .saved, .discarded: return 0
        case .keptInJournal: return 1
        }
    }

    /// The journal at `path`, read leniently: a kill can cut its last line inside a UTF-8
    /// character, which would make the whole file unreadable as strict UTF-8.
    static func replay(_ path: String) -> JournalReplay? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JournalReplay(Journal.read(String(decoding: data, as: UTF8.self)).events)
    }

    /// "2026-11-29 18:02 — “first words…”" for the list and the offer.
    public static func summary(of path: String) -> String {
        guard let replay = replay(path) else { return "(unreadable)" }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let first = replay.conversation.answers.first.map { " — “\(UserText.terminalLine(String($0.prefix(50))))”" } ?? ""
        return formatter.string(from: replay.created) + first
    }
}
