import Dialogue
import DialogueCore
import Foundation
import Notes
import Testing
@testable import VoiceSession

/// A whole exchange that ends in a refusal, with a person at a (fake) terminal: every key of the
/// question in five languages, for a refused answer and for everything, and what each leaves on
/// disk. Rules only; the answers are scripted, the keys come through standard input.
@Suite struct RefusalPromptTests {
    struct Case { let language: Language; let first: String; let answer: String; let everything: String }

    static let cases = [
        Case(language: "en", first: "A tool library for my street.", answer: "Please don't record this.",
             everything: "Don't record any of this."),
        Case(language: "de", first: "Eine Werkzeugbibliothek für meine Straße.", answer: "Nimm das nicht auf.",
             everything: "Nimm das nicht auf, nichts davon."),
        Case(language: "fr", first: "Une bibliothèque d'outils pour ma rue.", answer: "N'enregistre pas ça.",
             everything: "N'enregistre rien de tout ça."),
        Case(language: "es", first: "Una biblioteca de herramientas para mi calle.", answer: "No grabes esto, por favor.",
             everything: "No grabes nada de esto."),
        Case(language: "ja", first: "近所で道具を貸し借りするアプリです。", answer: "これは記録しないでください。",
             everything: "全部記録しないでください。"),
    ]

    /// Product requirements read as refusals ("Nothing was saved, as you asked." once): with the
    /// question, `n` keeps every word.
    static let falseRefusals: [(Language, String, String)] = [
        ("en", "A notes app for field researchers.", "Don't keep any of this on paper, it all goes into the app."),
        ("de", "Eine Notiz-App für Feldforscher.", "Nichts davon soll auf Papier bleiben, alles kommt in die App."),
        ("fr", "Une appli de notes pour les chercheurs de terrain.", "On a décidé que les enregistrements d'appels seront supprimés au bout de trente jours, et qu'on n'enregistre plus rien sans consentement."),
        ("es", "Una aplicación de notas para investigadores de campo.", "Nada de esto se debe guardar en papel, todo va a la aplicación."),
        ("ja", "フィールド調査のためのメモアプリです。", "何も紙に保存しないでください。全部アプリに残ります。"),
    ]

    struct Run {
        let status: Int32
        let display: RecordingDisplay
        let edited: [String]
        let scratch: Scratch
        /// Every file the session left: notes, journals and the events file.
        var files: [(path: String, text: String)] {
            ([scratch.notes, scratch.journals].flatMap { folder in scratch.files(in: folder).map { folder + "/" + $0 } } + [scratch.events])
                .compactMap { path in (try? String(contentsOfFile: path, encoding: .utf8)).map { (path, $0) } }
        }
        var notes: [String] { scratch.files(in: scratch.notes).compactMap { try? String(contentsOfFile: scratch.notes + "/" + $0, encoding: .utf8) } }
    }

    enum Key { case typed(String), ctrlC(after: String) }

    /// One exchange: `answers`, then `key` at the question (and what follows it).
    func run(_ language: Language, _ answers: [String], key: Key, terminal: Bool = true, yes: Bool = false) async throws -> Run {
        let scratch = try Scratch()
        let display = RecordingDisplay()
        let open = OpenInput()
        let lines: LineInput
        switch key {
        case .typed(let text): lines = pipedInput(text)
        case .ctrlC: lines = open.lines
        }
        let context = try makeContext(scratch, language: language, yes: yes, display: display, terminal: terminal, lines: lines)
        let interrupts = Interrupts(catchesSignals: false)
        let edited = Log()
        let finisher = MemoFinisher(context: context, interrupts: interrupts, edit: { text in edited.withLock { $0.append(text) }; return text })
        let session = ExchangeSession(context: context, speaker: SilentSpeaker(), answers: ScriptedAnswers(answers.map(AnswerOutcome.answer)),
                                      engineGate: nil, finisher: finisher, interrupts: interrupts)
        if case .ctrlC(let after) = key {
            // Ctrl-C once the question is shown; what follows is typed once it has been taken.
            let pack = context.pack
            Thread.detachNewThread {
                func shown(_ keys: [UIKey]) -> Bool {
                    display.lines.contains { line in keys.contains { line == "line: " + pack.ui($0) } }
                }
                while !shown([.refusalConfirmAll, .refusalConfirmAnswer]) { usleep(5_000) }
                interrupts.fire(.interrupt)
                while !shown([.refusedDiscarded, .refusedReview]) { usleep(5_000) }
                open.type(after)
                open.close()
            }
        } else {
            open.close()
        }
        let status = await session.run()
        return Run(status: status, display: display, edited: edited.withLock { $0 }, scratch: scratch)
    }

