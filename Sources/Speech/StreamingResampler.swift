import CSpeexDSP

/// Sample-rate conversion in pieces (speexdsp's resampler), for the echo canceller's reference:
/// questions are synthesized at 22,050 Hz and the microphone is read at 16 kHz. Fast enough for
/// the capture callback or for a whole question before it plays (Transcription's `Resampler` is
/// exact but made for clips). The output starts with the first input sample (no leading delay);
/// the last few samples of the input stay inside until `flush()`.
/// Not thread-safe: one caller at a time.
public final class StreamingResampler {
    public let inputRate: Int
    public let outputRate: Int
    private let state: OpaquePointer
    private var adjusted = false

    /// `quality` 0–10: speexdsp's 5 ("desktop") is what the echo bench measured with.
    public init(from inputRate: Int, to outputRate: Int, quality: Int32 = 5) {
        precondition(inputRate > 0 && outputRate > 0 && (0...10).contains(quality))
        self.inputRate = inputRate
        self.outputRate = outputRate
        var error: Int32 = 0
        state = speex_resampler_init(1, UInt32(inputRate), UInt32(outputRate), quality, &error)!
        speex_resampler_skip_zeros(state)
    }

    deinit { speex_resampler_destroy(state) }

    /// The next piece of output for the next piece of input.
    public func process(_ input: [Float]) -> [Float] {
        if inputRate == outputRate && !adjusted { return input }
        var output = [Float](repeating: 0, count: input.count * outputRate / inputRate + input.count / 1000 + 16)
        var produced = 0
        var consumed = 0
        input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                while consumed < source.count {
                    var inLength = UInt32(source.count - consumed)
                    var outLength = UInt32(target.count - produced)
                    speex_resampler_process_float(state, 0, source.baseAddress! + consumed, &inLength,
                                                  target.baseAddress! + produced, &outLength)
                    consumed += Int(inLength)
                    produced += Int(outLength)
                    if inLength == 0 && outLength == 0 { break }  // cannot happen: room is sized above
                }
            }
        }
        return Array(output.prefix(produced))
    }

    /// What the filter still holds of the input so far (its tail), as output.
    public func flush() -> [Float] {
        if inputRate == outputRate && !adjusted { return [] }
        let latency = Int(speex_resampler_get_input_latency(state))
        let wanted = Int(speex_resampler_get_output_latency(state))
        return Array(process([Float](repeating: 0, count: latency)).prefix(wanted))
    }

    /// Sets the input's rate as the output's clock counts it: a speaker and a microphone on two
    /// clocks (USB, Bluetooth) disagree by up to a few hundred ppm, and a reference that slides
    /// against its echo halves the canceller's ERLE at 100 ppm (12 -> 21 dB with the true rate
    /// on the bench). `hertz` to a thousandth; the filter keeps its history.
    public func setInputRate(_ hertz: Double) {
        precondition(hertz > 0 && hertz * 1000 < Double(UInt32.max))
        adjusted = true
        speex_resampler_set_rate_frac(state, UInt32((hertz * 1000).rounded()), UInt32(outputRate * 1000),
                                      UInt32(hertz.rounded()), UInt32(outputRate))
    }

    /// Forgets the input so far (a new stream).
    public func reset() {
        speex_resampler_reset_mem(state)
        speex_resampler_skip_zeros(state)
    }

    /// A whole buffer converted at once.
    public static func convert(_ samples: [Float], from inputRate: Int, to outputRate: Int) -> [Float] {
        let resampler = StreamingResampler(from: inputRate, to: outputRate)
        return resampler.process(samples) + resampler.flush()
    }
}
