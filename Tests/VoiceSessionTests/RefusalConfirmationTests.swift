import Dialogue
import DialogueCore
import Foundation
import Testing
@testable import VoiceSession

/// The question a person at a terminal answers before a refusal discards their words, over a
/// fake terminal: every key, in every language, for both scopes.
@Suite struct RefusalConfirmationTests {
    static let languages: [Language] = ["en", "de", "fr", "es", "ja"]

    /// Asks once; `typed` is what the person types, then the end of input (Ctrl-D) unless
    /// `ctrlC`, where nothing comes and Ctrl-C has been pressed.
    func ask(_ language: Language, _ typed: String, scope: RefusalScope = .everything, ctrlC: Bool = false)
        throws -> (RefusalConfirmation.Verdict, RecordingDisplay) {
        let pack = try LanguagePackLoader().load(language)
        let display = RecordingDisplay()
        let open = OpenInput()
        defer { open.close() }
        let input = ctrlC ? open.lines : pipedInput(typed)
        let confirmation = RefusalConfirmation(pack: pack, display: display, input: input, interrupted: { ctrlC },
                                               fallback: try LanguagePackLoader().load("en"))
        return (confirmation.ask(about: scope), display)
    }

    @Test(arguments: RefusalConfirmationTests.languages)
    func everyKeyInEveryLanguage(language: Language) throws {
        let pack = try LanguagePackLoader().load(language)
        let (yes, no, edit) = (pack.ui(.keyYes), pack.ui(.keyNo), pack.ui(.keyEdit))
        for scope in [RefusalScope.everything, .answer] {
            let cases: [(String, String, RefusalConfirmation.Verdict)] = [
                ("Enter", "\n", .discard), ("yes", yes + "\n", .discard), ("no", no + "\n", .keep), ("edit", edit + "\n", .edit),
                ("Ctrl-D", "", .discard), ("capital no", no.uppercased() + "\n", .keep), ("spaced yes", " \(yes) \n", .discard),
            ]
            for (name, typed, expected) in cases {
                let (verdict, display) = try ask(language, typed, scope: scope)
                #expect(verdict == expected, "\(language) \(scope) \(name)")
                let question = pack.ui(scope == .everything ? .refusalConfirmAll : .refusalConfirmAnswer)
                #expect(display.lines.filter { $0 == "line: " + question }.count == 1, "\(language) \(scope) \(name): \(display.lines)")
            }
            let (verdict, display) = try ask(language, "", scope: scope, ctrlC: true)
            #expect(verdict == .discard, "\(language) \(scope) Ctrl-C")
            #expect(display.lines.count == 2, "asked once, nothing after: \(display.lines)")
        }
    }

    /// The question names the scope: everything said, or that one answer.
    @Test func theQuestionSaysWhatWasRefused() throws {
        #expect(try ask("en", "\n", scope: .everything).1.lines.last == "line: You asked me not to keep any of this. Discard it? [Y/n/e]")
        #expect(try ask("en", "\n", scope: .answer).1.lines.last == "line: You asked me not to keep that answer. Discard it? [Y/n/e]")
    }

    /// Any other reply says which keys work and asks again, for as long as it takes.
    @Test(arguments: RefusalConfirmationTests.languages)
    func anyOtherReplyAsksAgain(language: Language) throws {
        let pack = try LanguagePackLoader().load(language)
        let (verdict, display) = try ask(language, "x\nmaybe\n\(pack.ui(.keyNo))\n")
        #expect(verdict == .keep)
        let question = "line: " + pack.ui(.refusalConfirmAll)
        #expect(display.lines.filter { $0 == question }.count == 3, "\(display.lines)")
        let hint = pack.ui(.refusalKeys, ["yes": pack.ui(.keyYes), "no": pack.ui(.keyNo), "edit": pack.ui(.keyEdit)])
        #expect(display.lines.filter { $0 == "line: " + hint }.count == 2)
    }

    /// y, n and e are taken in every language too, as people type them by habit; the letters
    /// of the language come first.
    @Test(arguments: RefusalConfirmationTests.languages)
    func theEnglishLettersWorkEverywhere(language: Language) throws {
        #expect(try ask(language, "y\n").0 == .discard)
        #expect(try ask(language, "n\n").0 == .keep)
        #expect(try ask(language, "e\n").0 == .edit)
    }

    /// Each language's prompt shows its own letters, "yes" capitalised as the default.
    @Test(arguments: RefusalConfirmationTests.languages)
    func thePromptShowsTheLanguagesLetters(language: Language) throws {
        let pack = try LanguagePackLoader().load(language)
        let letters = "[\(pack.ui(.keyYes).uppercased())/\(pack.ui(.keyNo))/\(pack.ui(.keyEdit))]"
        #expect(pack.ui(.refusalConfirmAll).hasSuffix(letters) && pack.ui(.refusalConfirmAnswer).hasSuffix(letters), "\(language)")
        #expect(Set([pack.ui(.keyYes), pack.ui(.keyNo), pack.ui(.keyEdit)]).count == 3, "\(language)")
    }
}