    static let keys = ["Enter", "yes", "no", "edit", "Ctrl-C", "Ctrl-D"]

    /// What the person types for the key `name`: after `n` or `e` the save key at the review;
    /// after a discarding key, `thenReview` at the review of what is left (none for Ctrl-D).
    static func key(_ name: String, _ pack: LanguagePack, thenReview: String) -> Key {
        let save = pack.ui(.keySave) + "\n"
        return switch name {
        case "Enter": .typed("\n" + thenReview)
        case "yes": .typed(pack.ui(.keyYes) + "\n" + thenReview)
        case "no": .typed(pack.ui(.keyNo) + "\n" + save)
        case "edit": .typed(pack.ui(.keyEdit) + "\n" + save)
        case "Ctrl-C": .ctrlC(after: thenReview)
        default: .typed("")   // Ctrl-D: the end of input
        }
    }

    /// Every key for a refusal of everything: the discarding ones leave no trace on disk; `n`
    /// and `e` bring every word back, and only the save key then saves them.
    @Test(arguments: RefusalPromptTests.cases.map(\.language), RefusalPromptTests.keys)
    func aRefusalOfEverything(language: Language, key: String) async throws {
        let test = try #require(Self.cases.first { $0.language == language })
        let pack = try LanguagePackLoader().load(language)
        let run = try await run(language, [test.first, test.everything], key: Self.key(key, pack, thenReview: ""))
        defer { run.scratch.remove() }
        #expect(run.status == 0, "\(language) \(key): \(run.display.lines)")
        #expect(run.display.lines.contains("line: " + pack.ui(.refusalConfirmAll)), "\(language) \(key): asked")
        if key == "no" || key == "edit" {
            let note = try #require(run.notes.first, "\(language) \(key): saved")
            #expect(note.contains(test.first) && note.contains(test.everything), "\(language) \(key): every word back\n\(note)")
            #expect(note.contains("ended: \"refused\""), "\(note)")
            #expect(run.scratch.files(in: run.scratch.journals).isEmpty, "saved: the journal goes")
            #expect(run.edited.count == (key == "edit" ? 1 : 0), "\(language) \(key): the editor opens only for edit")
            #expect(run.edited.allSatisfy { $0.contains(test.first) })
        } else {
            #expect(run.display.lines.last == "line: " + pack.ui(.refusedDiscarded), "\(language) \(key): \(run.display.lines)")
            for file in run.files {
                #expect(!file.text.contains(test.first) && !file.text.contains(test.everything), "\(language) \(key): \(file.path) keeps words")
            }
            #expect(run.scratch.files(in: run.scratch.notes).isEmpty && run.scratch.files(in: run.scratch.journals).isEmpty)
            #expect(run.edited.isEmpty)
        }
    }

