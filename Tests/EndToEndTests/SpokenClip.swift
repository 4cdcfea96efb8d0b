import Speech
import Transcription

/// `text` spoken by espeak-ng in `voice`, as whisper takes it: 16 kHz mono samples in [-1, 1].
func spokenClip(_ text: String, voice: String) throws -> [Float] {
    let rendered = try SpeechSynthesizer.shared.render(text, voice: voice)
    return Resampler.resample(rendered.samples.map { Float($0) / 32_768 }, from: rendered.sampleRate,
                              to: Transcriber.sampleRate)
}
