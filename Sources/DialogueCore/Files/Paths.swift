import Foundation

/// Where Dialogue Memo keeps things, by the XDG base directory rule: `$XDG_…_HOME` when set
/// and not empty, else its default under the home folder. (`Package.swift` repeats the cache
/// rule: a manifest cannot import the package's own code.)
public enum Paths {
    /// The engines and models `make deps` builds: `$DIALOGUE_MEMO_CACHE`, else
    /// `$XDG_CACHE_HOME/dialogue-memo`, else `~/.cache/dialogue-memo`.
    public static var cache: String {
        nonEmpty("DIALOGUE_MEMO_CACHE") ?? base("XDG_CACHE_HOME", default: ".cache") + "/dialogue-memo"
    }
    /// Journals of unfinished exchanges: `$XDG_STATE_HOME/dialogue-memo/journals`.
    public static var journals: String { base("XDG_STATE_HOME", default: ".local/state") + "/dialogue-memo/journals" }
    /// Saved notes: `$XDG_DATA_HOME/dialogue-memo/notes`.
    public static var notes: String { base("XDG_DATA_HOME", default: ".local/share") + "/dialogue-memo/notes" }

    /// The notes folders' search indexes, rebuilt from the notes whenever missing:
    /// `$XDG_CACHE_HOME/dialogue-memo/notes-index` (not the engines' cache, which may be shared).
    public static var notesIndexes: String { base("XDG_CACHE_HOME", default: ".cache") + "/dialogue-memo/notes-index" }

    static func base(_ variable: String, default folder: String) -> String {
        nonEmpty(variable) ?? NSHomeDirectory() + "/" + folder
    }

    static func nonEmpty(_ variable: String) -> String? {
        ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }
}
