import DialogueCore
import Foundation
import Options
import Transcription

/// `dialogue-memo transcribe FILE.wav`: a WAV file (any rate or channel count) to text.
enum TranscribeCommand {
    struct Arguments: ParsableOptions {
        static let command = "dialogue-memo transcribe"
        static let about = "Transcribes a WAV file with the built-in whisper model."
        var file = ""
        var lang = "en"
        var json = false
        var fast = false
        var whisperModel: String?
        static let declarations: [Declaration<Self>] = [
            .positional("FILE.wav", \.file, "the recording (any rate or channel count)"),
            .value("--lang xx", \.lang, "language of the speech: en, ja, es, fr, de, or any other whisper language code",
                   ValueParser("takes a whisper language code such as en, ja, es, fr, de") { Transcriber.knowsLanguage($0) ? $0 : nil }),
            .flag("--json", \.json, #"print {"text", "language", "segments": [{"start", "end", "text"}]}"#),
            .flag("--fast", \.fast, "the dialogue's settings: greedy, encoder window fitted to the clip"),
            .value("--whisper-model PATH", \.whisperModel, "another whisper.cpp ggml model"),
        ]
    }

    static func run(_ options: Arguments) async throws -> Int32 {
        let wav = try WAVFile(contentsOf: options.file)
        let samples = wav.monoSamples(at: Transcriber.sampleRate)
        guard AudioLevel.containsSpeechEnergy(samples) else {
            if options.json {
                print(#"{"language":"\#(options.lang)","segments":[],"text":""}"#)
            }
            printError("\(options.file): the recording is silent; nothing to transcribe.")
            return 0
        }
        let transcriber = try Transcriber(modelPath: options.whisperModel ?? DefaultModels.whisper)
        // A file is transcribed for accuracy, not turn latency: the full 30 s encoder window
        // and beam search, as whisper-cli does.
        var transcription = TranscriptionOptions(language: options.lang)
        if !options.fast {
            transcription.fitAudioContextToClip = false
            transcription.beamSize = 5
        }
        let progress = wav.duration > 30 && isatty(STDERR_FILENO) == 1
        if progress { transcription.progress = showProgress }
        let transcript = try await transcriber.transcribe(samples, options: transcription)
        if progress { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
        print(options.json ? jsonLine(transcript) : transcript.text)
        return 0
    }

    /// A long file takes minutes: a line on the terminal's standard error, replaced in place,
    /// says how far whisper is (standard output stays the transcript alone).
    @Sendable static func showProgress(_ percent: Int) {
        FileHandle.standardError.write(Data("\r\u{1B}[2KTranscribing… \(min(max(percent, 0), 100))%".utf8))
    }

    static func jsonLine(_ transcript: Transcript) -> String {
        struct Segment: Encodable { let start: Double; let end: Double; let text: String }
        struct Output: Encodable { let text: String; let language: String; let segments: [Segment] }
        return dialogue_memo.jsonLine(Output(text: transcript.text, language: transcript.language,
                                             segments: transcript.segments.map {
                                                 Segment(start: $0.start, end: $0.end,
                                                         text: $0.text.trimmingCharacters(in: .whitespaces))
                                             }))
    }
}
