import Foundation
import Testing
@testable import VoiceSession

@Suite("the editor's copy of the note")
struct EditorTests {
    /// The draft holds the person's words like a saved note does, so others may not read it,
    /// whatever the umask (a usual 022 gave the file 0644): the file is 0600 in a 0700 folder.
    @Test func theDraftIsReadableOnlyByItsOwner() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("editor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("editor.sh")
        let modes = folder.appendingPathComponent("modes")
        try "#!/bin/sh\nstat -c %a \"$1\" \"$(dirname \"$1\")\" > \(modes.path)\necho edited >> \"$1\"\n"
            .write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)

        let edited = try Editor(environment: ProcessInfo.processInfo.environment, configured: script.path).edit("My words.\n")

        #expect(edited == "My words.\nedited\n")
        let seen = try String(contentsOf: modes, encoding: .utf8).split(separator: "\n")
        #expect(seen == ["600", "700"])
    }

    /// Piped answers after the exchange's end are counted (lines with text; blank ones are not
    /// answers), from what was buffered and what was still to come.
    @Test func unusedLinesCountsWhatIsLeftOfAPipe() throws {
        let input = pipedInput("First.\n\nSecond.\nThird.\n  \nFourth without a newline")
        #expect(input.readLine() == "First.")
        #expect(input.unusedLines() == 3)
        #expect(input.readLine() == nil && input.unusedLines() == 0)
    }

    /// The take-back window asks whether a line with text is there, and leaves it to be read.
    @Test func aLineWithinTheWindowIsSeenAndLeftToRead() throws {
        let input = pipedInput("Oh, one more thing.\nNext.\n")
        #expect(input.hasLine(within: 0.2))
        #expect(input.readLine() == "Oh, one more thing.")
        #expect(input.hasLine(within: 0.2))
        #expect(input.readLine() == "Next.")
        #expect(!input.hasLine(within: 0.2), "the end of input is no line")
        #expect(!pipedInput("\nLater.\n").hasLine(within: 0.2), "an empty line is the typed silence: the ending stands")
        #expect(pipedInput("No newline at the end").hasLine(within: 0.2))
    }

    /// Nothing typed within the window: no, once the window is over (a terminal that stays open).
    @Test func nothingWithinTheWindowIsNoLine() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let input = LineInput(descriptor: ends[0])
        #expect(!input.hasLine(within: 0.3))
        _ = "Late.\n".withCString { write(ends[1], $0, 6) }
        #expect(input.hasLine(within: 0.3) && input.readLine() == "Late.")
    }
}

