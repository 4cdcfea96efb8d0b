import Foundation
import Testing
@testable import Speech

/// The program's own voice on the microphone, as from a loudspeaker: a loopback plays all that
/// `speaker` plays into `micfeed` (so onto `mic`) 30 ms later. Without echo cancellation a
/// question must not pass for the person going on; with PulseAudio's module-echo-cancel
/// (webrtc) on that echo path, the person can talk over a question and be heard.
extension SharedDevices {
    @Suite("Listener: the program's own voice on the microphone (real PulseAudio)")
    struct OwnVoiceTests {
        static let question = "What problem does it solve, and who would use it first, do you think?"

        /// Runs `body` with the echo path loaded (and the echo canceller's `ec_mic`/`ec_speaker`
        /// on it when `cancelled`), unloading both after: the other suites share the server.
        static func withEcho(cancelled: Bool, latency: Int = 30, _ body: () async throws -> Void) async throws {
            let loopback = try TestAudio.pactl("load-module", "module-loopback", "source=speaker.monitor", "sink=micfeed",
                                               "latency_msec=\(latency)", "source_dont_move=true", "sink_dont_move=true")
            defer { _ = try? TestAudio.pactl("unload-module", loopback.trimmingCharacters(in: .whitespacesAndNewlines)) }
            guard cancelled else { return try await body() }
            // With the arguments `doctor` recommends: what a person who follows it gets.
            let canceller = try TestAudio.run("/usr/bin/pactl", ["load-module", "module-echo-cancel"] + AudioServerInfo.echoCancellerArguments
                                              + ["source_master=mic", "sink_master=speaker", "source_name=ec_mic", "sink_name=ec_speaker"])
            defer { _ = try? TestAudio.pactl("unload-module", canceller.trimmingCharacters(in: .whitespacesAndNewlines)) }
            try await body()
        }

        /// An answer injected and heard to its end at its silence.
        static func hearAnswer(_ listener: Listener) async throws {
            let events = EventLog()
            let answer = try TestAudio.speech("A small app for sharing tools.")
            let injection = TestAudio.inject(answer, when: { try await events.wait(for: .listening) }, leadingSilence: 0)
            let heard = try await listener.listen(configuration: .default, onEvent: events.record)
            _ = try await injection.value
            try #require(heard.ending == .endOfSpeech)
        }

        /// Whether the person was heard going on before `speaker` finished playing the question.
        /// With `inProcess`, the listener is given the question's samples (its own canceller).
        static func resumedDuringQuestion(_ listener: Listener, _ speaker: Speaker, personAfter: Duration? = nil,
                                          inProcess: Bool = false, text: String = OwnVoiceTests.question) async throws -> Bool {
            let question = try TestAudio.speech(text)
            let person = try personAfter.map { delay in TestAudio.inject(try TestAudio.speech("With my neighbors in the building."), after: delay, leadingSilence: 0) }
            defer { person?.cancel() }
            let silence = speaker.nextLeadingSilence
            if inProcess { listener.questionStarts(playing: question, leadingSilence: silence) } else { listener.questionStarts() }
            enum Outcome: Sendable { case played, resumed(Bool) }
            return try await withThrowingTaskGroup(of: Outcome.self) { group in
                group.addTask { try await speaker.play(question, leadingSilence: silence); return .played }
                group.addTask { .resumed(await listener.speechOverQuestion() != nil) }
                while let outcome = try await group.next() {
                    switch outcome {
                    case .played: group.cancelAll(); return false
                    case .resumed(true): group.cancelAll(); return true
                    case .resumed(false): continue
                    }
                }
                return false
            }
        }

        @Test func withoutEchoCancellationAQuestionIsNotTakenForThePerson() async throws {
            _ = try TestAudio.directory()
            try await Self.withEcho(cancelled: false) {
                let server = try AudioServer()
                let listener = try Listener(server: server, device: "mic"), speaker = try Speaker(server: server, device: "speaker")
                #expect(listener.ownVoice == .mayBeHeard)
                try await Self.hearAnswer(listener)
                #expect(try await Self.resumedDuringQuestion(listener, speaker) == false, "the question's echo passed for the person")
                // And its echo is not the next answer either.
                var quick = Endpointing.Configuration.default
                quick.noAnswerTimeout = 1
                #expect(try await listener.listen(configuration: quick).ending == .noAnswer)
                // Control: the echo is really there, and taken for the person if not guarded.
                try await Self.hearAnswer(listener)
                listener.ownVoice = .unheard
                #expect(try await Self.resumedDuringQuestion(listener, speaker), "no echo on the microphone: the test proves nothing")
            }
        }

        /// On an ordinary microphone that hears the loudspeaker (no server-side canceller), the
        /// program takes its own question out in process: once it has learned the room (the
        /// opening), the question's echo is not the person, and the person over it is heard.
        @Test func withTheProgramsOwnCancellerThePersonCanTalkOverAQuestion() async throws {
            _ = try TestAudio.directory()
            try await Self.withEcho(cancelled: false, latency: 150) {
                let server = try AudioServer()
                let listener = try Listener(server: server, device: "mic"), speaker = try Speaker(server: server, device: "speaker")
                #expect(listener.ownVoice == .mayBeHeard)
                await listener.waitForFirstAudio()
                // The opening, which nobody talks over: the canceller learns the room.
                #expect(try await Self.resumedDuringQuestion(listener, speaker, inProcess: true,
                                                             text: "What idea would you like to capture today? Tell me about it.") == false)
                listener.questionEnds()
                try await Self.hearAnswer(listener)
                #expect(try await Self.resumedDuringQuestion(listener, speaker, inProcess: true) == false,
                        "the question's echo passed for the person")
                listener.questionEnds()
                try await Self.hearAnswer(listener)
                #expect(try await Self.resumedDuringQuestion(listener, speaker, personAfter: .milliseconds(800), inProcess: true),
                        "the person talking over the question was not heard")
            }
        }

        @Test func withEchoCancellationThePersonCanTalkOverAQuestion() async throws {
            _ = try TestAudio.directory()
            try await Self.withEcho(cancelled: true) {
                let server = try AudioServer()
                let listener = try Listener(server: server, device: "ec_mic"), speaker = try Speaker(server: server, device: "ec_speaker")
                try listener.detectEchoCancellation()
                #expect(listener.ownVoice == .echoCancelled)
                // The opening plays before anyone speaks (the canceller learns the echo path).
                try await speaker.play(try TestAudio.speech("What idea would you like to capture today? Tell me about it."))
                try await Self.hearAnswer(listener)
                #expect(try await Self.resumedDuringQuestion(listener, speaker) == false, "the question's own sound passed for the person")
                try await Self.hearAnswer(listener)
                #expect(try await Self.resumedDuringQuestion(listener, speaker, personAfter: .milliseconds(800)),
                        "the person talking over the question was not heard")
            }
        }
    }
}
