import CWhisper
import Foundation

/// whisper.cpp and ggml print a page of diagnostics on every load. They go to standard error
/// only when DIALOGUE_MEMO_DEBUG is set (with whisper's timings after every transcription);
/// otherwise they are dropped.
enum EngineLog {
    static let isVerbose = ProcessInfo.processInfo.environment["DIALOGUE_MEMO_DEBUG"] != nil

    private static let once: Void = {
        if isVerbose {
            whisper_log_set({ _, text, _ in
                if let text { FileHandle.standardError.write(Data(String(cString: text).utf8)) }
            }, nil)
        } else {
            whisper_log_set({ _, _, _ in }, nil)
        }
    }()

    static func install() { _ = once }
}
