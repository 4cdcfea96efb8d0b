import Dialogue
import DialogueCore
import Foundation
import Notes
import Speech
import Testing
@testable import VoiceSession

@Suite struct MemoFinisherTests {
    static let note = "---\nid: \"t\"\n---\n\n# A tool library\n\nPeople borrow a drill.\n"

    func journal(_ scratch: Scratch) throws -> FileJournal {
        let journal = try FileJournal(directory: scratch.journals, id: "t")
        try journal.append(.answered("People borrow a drill."))
        return journal
    }

    @Test func withYesTheRenderedNoteIsSavedAndTheJournalGoes() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let journal = try journal(scratch)
        let finisher = MemoFinisher(context: try makeContext(scratch), interrupts: Interrupts(catchesSignals: false), edit: { _ in Issue.record("no editor with --yes"); return "" })
        let result = finisher.finish(note: Self.note, title: "A tool library", memo: Memo(id: "t", created: Date(), language: "en"), journal: journal)
        guard case .saved(let path) = result else { Issue.record("\(result)"); return }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.note)
        #expect(scratch.files(in: scratch.journals).isEmpty)
        #expect(try scratch.eventLines().map { $0["event"] as? String } == ["note", "saved"])
    }

    @Test func theEditedTextIsWhatIsSaved() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let finisher = MemoFinisher(context: try makeContext(scratch, yes: false, input: "s\n"), interrupts: Interrupts(catchesSignals: false), edit: { $0 + "My own addition.\n" })
        let result = finisher.finish(note: Self.note, title: "A tool library", memo: Memo(id: "t", created: Date(), language: "en"), journal: try journal(scratch))
        guard case .saved(let path) = result else { Issue.record("\(result)"); return }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.note + "My own addition.\n")
    }

    @Test func discardNeedsAConfirmationThenKeepsNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // "d" then "n" (not confirmed): asked again; "d" then "y": discarded.
        let finisher = MemoFinisher(context: try makeContext(scratch, yes: false, input: "d\nn\nd\ny\n"), interrupts: Interrupts(catchesSignals: false), edit: { $0 })
        let result = finisher.finish(note: Self.note, title: "A tool library", memo: Memo(id: "t", created: Date(), language: "en"), journal: try journal(scratch))
        #expect(result == .discarded)
        #expect(scratch.files(in: scratch.notes).isEmpty)
        #expect(scratch.files(in: scratch.journals).isEmpty)
    }

    @Test func aFailingEditorStillSavesTheWords() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let display = RecordingDisplay()
        let finisher = MemoFinisher(context: try makeContext(scratch, yes: false, display: display), interrupts: Interrupts(catchesSignals: false), edit: { _ in throw Editor.EditorFailed(command: "broken-editor", reason: "exited with status 1") })
        let result = finisher.finish(note: Self.note, title: "A tool library", memo: Memo(id: "t", created: Date(), language: "en"), journal: try journal(scratch))
        guard case .saved(let path) = result else { Issue.record("\(result)"); return }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.note)
        #expect(display.lines.contains { $0.hasPrefix("error: the editor broken-editor exited with status 1") })
    }

    @Test func aFailedSaveKeepsTheJournalAndSaysWhere() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // A file where the notes folder should be: nothing can be saved there.
        _ = FileManager.default.createFile(atPath: scratch.notes, contents: Data())
        let display = RecordingDisplay()
        let journal = try journal(scratch)
        let finisher = MemoFinisher(context: try makeContext(scratch, display: display), interrupts: Interrupts(catchesSignals: false))
        #expect(finisher.finish(note: Self.note, title: "A tool library", memo: Memo(id: "t", created: Date(), language: "en"), journal: journal) == .keptInJournal)
        #expect(scratch.files(in: scratch.journals) == ["t.jsonl"])
        #expect(display.lines.contains { $0.hasPrefix("error: Could not save the note") && $0.contains(journal.path) })
    }
}

