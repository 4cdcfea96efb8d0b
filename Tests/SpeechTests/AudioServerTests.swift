import Foundation
import Testing
@testable import Speech

/// Needs the private headless PulseAudio that `make test` starts (scripts/test-audio.sh).
@Suite("PulseAudio server (private headless test server)")
struct AudioServerTests {
    @Test func seesTheVirtualDevices() throws {
        try #require(ProcessInfo.processInfo.environment["DIALOGUE_MEMO_TEST_AUDIO"] != nil,
                     "run under scripts/test-audio.sh (make test does)")
        let info = try AudioServer().info()
        #expect(info.defaultSink == "speaker")
        #expect(info.defaultSource == "mic")
        #expect(info.sources.contains("deadmic"))
        #expect(info.sinks.contains("micfeed"))
    }

    @Test func anAbsentServerIsAnError() throws {
        #expect(throws: AudioServerError.self) {
            _ = try AudioServer(server: "unix:/nonexistent/pulse/native", timeout: 2)
        }
    }
}
