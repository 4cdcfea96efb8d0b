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
            .flag("--json", \.json, #"print {"text", "language", "segments": [{"start", "end", "text"}]}, with whisper's segment times (their timestamp tokens may cost some accuracy)"#),
            .flag("--fast", \.fast, "the dialogue's settings: greedy, encoder window fitted to the clip, no segment times"),
            .value("--whisper-model PATH", \.whisperModel, "another whisper.cpp ggml model"),
        ]
    }

    static func run(_ options: Arguments) async throws -> Int32 {
        TimeMarks.mark("command")
        let wav = try WAVFile(contentsOf: options.file)
        if let notice = wav.truncationNotice(file: options.file) { printError(notice) }
        let samples = wav.monoSamples(at: Transcriber.sampleRate)
        var transcript = Transcript(language: options.lang, segments: [])
        if AudioLevel.containsSpeechEnergy(samples) && !FileTranscription.isSteady(samples) {
            TimeMarks.mark("load")
            let transcriber = try Transcriber(modelPath: options.whisperModel ?? DefaultModels.whisper)
            TimeMarks.mark("loaded")
            var transcription = FileTranscription.options(language: options.lang, fast: options.fast, segmentTimes: options.json)
            let progress = wav.duration > 30 && isatty(STDERR_FILENO) == 1
            if progress { transcription.progress = showProgress }
            transcript = try await transcriber.transcribe(samples, options: transcription)
            if progress { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
        }
        if transcript.text.isEmpty { printError(FileTranscription.emptiness(of: samples).message(file: options.file)) }
        if options.json || !transcript.text.isEmpty { print(options.json ? JSONLine.encode(transcript.output) : transcript.text) }
        TimeMarks.mark("printed")
        return 0
    }

    /// A long file takes minutes: a line on the terminal's standard error, replaced in place,
    /// says how far whisper is (standard output stays the transcript alone).
    @Sendable static func showProgress(_ percent: Int) {
        FileHandle.standardError.write(Data("\r\u{1B}[2KTranscribing… \(min(max(percent, 0), 100))%".utf8))
    }
}
