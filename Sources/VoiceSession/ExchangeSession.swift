import Dialogue
import DialogueCore
import Foundation
import Notes

/// Runs one exchange with real ports (voice or typing), shows it, journals it, and hands the
/// words to the editor and the notes folder. Shared by `talk` and `demo`.
public struct ExchangeSession: Sendable {
    let context: SessionContext
    let speaker: any PromptSpeaking
    let answers: any AnswerSource
    /// The voice answers' gate (nil when typing): whisper waits there for the model's warm-up.
    let engineGate: EngineGate?
    /// Keeps the answers' final passes off the cores while the model decides.
    let arbiter: EngineArbiter
    let finisher: MemoFinisher
    let interrupts: Interrupts

    /// A voice exchange with `voice`, or a typed one when it is nil.
    public init(context: SessionContext, voice: VoicePorts?) {
        let typed = TypedAnswers(pack: context.pack, display: context.display, input: context.input)
        let interrupts = Interrupts()
        self.init(context: context, speaker: voice?.speaker ?? NoSpeech(), answers: voice?.answers ?? typed,
                  engineGate: voice?.answers.engineGate, arbiter: voice?.answers.arbiter ?? EngineArbiter(), finisher: MemoFinisher(context: context, interrupts: interrupts),
                  interrupts: interrupts)
    }

    init(context: SessionContext, speaker: any PromptSpeaking, answers: any AnswerSource, engineGate: EngineGate?,
         arbiter: EngineArbiter = EngineArbiter(), finisher: MemoFinisher, interrupts: Interrupts) {
        self.context = context
        self.speaker = speaker
        self.answers = answers
        self.engineGate = engineGate
        self.arbiter = arbiter
        self.finisher = finisher
        self.interrupts = interrupts
    }

    /// Runs the exchange to its end and returns the exit status: 0 saved, discarded or
    /// nothing said; 1 a failure (audio, or a save that left the memo in the journal);
    /// 143 asked to stop by the system (the journal keeps everything for `recover`).
    public func run() async -> Int32 {
        let pack = context.pack, display = context.display
        let memo = Memo(id: Self.newID(), created: Date(), language: pack.language)
        var journal: FileJournal?
        do {
            journal = try FileJournal.start(memo, in: context.configuration.journalDirectory)
        } catch {
            display.error("\(error) — the exchange runs without crash safety.")
        }
        // The model loads and warms up while the opening is spoken and answered; whisper
        // waits for it (two engines at once collapse on 2 cores) and so does the first decision.
        let context = self.context
        let loading = Task { await Deciders.make(context) }
        let deciders = Deciders.Waiting(loading: loading, arbiter: arbiter)
        let warming = Task { await deciders.warmUp() }
        engineGate?.hold(warming)
        if engineGate != nil { display.hint(pack.ui(.hintFinish)) }

        let exchange = Exchange(
            rules: context.rules, speaker: speaker, answers: answers,
            questions: deciders, layouts: deciders,
            journal: journal.map { $0 as any JournalWriting } ?? NoJournal(),
            onEvent: { event in Self.show(event, context: context) })
        let task = Task { await exchange.runUnderClosingLine() }
        interrupts.onInterrupt { _ in task.cancel() }
        if engineGate != nil { interrupts.watchKeys() }
        var outcome = await task.value
        await warming.value
        interrupts.stopWatchingKeys()

        let cause = interrupts.cause
        if cause != nil { outcome.closing?.cancel() }
        if cause == .terminate {
            // Asked to stop by the system: everything said is in the journal; no editor now.
            display.line(pack.ui(.interrupted))
            return 143
        }
        if cause != nil { display.line(pack.ui(.interrupted)) }
        if outcome.endReason == .failed, let failure = outcome.failure {
            display.error(pack.ui(.audioFailed, ["reason": failure]))
        }
        // A refusal is obeyed at once; a person at the terminal is asked before it discards.
        var takenBack: RefusalConfirmation.Verdict?
        if let scope = outcome.refusal, context.canConfirm, let restored = outcome.takingBackTheRefusal(rules: context.rules) {
            let verdict = RefusalConfirmation(context: context, interrupts: interrupts).ask(about: scope)
            if verdict != .discard { (outcome, takenBack) = (restored, verdict) }
        }
        if outcome.conversation.transcriptLength >= Rules.transcriptCap { display.notice(pack.ui(.transcriptFull)) }
        guard !outcome.sources.isEmpty else {
            journal?.remove()
            display.line(pack.ui(outcome.refusal != nil ? .refusedDiscarded : .noAnswer))
            return outcome.endReason == .failed ? 1 : 0
        }
        let usedModel = await loading.value.usesModel
        if outcome.layoutSource == .fallback && outcome.endReason.isNormal && usedModel {
            display.hint(pack.ui(.layoutFallback))
        }
        var fields = Memo.ExchangeFields(ending: Self.ending(of: outcome, rules: context.rules))
        (fields.highlights, fields.highlightsSource) = (outcome.highlights, outcome.highlightsSource)
        // The closing line was playing while the note was put together; the review follows it.
        await outcome.closing?.value
        outcome.closing = nil
        let note = memo.note(outcome.conversation, sources: outcome.sources, layout: outcome.layout,
                             layoutSource: outcome.layoutSource, exchange: fields, pack: pack, rules: context.rules)
        // A refused exchange's journal is gone already; words taken back are journaled afresh.
        if takenBack != nil {
            journal = FileJournal.start(memo, holding: outcome.conversation, note: note.markdown,
                                        in: context.configuration.journalDirectory)
        }
        let kept = outcome.refusal == nil ? journal : nil
        switch finisher.finish(note: note.markdown, title: note.title, memo: memo,
                               journal: kept, refused: outcome.refusal != nil, editFirst: takenBack != .keep) {
        case .saved, .discarded: return outcome.endReason == .failed ? 1 : 0
        case .keptInJournal: return 1
        }
    }

