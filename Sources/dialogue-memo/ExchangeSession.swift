import Dialogue
import DialogueCore
import Foundation
import Notes

/// Runs one exchange with real ports (voice or typing), shows it, journals it, and hands the
/// words to the editor and the notes folder. Shared by `talk` and `demo`.
struct ExchangeSession {
    let setup: SessionSetup
    let voice: VoicePorts?
    var saveWithoutAsking: Bool { setup.options.flags.contains("--yes") }

    func run() async -> Int32 {
        let pack = setup.pack, screen = setup.screen, events = setup.events
        let id = Self.newID()
        let created = Date()
        var journal: FileJournal?
        do {
            let opened = try FileJournal(id: id)
            try opened.append(.started(id: id, created: created, timeZone: TimeZone.current.identifier, language: pack.code))
            journal = opened
        } catch {
            screen.error("\(error) — the exchange runs without crash safety.")
        }
        // The model loads and warms up while the opening is spoken and answered; whisper
        // waits for it (two engines at once collapse on 2 cores) and so does the first decision.
        let loading = Task { await Deciders.make(setup: setup) }
        let deciders = Deciders.Waiting(loading: loading)
        let warming = Task { await loading.value.warmUp() }
        voice?.answers.engineGate.hold(warming)
        let interrupts = Interrupts()
        let ports = voice.map { ($0.speaker as any PromptSpeaking, $0.answers as any AnswerSource) }
            ?? (NoSpeech(), TypedAnswers(pack: pack, screen: screen, input: setup.input))
        if voice != nil { screen.hint(pack.ui(.hintFinish)) }

        let exchange = Exchange(
            language: pack.code, speaker: ports.0, answers: ports.1,
            questions: deciders, layouts: deciders,
            journal: journal.map { $0 as any JournalWriting } ?? NoJournal(),
            onEvent: { event in Self.show(event, pack: pack, screen: screen, events: events) })
        let task = Task { await exchange.run() }
        interrupts.onInterrupt { _ in task.cancel() }
        if voice != nil { interrupts.watchKeys() }
        let outcome = await task.value
        await warming.value
        interrupts.stopWatchingKeys()

        if interrupts.cause == .terminate {
            // Asked to stop by the system: everything said is in the journal; no editor now.
            screen.line(pack.ui(.interrupted))
            return 143
        }
        if interrupts.cause != nil { screen.line(pack.ui(.interrupted)) }
        if outcome.endReason == .failed, let failure = outcome.failure {
            screen.error(pack.ui(.audioFailed, ["reason": failure]))
        }
        if outcome.conversation.transcriptLength >= Rules.transcriptCap { screen.notice(pack.ui(.transcriptFull)) }
        guard !outcome.sources.isEmpty else {
            journal?.remove()
            screen.line(pack.ui(.noAnswer))
            return outcome.endReason == .failed ? 1 : 0
        }
        let usedModel = await loading.value.usesModel
        if outcome.layoutSource == .fallback && outcome.endReason == .finished && usedModel {
            screen.hint(pack.ui(.layoutFallback))
        }
        let metadata = NoteMetadata(id: id, created: created, language: pack.code,
                                    questions: outcome.conversation.askedChoices, layoutSource: outcome.layoutSource)
        let note = NoteRenderer(pack: pack).render(sources: outcome.sources, layout: outcome.layout, metadata: metadata)
        let finisher = MemoFinisher(pack: pack, screen: screen, events: events, store: setup.store,
                                    saveWithoutAsking: saveWithoutAsking, input: setup.input)
        switch finisher.finish(note: note, title: MemoFinisher.title(of: note), created: created, journal: journal) {
        case .saved, .discarded: return outcome.endReason == .failed ? 1 : 0
        case .keptInJournal: return 1
        }
    }

    static func show(_ event: ExchangeEvent, pack: LanguagePack, screen: Screen, events: EventLog) {
        switch event {
        case .asking(let question, let number):
            screen.question(pack.prompt(for: question).text, number: number, total: Rules.maxQuestions)
            events.emit("question", ["question": question.name, "text": pack.prompt(for: question).text, "number": number])
        case .answered(let text):
            screen.answer(UserText.sanitized(text))
            events.emit("answer", ["text": text])
        case .noAnswer:
            screen.notice(pack.ui(.noAnswer))
            events.emit("answer", ["text": "", "noAnswer": true])
        case .decided(let decision):
            if decision.finishes { screen.line(pack.line(for: decision.choice).text) }
            var fields: [String: Any] = ["choice": decision.choice.rawValue, "source": decision.source.rawValue]
            fields["suggestion"] = decision.suggestion?.rawValue
            events.emit("decision", fields)
        case .finished(let reason):
            events.emit("finished", ["reason": reason.rawValue])
        case .laidOut(let source):
            events.emit("layout", ["source": source.rawValue])
        case .failed(let message):
            screen.error(message)
            events.emit("error", ["message": message])
        }
    }

    /// Eight hex digits: short enough to type, random enough not to collide in one notes folder.
    static func newID() -> String {
        String(format: "%08x", UInt32.random(in: .min ... .max))
    }
}

/// Used when the journal cannot be opened: the exchange still runs, without crash safety.
struct NoJournal: JournalWriting {
    func append(_ event: JournalEvent) throws {}
}
