# Dialogue Memo: changes to whisper.cpp's src/whisper.cpp, applied by scripts/bootstrap.sh (which
# checks that each line matched, and puts this file in the engines' cache key).
#
# 1. The exact window. Why: with flash attention, whisper.cpp attends over the encoder window
# rounded up to a multiple of 256 frames (5.12 s) and masks nothing, so an encoder window of any
# other size also reads the rows past the clip that an earlier, longer clip left in the buffers
# (whisper.cpp PR #3941, open: a 1.5 s tail read in 128 frames changed its text after a longer
# clip; whisper-cli at 128 frames repeated a phrase). The dialogue therefore rounded every
# answer's window up to 256 frames, and a 5 s answer paid for a 10 s encoder run. On the CPU,
# flash attention needs no such rounding: it reads exactly the rows the clip filled. Only the
# sizes of the views change (the buffers keep their padded strides), for the encoder's
# self-attention and the decoder's cross-attention.
s/^\( *\)n_state_head, n_ctx_pad, n_head,$/\1n_state_head, n_ctx, n_head,/
s/^\( *\)n_state_head, n_audio_ctx_pad, n_head,$/\1n_state_head, n_audio_ctx, n_head,/

# 2. A cleared decoder cache stays out of memory until it is used. Why: whisper.cpp zeroes its
# self-attention cache with memset at every transcription, so all of it is resident; for the beam
# it is recreated at 7 × 512 cells (44 MB for base), of which a transcription uses a few hundred.
# After one beam pass (`transcribe`, the dialogue's final pass) those 44 MB stayed in the
# dialogue's peak memory. dialogue_memo_zero (scripts/whisper_draft.cpp) gives the buffer's
# whole pages back to the kernel instead (they read as zeros again, as after memset) and zeroes
# only the partial pages at its ends.
/^static bool whisper_kv_cache_init($/i\
static void dialogue_memo_zero(ggml_backend_buffer_t buffer);
s/^    ggml_backend_buffer_clear(cache\.buffer, 0);$/    dialogue_memo_zero(cache.buffer);/