    /// How the exchange ended, for the note's front matter (`Rules.ending`).
    static func ending(of outcome: Exchange.Outcome, rules: Rules) -> String {
        rules.ending(of: outcome.live ?? outcome.conversation, decisions: outcome.decisions,
                     stopped: outcome.endReason == .finished ? nil : outcome.endReason.rawValue)
    }

    /// The display and `--events` for one step of the exchange.
    static func show(_ event: ExchangeEvent, context: SessionContext) {
        let pack = context.pack, display = context.display, events = context.events
        switch event {
        case .asking(let question, let number):
            display.question(pack.prompt(for: question).text, number: number, total: Rules.maxQuestions)
            events.emit(.question(question, text: pack.prompt(for: question).text, number: number))
        case .answered(let text):
            display.answer(UserText.sanitized(text))
            events.emit(.answer(text: text))
        case .wentOn:
            // The question on screen was stopped for the person going on: say so, or it reads as
            // asked and unanswered when it (or the next) is shown again.
            display.notice(pack.ui(.wentOn))
            events.emit(.wentOn)
        case .talkedOver:
            events.emit(.talkedOver)
        case .tookBack:
            display.notice(pack.ui(.tookBack))
            events.emit(.tookBack)
        case .unclear:
            // The same question follows at once; without this it shows twice with no reason.
            display.notice(pack.ui(.notCaught))
            events.emit(.unclear)
        case .noAnswer:
            display.notice(pack.ui(.noAnswer))
            events.emit(.noAnswer)
        case .decided(let decision):
            if decision.finishes { display.line(pack.line(for: decision.choice).text) }
            events.emit(.decision(decision))
        case .finished(let reason):
            events.emit(.finished(reason: reason))
        case .laidOut(let source):
            events.emit(.layout(source: source))
        case .finishingTranscript(let done, let total):
            display.status(pack.ui(.finishingTranscript, ["done": "\(done)", "total": "\(total)"]))
            events.emit(.finishingTranscript(done: done, total: total))
        case .finalAnswer(let turn, let text):
            events.emit(.finalAnswer(turn: turn, text: text))
        case .failed(let message):
            display.error(message)
            events.emit(.error(message: message))
        case .refused(let scope):
            events.emit(.refused(scope: scope))
        }
    }

    /// Eight hex digits: short enough to type, random enough not to collide in one notes folder.
    static func newID() -> String {
        String(format: "%08x", UInt32.random(in: .min ... .max))
    }
}