    /// Every key for a refusal of one answer: it asks about that answer. Discarding leaves the
    /// refused words nowhere (the words before it go to the review, as before); `n` and `e`
    /// put them back where they were.
    @Test(arguments: RefusalPromptTests.cases.map(\.language), RefusalPromptTests.keys)
    func aRefusalOfOneAnswer(language: Language, key: String) async throws {
        let test = try #require(Self.cases.first { $0.language == language })
        let pack = try LanguagePackLoader().load(language)
        // After a discard the review of what is left opens with discard as its default: Enter.
        let run = try await run(language, [test.first, test.answer, "Never asked."], key: Self.key(key, pack, thenReview: "\n"))
        defer { run.scratch.remove() }
        #expect(run.display.lines.contains("line: " + pack.ui(.refusalConfirmAnswer)), "\(language) \(key): asked about the answer")
        if key == "no" || key == "edit" {
            #expect(run.status == 0)
            let note = try #require(run.notes.first, "\(language) \(key): saved")
            #expect(note.contains(test.first) && note.contains(test.answer), "\(language) \(key): \(note)")
            #expect(!note.contains("Never asked."), "the exchange stopped at the refusal")
            #expect(run.edited.count == (key == "edit" ? 1 : 0))
        } else {
            for file in run.files { #expect(!file.text.contains(test.answer), "\(language) \(key): \(file.path) keeps the refused words") }
            #expect(run.scratch.files(in: run.scratch.notes).isEmpty, "\(language) \(key)")
            // Ctrl-D at the question ends the input: the review keeps what came before for `recover`.
            #expect(run.scratch.files(in: run.scratch.journals).isEmpty == (key != "Ctrl-D"), "\(language) \(key)")
        }
    }

    /// "Don't keep any of this on paper, it all goes into the app." is content (a requirement);
    /// read as a refusal, it lost everything. At a terminal, `n` keeps every word.
    @Test(arguments: RefusalPromptTests.falseRefusals.map(\.0))
    func aFalseRefusalLosesNoWord(language: Language) async throws {
        let (_, first, requirement) = try #require(Self.falseRefusals.first { $0.0 == language })
        let pack = try LanguagePackLoader().load(language)
        #expect(Rules(pack: pack).refusal(in: requirement) != nil, "the rules must read a refusal for this test to mean anything")
        let run = try await run(language, [first, requirement], key: .typed(pack.ui(.keyNo) + "\n" + pack.ui(.keySave) + "\n"))
        defer { run.scratch.remove() }
        let note = try #require(run.notes.first, "\(run.display.lines)")
        for sentence in SentenceSplitter.sentences(in: first + " " + requirement, language: language) {
            #expect(note.contains(sentence), "\(language): \(sentence) lost\n\(note)")
        }
    }

    /// Kept, then not saved yet (Ctrl-D at the review): the words are journaled for `recover`,
    /// which gives them back whole.
    @Test func wordsTakenBackAreJournaledForRecover() async throws {
        let run = try await run("en", ["A notes app.", "Don't keep any of this on paper, it all goes into the app."],
                                key: .typed("n\n"))
        defer { run.scratch.remove() }
        #expect(run.status == 1, "kept for recover")
        let journals = run.scratch.files(in: run.scratch.journals)
        try #require(journals.count == 1)
        let replay = try JournalReplay(Journal.read(try String(contentsOfFile: run.scratch.journals + "/" + journals[0], encoding: .utf8)).events)
        #expect(replay.conversation.answers.last == "Don't keep any of this on paper, it all goes into the app.")
        #expect(replay.note(pack: try LanguagePackLoader().load("en")).contains("Don't keep any of this on paper"))
    }

    /// Under `--yes`, or with no terminal, nothing is asked and the refusal is obeyed at once.
    @Test(arguments: [(true, true), (false, false)])
    func withoutAPersonToAskNothingIsKept(terminal: Bool, yes: Bool) async throws {
        let test = Self.cases[0]
        let run = try await run("en", [test.first, test.everything], key: .typed("n\ns\n"), terminal: terminal, yes: yes)
        defer { run.scratch.remove() }
        #expect(!run.display.lines.contains { $0.contains("Discard it?") }, "\(run.display.lines)")
        #expect(run.display.lines.last == "line: Nothing was saved, as you asked.")
        for file in run.files { #expect(!file.text.contains(test.first), "\(file.path)") }
        #expect(run.scratch.files(in: run.scratch.notes).isEmpty && run.scratch.files(in: run.scratch.journals).isEmpty)
    }
}