@Suite struct ExchangeSessionTests {
    @Test func aTypedExchangeBecomesASavedNoteOfTheAnswers() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let context = try makeContext(scratch, input: "A tool library for my street.\nPeople could borrow a drill for a day.\nThat's all.\n")
        let interrupts = Interrupts(catchesSignals: false)
        let session = ExchangeSession(context: context, speaker: SilentSpeaker(),
                                      answers: TypedAnswers(pack: context.pack, display: context.display, input: context.input),
                                      engineGate: nil, finisher: MemoFinisher(context: context, interrupts: interrupts),
                                      interrupts: interrupts)
        let status = await session.run()
        #expect(status == 0)
        let notes = scratch.files(in: scratch.notes)
        try #require(notes.count == 1)
        let note = try String(contentsOfFile: scratch.notes + "/" + notes[0], encoding: .utf8)
        #expect(note.contains("A tool library for my street."))
        #expect(note.contains("People could borrow a drill for a day."))
        #expect(scratch.files(in: scratch.journals).isEmpty, "saved: the journal goes")
        let events = try scratch.eventLines().map { $0["event"] as? String ?? "?" }
        #expect(events.first == "question")
        #expect(events.suffix(4) == ["finished", "layout", "note", "saved"])
        #expect(events.filter { $0 == "answer" }.count == 3)
    }

    @Test func theSystemAskingToStopKeepsEverythingInTheJournal() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let context = try makeContext(scratch)
        let interrupts = Interrupts(catchesSignals: false)
        let answers = ScriptedAnswers([.answer("A tool library for my street."), .ended(partial: "People could borrow")]) { index in
            if index == 1 { interrupts.fire(.terminate) }
        }
        let session = ExchangeSession(context: context, speaker: SilentSpeaker(), answers: answers, engineGate: nil,
                                      finisher: MemoFinisher(context: context, interrupts: interrupts), interrupts: interrupts)
        #expect(await session.run() == 143)
        #expect(scratch.files(in: scratch.notes).isEmpty)
        let journals = scratch.files(in: scratch.journals)
        try #require(journals.count == 1)
        let replay = try JournalReplay(Journal.read(try String(contentsOfFile: scratch.journals + "/" + journals[0], encoding: .utf8)).events)
        #expect(replay.conversation.answers == ["A tool library for my street.", "People could borrow"])
    }

    /// A question shown a second time says why, in the session's language.
    @Test(arguments: ["en", "ja"]) func aQuestionAskedAgainSaysItWasNotCaught(language: Language) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let display = RecordingDisplay()
        let context = try makeContext(scratch, language: language, display: display)
        let session = ExchangeSession(context: context, speaker: SilentSpeaker(), answers: ScriptedAnswers([.unclear, .noAnswer]),
                                      engineGate: nil, finisher: MemoFinisher(context: context, interrupts: Interrupts(catchesSignals: false)),
                                      interrupts: Interrupts(catchesSignals: false))
        _ = await session.run()
        let shown = display.lines.filter { $0.hasPrefix("question") || $0.hasPrefix("notice") }
        let opening = "question: \(context.pack.opening.text) (0/\(Rules.maxQuestions))"
        #expect(shown.prefix(3) == [opening, "notice: \(context.pack.ui(.notCaught))", opening], "\(shown)")
    }

    /// A question the person talked over says it can wait, and the answer heard on is one.
    @Test(arguments: ["en", "de"]) func aQuestionTalkedOverSaysItCanWait(language: Language) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let display = RecordingDisplay()
        let context = try makeContext(scratch, language: language, display: display)
        let session = ExchangeSession(context: context, speaker: SecondPromptHangs(), answers: GoingOnAnswers(),
                                      engineGate: nil, finisher: MemoFinisher(context: context, interrupts: Interrupts(catchesSignals: false)),
                                      interrupts: Interrupts(catchesSignals: false))
        _ = await session.run()
        let shown = display.lines.filter { $0.hasPrefix("question") || $0.hasPrefix("notice") || $0.hasPrefix("answer") }
        let talkedOver = try #require(shown.dropFirst(2).first, "\(shown)")
        #expect(talkedOver.hasPrefix("question: "))
        #expect(Array(shown.prefix(5).dropFirst()) == [
            "answer: A tool library.", talkedOver, "notice: \(context.pack.ui(.wentOn))", "answer: A tool library for my street.",
        ], "\(shown)")
    }

    @Test func nothingSaidLeavesNoJournalAndNoNote() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let context = try makeContext(scratch)
        let session = ExchangeSession(context: context, speaker: SilentSpeaker(), answers: ScriptedAnswers([.noAnswer]),
                                      engineGate: nil, finisher: MemoFinisher(context: context, interrupts: Interrupts(catchesSignals: false)),
                                      interrupts: Interrupts(catchesSignals: false))
        #expect(await session.run() == 0)
        #expect(scratch.files(in: scratch.notes).isEmpty)
        #expect(scratch.files(in: scratch.journals).isEmpty)
    }
}

