import Dialogue
import DialogueCore
import Foundation
import Notes
import Speech

/// Everything a session (talk, demo, record, recover) is told from outside, typed: the
/// command line fills it, the session never looks at arguments.
public struct SessionConfiguration: Sendable {
    /// A supported language (one with a file).
    public var language: Language
    /// Type the answers instead of speaking them.
    public var typing = false
    /// PulseAudio source and sink; nil for the server's defaults.
    public var inputDevice: String?
    public var outputDevice: String?
    public var silence: SilencePreset = .default
    public var whisperModel: String = DefaultModels.whisper
    /// The GGUF model that chooses; nil decides with the rules alone (`--no-model`).
    public var languageModel: String? = DefaultModels.languageModel
    /// Transcribe (and decide) during pauses, before the answer is known to be over.
    public var overlap = true
    /// Only the preset's silence ends an answer, whatever the words so far (for comparison:
    /// by default the wait follows how finished the answer sounds).
    public var fixedSilence = false
    public var notesDirectory: String = NotesStore.defaultDirectory
    /// Where unfinished exchanges are journaled (`recover` reads them back).
    public var journalDirectory: String = FileJournal.defaultDirectory
    /// `--events`: a file, "-" for standard output, nil for none.
    public var events: String?
    /// Save without the editor or the review prompt (`--yes`).
    public var saveWithoutAsking = false
    /// The editor command for the review (settings: $VISUAL, $EDITOR or the config file's
    /// `editor`); nil: nano, else vi.
    public var editor: String?
    /// A PulseAudio server address (the demo's private one); nil for the user's own.
    public var audioServer: String?

    public init(language: Language) { self.language = language }
}

/// What every session builds from its configuration: the language, its rules, the display,
/// the event log, the notes folder and the shared standard input.
public struct SessionContext: Sendable {
    public private(set) var configuration: SessionConfiguration
    public let pack: LanguagePack
    public let rules: Rules
    public let display: any SessionDisplay
    public let events: EventLog
    public let store: NotesStore
    public let input: LineInput
    /// Whether a person is at a terminal (standard input and output both are one), so a
    /// question can be put to them and answered.
    public let atTerminal: Bool

    /// `atTerminal` nil: whether `input` and standard output are terminals.
    public init(configuration: SessionConfiguration, display: any SessionDisplay,
                input: LineInput = LineInput(), atTerminal: Bool? = nil) throws {
        self.configuration = configuration
        self.display = display
        self.input = input
        self.atTerminal = atTerminal ?? (input.isTerminal && isatty(STDOUT_FILENO) == 1)
        pack = try LanguagePackLoader().load(configuration.language)
        rules = Rules(pack: pack)
        events = try EventLog(destination: configuration.events)
        store = NotesStore(directory: configuration.notesDirectory)
    }

    /// Whether the person may be asked before their words are discarded: at a terminal, and
    /// not under `--yes`, which scripts use and which obeys a refusal at once.
    public var canConfirm: Bool { atTerminal && !configuration.saveWithoutAsking }

    /// The same session with a changed configuration (the pack, display and event log stay:
    /// the language must not change).
    public func with(_ change: (inout SessionConfiguration) -> Void) -> SessionContext {
        var copy = self
        change(&copy.configuration)
        precondition(copy.configuration.language == configuration.language, "a session keeps its language")
        return copy
    }
}
