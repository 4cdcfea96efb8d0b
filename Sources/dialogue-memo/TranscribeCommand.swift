import DialogueCore
import Foundation
import Transcription

/// `dialogue-memo transcribe FILE.wav`: a WAV file (any rate or channel count) to text.
enum TranscribeCommand {
    static let usage = """
    Usage: dialogue-memo transcribe FILE.wav [--lang xx] [--json] [--fast] [--whisper-model PATH]

    Transcribes a WAV file with the built-in whisper model.
      --lang xx              language of the speech: en, ja, es, fr, de (default: en)
      --json                 print {"text", "language", "segments": [{"start","end","text"}]}
      --fast                 the dialogue's settings: greedy, encoder window fitted to the clip
      --whisper-model PATH   another whisper.cpp ggml model
    """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let options = try Options.command(arguments, flags: ["--json", "--fast"], values: ["--lang", "--whisper-model"], usage: usage)
        guard options.positional.count == 1, let path = options.positional.first else {
            printError("transcribe needs exactly one WAV file.\n\n\(usage)")
            return 2
        }
        let language = options.values["--lang"] ?? "en"
        let modelPath = options.values["--whisper-model"] ?? DefaultModels.whisper
        do {
            let wav = try WAVFile(contentsOf: path)
            let samples = wav.monoSamples(at: Transcriber.sampleRate)
            guard AudioLevel.containsSpeechEnergy(samples) else {
                if options.flags.contains("--json") {
                    print(#"{"language":"\#(language)","segments":[],"text":""}"#)
                }
                printError("\(path): the recording is silent; nothing to transcribe.")
                return 0
            }
            let transcriber = try Transcriber(modelPath: modelPath)
            // A file is transcribed for accuracy, not turn latency: the full 30 s encoder window
            // and beam search, as whisper-cli does.
            var transcription = TranscriptionOptions(language: language)
            if !options.flags.contains("--fast") {
                transcription.fitAudioContextToClip = false
                transcription.beamSize = 5
            }
            let transcript = try await transcriber.transcribe(samples, options: transcription)
            if options.flags.contains("--json") {
                print(try jsonLine(transcript))
            } else {
                print(transcript.text)
            }
            return 0
        } catch {
            printError("\(error)")
            return 1
        }
    }

    static func jsonLine(_ transcript: Transcript) throws -> String {
        struct Segment: Encodable { let start: Double; let end: Double; let text: String }
        struct Output: Encodable { let text: String; let language: String; let segments: [Segment] }
        let output = Output(text: transcript.text, language: transcript.language,
                            segments: transcript.segments.map {
                                Segment(start: $0.start, end: $0.end,
                                        text: $0.text.trimmingCharacters(in: .whitespaces))
                            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(output), as: UTF8.self)
    }
}