@Suite struct RecoveryTests {
    /// The same exchange, cut after its second answer began, twice: once by Ctrl-C and saved
    /// at once, once by the system (the journal kept) and then recovered. Both notes say the
    /// same: the questions, the layout, how it ended, the kind tag and the highlights.
    @Test func aRecoveredNoteHasTheFieldsOfALiveOne() async throws {
        func run(_ cause: Interrupts.Cause, _ scratch: Scratch) async throws -> Int32 {
            let context = try makeContext(scratch)
            let interrupts = Interrupts(catchesSignals: false)
            let answers = ScriptedAnswers([.answer("A tool library for my street."), .ended(partial: "People could borrow a drill.")]) { index in
                if index == 1 { interrupts.fire(cause) }
            }
            return await ExchangeSession(context: context, speaker: SilentSpeaker(), answers: answers, engineGate: nil,
                                         finisher: MemoFinisher(context: context, interrupts: interrupts), interrupts: interrupts).run()
        }
        func frontMatter(_ scratch: Scratch) throws -> [String: String] {
            let notes = scratch.files(in: scratch.notes)
            try #require(notes.count == 1)
            var values = FrontMatter.read(try String(contentsOfFile: scratch.notes + "/" + notes[0], encoding: .utf8)).values
            values["id"] = nil
            values["created"] = nil
            return values
        }
        let live = try Scratch(), killed = try Scratch()
        defer { live.remove(); killed.remove() }
        #expect(try await run(.interrupt, live) == 0)
        #expect(try await run(.terminate, killed) == 143)
        let journals = killed.files(in: killed.journals)
        try #require(journals.count == 1)
        #expect(Recovery(context: try makeContext(killed), finisher: nil).recover(killed.journals + "/" + journals[0]) == 0)
        let recovered = try frontMatter(killed)
        #expect(recovered == (try frontMatter(live)))
        #expect(recovered["ended"] == "\"interrupted\"" && recovered["tags"] != nil && recovered["next_steps"] == "\"fallback\"",
                "\(recovered)")
    }

    @Test func anUnfinishedJournalBecomesANoteAndGoes() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let journal = try FileJournal(directory: scratch.journals, id: "abc")
        try journal.append(.started(id: "abc", created: Date(timeIntervalSince1970: 1_700_000_000), timeZone: "UTC", language: "de"))
        try journal.append(.asked(.opening))
        try journal.append(.answered("Eine Werkzeugbibliothek für die Straße."))
        let recovery = Recovery(context: try makeContext(scratch), finisher: nil)
        #expect(recovery.journals == [journal.path])
        #expect(Recovery.summary(of: journal.path).hasSuffix("— “Eine Werkzeugbibliothek für die Straße.”"))
        #expect(recovery.recover(journal.path) == 0)
        let notes = scratch.files(in: scratch.notes)
        try #require(notes.count == 1)
        let note = try String(contentsOfFile: scratch.notes + "/" + notes[0], encoding: .utf8)
        #expect(note.contains("Eine Werkzeugbibliothek für die Straße."))
        #expect(note.contains("language: \"de\""))
        #expect(recovery.journals.isEmpty)
    }

    @Test func anUnreadableJournalIsLeftInPlace() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.journals, withIntermediateDirectories: true)
        let path = scratch.journals + "/broken.jsonl"
        try Data("not a journal\n".utf8).write(to: URL(fileURLWithPath: path))
        let recovery = Recovery(context: try makeContext(scratch), finisher: nil)
        #expect(recovery.recover(path) == 1)
        #expect(FileManager.default.fileExists(atPath: path))
    }
}

@Suite struct TypedAnswersTests {
    /// An empty line is the typed silence (a normal ending); the end of the input is a stop.
    @Test func aLineIsAnAnswerAndAnEmptyLineOrTheEndFinishes() async throws {
        let pack = try LanguagePackLoader().load("en")
        let answers = TypedAnswers(pack: pack, display: RecordingDisplay(), input: pipedInput("  An idea.  \n\nNot read.\n"))
        #expect(try await answers.answer(to: .opening) == .answer("An idea."))
        #expect(try await answers.answer(to: .opening) == .noAnswer)
        let atEnd = TypedAnswers(pack: pack, display: RecordingDisplay(), input: pipedInput(""))
        #expect(try await atEnd.answer(to: .opening) == .ended(partial: nil))
    }

