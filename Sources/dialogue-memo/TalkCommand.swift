import DialogueCore
import Foundation
import Options
import VoiceSession

/// `dialogue-memo` / `dialogue-memo talk`: the exchange, by voice or typed, then the editor.
enum TalkCommand {
    struct Arguments: ParsableOptions {
        static let command = "dialogue-memo [talk]"
        static let about = """
        Asks what idea you want to capture, a few follow-up questions, and turns your answers into
        a note of your own sentences, which you edit before saving. End any time by saying
        "that's all", pressing a key, or Ctrl-C: your words always go to the editor.
        Defaults come from ~/.config/dialogue-memo/config: `dialogue-memo config` shows them.
        """
        var session = SessionArguments()
        static let declarations: [Declaration<Self>] = SessionArguments.declarations().within(\.session)
    }

    static func run(_ arguments: [String]) async throws -> Int32 { try await run(Arguments.parse(arguments)) }

    static func run(_ options: Arguments) async throws -> Int32 {
        let context = try options.session.context()
        if !context.configuration.saveWithoutAsking, let status = Recovery(context: context).offer() {
            return status
        }
        var voice: VoicePorts?
        if !context.configuration.typing {
            do { voice = try await VoicePorts.open(context) }
            catch {
                let reason = "\(error)".hasSuffix(".") ? String("\(error)".dropLast()) : "\(error)"
                context.display.notice(context.pack.ui(.typingModeReason, ["reason": reason]))
            }
        }
        let status = await ExchangeSession(context: context, voice: voice).run()
        // Piped answers beyond the exchange's end would otherwise vanish without a word.
        if voice == nil, case let unused = context.input.unusedLines(), unused > 0 {
            context.display.notice(context.pack.ui(.unusedLines, ["count": "\(unused)"]))
        }
        return status
    }
}
