import Foundation

/// The journal format: append-only JSON lines, one per `JournalEvent`. Writing (fsync, file
/// location) belongs to the program; this is how lines are made and read back.
public enum Journal {
    /// One event as a JSON line, newline included: append it to the file as one write.
    public static func line(_ event: JournalEvent) -> String {
        JSONLine.encode(event) + "\n"
    }

    /// Reads every event it can. A damaged last line (a crash mid-write) is expected and
    /// ignored; a damaged line elsewhere is skipped and reported.
    public static func read(_ text: String) -> JournalReading {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var events: [JournalEvent] = []
        var damaged: [Int] = []
        var truncatedTail = false
        let decoder = JSONDecoder()
        for (index, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            if let event = try? decoder.decode(JournalEvent.self, from: Data(line.utf8)) {
                events.append(event)
            } else if index == lines.count - 1 {
                truncatedTail = true
            } else {
                damaged.append(index + 1)
            }
        }
        return JournalReading(events: events, damagedLines: damaged, truncatedTail: truncatedTail)
    }

    /// The note, rebuilt from the journal alone.
    public static func rebuild(from text: String, loader: LanguagePackLoader = LanguagePackLoader()) throws -> String {
        let replay = try JournalReplay(read(text).events)
        let language = loader.languages().contains(replay.language) ? replay.language : .english
        return replay.note(pack: try loader.load(language))
    }
}

/// What reading a journal found.
public struct JournalReading: Sendable, Hashable {
    public let events: [JournalEvent]
    /// 1-based numbers of lines that could not be read (not counting a truncated last line).
    public let damagedLines: [Int]
    /// Whether the last line was cut off.
    public let truncatedTail: Bool
}

public enum JournalError: Error, Sendable, Equatable, CustomStringConvertible {
    case missingStart

    public var description: String {
        "The journal has no readable \"started\" line, so it is not a Dialogue Memo journal (or its first line is damaged)."
    }
}

/// The exchange as a journal recorded it.
public struct JournalReplay: Sendable, Hashable {
    public let id: String
    public let created: Date
    public let timeZone: TimeZone
    public let language: Language
    public let conversation: Conversation
    public let decisions: [Decision]
    /// The last layout recorded, if the exchange got that far.
    public let layout: RecordedLayout?
    /// The note as the person last edited it, when saving it failed.
    public let editedNote: String?

    public struct RecordedLayout: Sendable, Hashable {
        public let layout: Layout
        public let source: LayoutSource
    }

    public init(_ events: [JournalEvent]) throws {
        guard case .started(let id, let created, let zone, let language)? = events.first(where: {
            if case .started = $0 { return true } else { return false }
        }) else { throw JournalError.missingStart }
        var turns: [Turn] = []
        var pending: TurnQuestion?
        var decisions: [Decision] = []
        var layout: RecordedLayout?
        var edited: String?
        var heard: String?
        func answer(_ text: String) {
            turns.append(Turn(question: pending ?? (turns.isEmpty ? .opening : .choice(.moreDetails)), answer: text))
            pending = nil
            heard = nil
        }
        for event in events {
            switch event {
            case .started: break
            case .asked(let question):
                if let heard { answer(heard) }
                pending = question
            case .answered(let text): answer(text)
            // Only while an answer is awaited: a late pause transcript after its answer is stale.
            case .heard(let text): if pending != nil { heard = text }
            case .continued(let text):
                if pending == nil, let last = turns.popLast() { turns.append(Turn(question: last.question, answer: text)) }
            case .final(let turn, let live, let text):
                if turns.indices.contains(turn), turns[turn].answer == live {
                    turns[turn] = Turn(question: turns[turn].question, answer: text)
                }
            case .decided(let decision): decisions.append(decision)
            case .laidOut(let recorded, let source): layout = RecordedLayout(layout: recorded, source: source)
            case .edited(let text): edited = text
            }
        }
        // Killed mid-answer: what was heard up to the last pause is the answer.
        if let heard { answer(heard) }
        self.editedNote = edited
        self.id = id
        self.created = created
        self.timeZone = TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0)!
        self.language = language
        self.conversation = Conversation(turns: turns)
        self.decisions = decisions
        self.layout = layout
    }

    public var memo: Memo { Memo(id: id, created: created, timeZone: timeZone, language: language) }

    /// The note, with the fields of a live exchange's: the recorded layout if it came from the
    /// model and fits the sentences, else the local fallback; the ending, "interrupted" unless
    /// the journal holds a final choice; the fallback highlights (no model is asked here).
    /// `rules` are the pack's (compiling them is the costly part; pass them when at hand).
    public func note(pack: LanguagePack, rules: Rules? = nil) -> String {
        if let editedNote { return editedNote }
        let rules = rules ?? Rules(pack: pack)
        let sources = rules.noteSources(conversation)
        let attempts: [Layout?] = layout.map { $0.source == .model ? [$0.layout] : [] } ?? []
        let (chosen, source) = Layout.resolve(attempts: attempts, sourceCount: sources.count)
        let finished = decisions.last?.finishes == true
        let ending = rules.ending(of: conversation, decisions: decisions, stopped: finished ? nil : "interrupted")
        return memo.note(conversation, sources: sources, layout: chosen, layoutSource: source,
                         exchange: Memo.ExchangeFields(ending: ending), pack: pack, rules: rules).markdown
    }
}