    /// A line piped (or typed) within the take-back window after the model's ending goes on
    /// with the last answer; the end of input after it lets the next ending stand.
    @Test func aLineAfterTheModelsEndingGoesOnWithTheAnswer() async throws {
        let pack = try LanguagePackLoader().load("en"), rules = Rules(pack: pack)
        let answers = TypedAnswers(pack: pack, display: RecordingDisplay(),
                                   input: pipedInput(EndedTests.first + "\nOh, and it should be free.\n"))
        let exchange = Exchange(rules: rules, speaker: SilentSpeaker(), answers: answers,
                                questions: EndedTests.Chooses(rules: rules, choice: .ready), layouts: RulesOnlyDecider(rules: rules),
                                journal: NoJournal())
        let outcome = await exchange.run()
        #expect(outcome.conversation.answers == [EndedTests.first + " Oh, and it should be free."])
        #expect(outcome.decisions.map(\.choice) == [.ready])
        #expect(ExchangeSession.ending(of: outcome, rules: rules) == "modelChoseReady")
    }

    /// A terminal passes on 4095 bytes of a line and drops the rest: a pasted answer of
    /// 5000 characters arrives cut, and the program says so instead of claiming every word.
    @Test func aLineTheTerminalCutIsSaidToBeCut() async throws {
        // Swift's Glibc module leaves out the pseudo-terminal calls: they are looked up by name.
        func libc<F>(_ name: String, _ type: F.Type) -> F { unsafeBitCast(dlsym(nil, name), to: type) }
        typealias OnDescriptor = @convention(c) (Int32) -> Int32
        let master = libc("posix_openpt", OnDescriptor.self)(O_RDWR | O_NOCTTY)
        try #require(master >= 0 && libc("grantpt", OnDescriptor.self)(master) == 0 && libc("unlockpt", OnDescriptor.self)(master) == 0)
        let name = libc("ptsname", (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)(master)
        let terminal = open(String(cString: try #require(name)), O_RDWR | O_NOCTTY)
        try #require(terminal >= 0)
        defer { close(terminal); close(master) }
        var settings = termios()
        tcgetattr(terminal, &settings)
        settings.c_lflag &= ~tcflag_t(ECHO)   // nothing reads the echo
        tcsetattr(terminal, TCSANOW, &settings)
        let pasted = Array((String(repeating: "a", count: 5_000) + "\nShort.\n").utf8)
        Thread.detachNewThread { _ = pasted.withUnsafeBytes { write(master, $0.baseAddress, $0.count) } }

        let pack = try LanguagePackLoader().load("en")
        let display = RecordingDisplay()
        let answers = TypedAnswers(pack: pack, display: display, input: LineInput(descriptor: terminal))
        #expect(try await answers.answer(to: .opening) == .answer(String(repeating: "a", count: LineInput.terminalLineLimit)))
        #expect(display.lines.contains { $0.hasPrefix("notice: The terminal cut this answer at 4095 bytes: what came after never reached the program and is not kept.") },
                "\(display.lines)")
        let shown = display.lines.count
        #expect(try await answers.answer(to: .opening) == .answer("Short."))
        #expect(!display.lines.dropFirst(shown).contains { $0.hasPrefix("notice:") }, "a short line is not cut")
    }
}

@Suite struct SystemCheckTests {
    @Test func sizesAreRoundedToTheNearestMegabyte() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.path + "/model.bin"
        FileManager.default.createFile(atPath: path, contents: nil)
        truncate(path, 81_768_585)   // whisper base q8_0; sparse, so nothing is written
        #expect(SystemCheck.fileSizeMB(path) == 82)
        truncate(path, 98_362_432)
        #expect(SystemCheck.fileSizeMB(path) == 98)
    }

    @Test func aMissingSpeechModelSaysWhatToRun() async {
        let check = await SystemCheck.whisperCheck("/nonexistent/ggml-base.bin")
        #expect(!check.ok)
        #expect(check.requiredForVoice)
        #expect(check.detail.contains("/nonexistent/ggml-base.bin") && check.detail.contains("make deps") && check.detail.contains("Install the package again"))
    }

    @Test func aFileThatIsNotAModelIsNotALanguageModel() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.path + "/model.gguf"
        try Data("not a model".utf8).write(to: URL(fileURLWithPath: path))
        let check = await SystemCheck.languageModelCheck(path)
        #expect(!check.ok)
        #expect(!check.requiredForVoice, "the rules take over without a language model")
        #expect(check.detail.contains(path) && check.detail.contains("built-in rules"))
    }
}

