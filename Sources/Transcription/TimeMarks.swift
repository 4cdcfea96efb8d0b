import Foundation

/// With DIALOGUE_MEMO_TIMES set, `transcribe` writes a line to standard error at each stage
/// (`dialogue-memo-time STAGE SECONDS`, the monotonic clock a parent process reads too), so
/// scripts/bench/transcribe_speed.py can split a run into start-up, model load, decode and filter.
public enum TimeMarks {
    public static let isOn = ProcessInfo.processInfo.environment["DIALOGUE_MEMO_TIMES"] != nil

    public static func mark(_ stage: String) {
        guard isOn else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let line = String(format: "dialogue-memo-time %@ %.6f\n", stage, Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
        FileHandle.standardError.write(Data(line.utf8))
    }
}
