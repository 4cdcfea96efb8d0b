import CWhisper
import Foundation

/// A second whisper state on the live transcriber's model, for work beside the dialogue (an
/// answer's final pass): the weights are shared, the buffers are its own, so a final pass never
/// stands in the live transcriber's queue. Its runs stop at once when their task is cancelled,
/// inside the encoder too, so the live path gets the cores back without waiting.
public actor BackgroundTranscriber {
    private let handle: WhisperHandle
    private let state: WhisperStateHandle
    private let tokenRules: TokenRules

    public init(sharing transcriber: Transcriber) throws {
        handle = transcriber.handle
        tokenRules = transcriber.tokenRules
        guard let state = whisper_init_state(handle.context) else {
            throw TranscriberError.modelInvalid(path: transcriber.modelPath)
        }
        self.state = WhisperStateHandle(state)
    }

    /// Transcribes as `Transcriber.transcribe` does (no draft: a final pass decodes afresh).
    public func transcribe(_ samples: [Float], options: TranscriptionOptions) async throws -> Transcript {
        try await AbortFlag.raisedOnCancel { try await self.run(samples, options: options, abort: $0) }
    }

    private func run(_ samples: [Float], options: TranscriptionOptions, abort: AbortFlag) throws -> Transcript {
        let context = handle.context, state = state.state
        return try Transcriber.transcribe(samples, options: options, abort: abort, rules: tokenRules,
                                          output: WhisperOutput(context: context, state: state)) { params, samples in
            dialogue_memo_full_with_state(context, state, params, samples.baseAddress, Int32(samples.count))
        }
    }
}

/// Owns a whisper state; frees it when the last reference goes (the context outlives it: the
/// transcriber holds the context's handle).
final class WhisperStateHandle {
    let state: OpaquePointer
    init(_ state: OpaquePointer) { self.state = state }
    deinit { whisper_free_state(state) }
}