@Suite struct AudioServerDescriptionTests {
    /// What libpulse's server info says on Debian 12: PulseAudio 16.1, and pipewire-pulse 0.3.65.
    @Test func namesPulseAudioOrPipeWireWithItsOwnVersion() {
        #expect(SystemCheck.serverDescription(name: "pulseaudio", version: "16.1") == "PulseAudio 16.1")
        #expect(SystemCheck.serverDescription(name: "PulseAudio (on PipeWire 0.3.65)", version: "15.0.0")
                == "PipeWire 0.3.65 (pipewire-pulse, speaking PulseAudio 15.0.0)")
        #expect(SystemCheck.serverDescription(name: "PulseAudio (on PipeWire 1.0.5)", version: "15.0.0")
                .hasPrefix("PipeWire 1.0.5 "))
        #expect(SystemCheck.serverDescription(name: "other-server", version: "2") == "other-server 2")
    }
}

@Suite struct DoctorVerdictTests {
    typealias Check = SystemCheck.Check
    @Test func onlyTheVoiceChecksDecideWhetherAVoiceDialogueCanRun() {
        let voice = Check(ok: true, label: "audio server", detail: "", requiredForVoice: true)
        let model = Check(ok: false, label: "language model", detail: "", requiredForVoice: false)
        #expect(SystemCheck.verdict([voice]) == (true, "A voice dialogue can run."))
        #expect(SystemCheck.verdict([voice, model]) == (true, "A voice dialogue can run; questions will follow the built-in rules."))
        var dead = voice
        dead.ok = false
        #expect(SystemCheck.verdict([dead, model]).canTalk == false)
        #expect(SystemCheck.verdict([dead]).text.contains("dialogue-memo --type"))
    }
}

@Suite struct NoteTagTests {
    @Test(arguments: [("en", "A budget meeting on Friday with the team.", "meeting"),
                      ("de", "Eine App, die Fahrgemeinschaften plant.", "Produktidee"),
                      ("ja", "来週会議があります。", "会議")])
    func theNoteIsTaggedWithItsKindInTheInterfaceLanguage(language: Language, answer: String, tag: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let context = try makeContext(scratch, language: language)
        let interrupts = Interrupts(catchesSignals: false)
        let session = ExchangeSession(context: context, speaker: SilentSpeaker(), answers: ScriptedAnswers([.answer(answer)]),
                                      engineGate: nil, finisher: MemoFinisher(context: context, interrupts: interrupts),
                                      interrupts: interrupts)
        #expect(await session.run() == 0)
        let notes = scratch.files(in: scratch.notes)
        try #require(notes.count == 1)
        let note = try String(contentsOfFile: scratch.notes + "/" + notes[0], encoding: .utf8)
        #expect(note.contains("tags: [\"\(tag)\"]"), "\(note)")
        #expect(note.contains("ended: \"interrupted\""), "the script ran out: an interruption")
    }
}

@Suite("Doctor, own voice")
struct OwnVoiceDoctorTests {
    @Test func anEchoCancelledInputIsNamedAndOtherwiseTheFixIsGiven() {
        var info = AudioServerInfo(serverName: "pulseaudio", serverVersion: "16.1", defaultSink: "speaker",
                                   defaultSource: "mic", sinks: ["speaker"], sources: ["mic", "mic.echo-cancel"])
        // A line a person can paste into a shell: the argument with spaces in single quotes.
        #expect(SystemCheck.ownVoiceDetail(source: "mic", info: info).contains(
            #"pactl load-module module-echo-cancel aec_method=webrtc 'aec_args="extended_filter=1 analog_gain_control=0 digital_gain_control=0"'"#))
        info.echoCancelledSources = ["mic.echo-cancel"]
        #expect(SystemCheck.ownVoiceDetail(source: "mic", info: info).contains("--input mic.echo-cancel"))
        #expect(SystemCheck.ownVoiceDetail(source: "mic.echo-cancel", info: info).hasPrefix("echo cancellation"))
    }
}
