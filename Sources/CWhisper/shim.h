// whisper.h from the cache prefix built by `make deps` (found through -I, see Package.swift).
#include <whisper.h>

// The project's own addition to libwhisper (scripts/whisper_draft.cpp, appended to whisper.cpp's
// translation unit by scripts/bootstrap.sh): whisper_full's greedy decoding, with `draft` (text
// tokens whisper gave earlier for the start of the same audio) checked in one decoder batch
// instead of decoded a token at a time. Any other decoding falls back to whisper_full.
// *n_accepted: the draft tokens confirmed, or -1 when whisper_full ran instead.
int dialogue_memo_full_with_draft(struct whisper_context * ctx, struct whisper_full_params params,
                                  const float * samples, int n_samples,
                                  const whisper_token * draft, int n_draft, int * n_accepted);

// Encoder runs whisper finished in this context: an encoder stopped by the abort callback (which
// dialogue_memo_full_with_draft lends to the backends, so it stops inside the encoder) is not one.
int dialogue_memo_encoder_runs(struct whisper_context * ctx);

// whisper_full on the context's own state, with the abort callback lent to its backends for the
// whole call, so that a pass (an answer's final pass, run while the dialogue is idle) stops inside
// the encoder too when a live pass needs the state.
int dialogue_memo_full(struct whisper_context * ctx, struct whisper_full_params params,
                       const float * samples, int n_samples);
