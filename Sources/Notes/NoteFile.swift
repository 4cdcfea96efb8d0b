import DialogueCore
import Foundation

/// A saved note as found on disk: its front matter id and created time, its title line, and
/// the whole text.
public struct NoteFile: Sendable, Hashable {
    public var id: String
    public var path: String
    public var created: Date?
    public var title: String
    public var text: String
    /// The interface language it was made in (`language:`), nil when not said.
    public var language: Language?
    /// The sentence that best states the idea (`key_sentence:`), nil when not said.
    public var keySentence: String?
    /// The time zone of `created` as written ("…+01:00", "…Z"), nil when not said.
    public var timeZone: TimeZone?
    /// The people it mentions (`people:`), as the note says them now: the person may have
    /// changed what the program wrote.
    public var people: [String]

    /// The Markdown body without the front matter.
    public var body: String {
        FrontMatter.read(text).body.map(String.init) ?? text
    }

    /// A note as the index holds it: its fields without its text.
    init(path: String, id: String, created: Date?, title: String, language: Language?, keySentence: String?, timeZone: TimeZone?,
         people: [String] = []) {
        self.path = path
        self.id = id
        self.created = created
        self.title = title
        self.text = ""
        self.language = language
        self.keySentence = keySentence
        self.timeZone = timeZone
        self.people = people
    }

    /// Reads the fields our front matter writes (`id`, `created`, `language`, `key_sentence`, `people`)
    /// and the first `# ` line after it. Notes edited by hand may lack them: the file name
    /// stands in for the id.
    public init(path: String, text: String) {
        self.path = path
        self.text = text
        let front = FrontMatter.read(text)
        let title = front.body.flatMap { TextLines($0).first { $0.hasPrefix("# ") } }
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        func nonEmpty(_ key: String) -> String? { front.string(key).flatMap { $0.isEmpty ? nil : $0 } }
        self.id = nonEmpty("id") ?? stem
        self.created = front.created
        self.title = title.map { Self.unescapeMarkdown(String($0.dropFirst(2))) } ?? stem
        self.language = nonEmpty("language").map(Language.init)
        self.keySentence = nonEmpty("key_sentence")
        self.timeZone = front.timeZone
        self.people = (front.list("people") ?? []).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// Removes the backslashes the renderer puts before Markdown punctuation, for display.
    static func unescapeMarkdown(_ text: String) -> String {
        var output = ""
        var escaped = false
        for character in text {
            if escaped { output.append(character); escaped = false }
            else if character == "\\" { escaped = true }
            else { output.append(character) }
        }
        return output
    }
}
