
// ---- Dialogue Memo: greedy decoding checked against a draft ------------------------------------
// Written by the Dialogue Memo project, not part of whisper.cpp. scripts/bootstrap.sh appends it
// to whisper.cpp's own translation unit, because it needs whisper's internal state and functions
// (the ones whisper_full uses); the declaration the program sees is in Sources/CWhisper/shim.h.
//
// Why: at every pause the dialogue transcribes the whole answer so far again, and most of the text
// is what the previous pause gave. whisper_full runs the decoder once per token, and on two cores
// that was half of whisper's time at a pause (27 tokens: 205 ms of 444). Here the earlier text (the
// draft) goes through the decoder in one batch after the task prompt, every row's logits are
// processed exactly as whisper_full processes them (whisper_process_logits, whisper_sample_token),
// and each row's greedy token is compared with the draft's next one: while they agree, the draft
// is whisper's own greedy output, so the first disagreement is where decoding one token at a time
// takes over. The text is whisper_full's greedy text, and a wrong draft costs one batch.
//
// Only the dialogue's decoding takes this path: greedy at temperature 0 without fallback, without
// timestamps, without a prompt or past context, one 30 s window. Anything else goes to
// whisper_full unchanged. One difference is kept on purpose: whisper_full reads its no-speech
// probability from a logits row it did not compute (row 0 of the prompt batch, left over from the
// previous call) and may drop the segment on it; here it is read from the prompt's last row and
// only reported (whisper_full_get_segment_no_speech_prob), never used to drop words.
//
// *n_accepted: draft tokens confirmed, or -1 when whisper_full ran instead.
extern "C" WHISPER_API int dialogue_memo_full_with_draft(
        struct whisper_context * ctx, struct whisper_full_params params,
        const float * samples, int n_samples,
        const whisper_token * draft, int n_draft, int * n_accepted);

// whisper_encode_internal asks its abort callback only once the encoder has run: 200-400 ms on two
// cores for an answer of a few seconds, which a pause waited out for a pass it had made useless.
// The callback is lent to the backends for the encoder, whose graph then stops between two nodes.
static void dialogue_memo_lend_abort(whisper_state * state, ggml_abort_callback callback, void * data) {
    for (ggml_backend_t backend : state->backends) {
        ggml_backend_dev_t dev = ggml_backend_get_device(backend);
        ggml_backend_reg_t reg = dev ? ggml_backend_dev_backend_reg(dev) : nullptr;
        auto * set = reg ? (ggml_backend_set_abort_callback_t) ggml_backend_reg_get_proc_address(reg, "ggml_backend_set_abort_callback") : nullptr;
        if (set) {
            set(backend, callback, data);
        }
    }
}

// Encoder runs whisper finished in this context (an aborted one is not counted).
extern "C" WHISPER_API int dialogue_memo_encoder_runs(struct whisper_context * ctx);

extern "C" WHISPER_API int dialogue_memo_encoder_runs(struct whisper_context * ctx) {
    return ctx->state ? ctx->state->n_encode : 0;
}

extern "C" WHISPER_API int dialogue_memo_full_with_draft(
        struct whisper_context * ctx, struct whisper_full_params params,
        const float * samples, int n_samples,
        const whisper_token * draft, int n_draft, int * n_accepted) {
    if (n_accepted) {
        *n_accepted = -1;
    }
    whisper_state * state = ctx->state;
    const bool supported = state != nullptr
        && params.strategy == WHISPER_SAMPLING_GREEDY && params.temperature < 1e-6f && params.temperature_inc <= 0.0f
        && params.no_timestamps && params.no_context && !params.token_timestamps && !params.tdrz_enable
        && params.language != nullptr && strlen(params.language) > 0 && strcmp(params.language, "auto") != 0
        && !params.detect_language && params.initial_prompt == nullptr && params.prompt_tokens == nullptr
        && params.n_grammar_rules == 0 && !params.vad && params.offset_ms == 0 && params.duration_ms == 0
        && params.progress_callback == nullptr && params.encoder_begin_callback == nullptr
        && params.new_segment_callback == nullptr && !ctx->params.dtw_token_timestamps
        && params.audio_ctx <= whisper_n_audio_ctx(ctx) && whisper_lang_id(params.language) >= 0
        && n_samples > 0 && n_samples <= WHISPER_SAMPLE_RATE*WHISPER_CHUNK_SIZE;
    if (!supported) {
        return whisper_full(ctx, params, samples, n_samples);
    }

    state->result_all.clear();
    if (whisper_pcm_to_mel_with_state(ctx, state, samples, n_samples, params.n_threads) != 0) {
        return -2;
    }
    // whisper_full: less than 100 ms of spectrogram is not processed
    if (whisper_n_len_from_state(state) < 10) {
        return 0;
    }
    state->exp_n_audio_ctx = params.audio_ctx;

    const whisper_token eot = whisper_token_eot(ctx);
    std::vector<whisper_token> prompt = { whisper_token_sot(ctx) };
    if (whisper_is_multilingual(ctx)) {
        const int lang_id = whisper_lang_id(params.language);
        state->lang_id = lang_id;
        prompt.push_back(whisper_token_lang(ctx, lang_id));
        prompt.push_back(params.translate ? whisper_token_translate(ctx) : whisper_token_transcribe(ctx));
    }
    prompt.push_back(whisper_token_not(ctx));
    const int n_prompt = prompt.size();

    dialogue_memo_lend_abort(state, params.abort_callback, params.abort_callback_user_data);
    const bool encoded = whisper_encode_internal(*ctx, *state, 0, params.n_threads, params.abort_callback, params.abort_callback_user_data);
    dialogue_memo_lend_abort(state, nullptr, nullptr);
    if (!encoded) {
        return -6;
    }

    // as whisper_full: at most n_max tokens, the last of which ends the segment
    const int n_max = whisper_n_text_ctx(ctx)/2 - 4;
    std::vector<whisper_token> tokens = prompt;
    for (int i = 0; i < n_draft && i < n_max - 1 && draft[i] < eot; ++i) {
        tokens.push_back(draft[i]);
    }
    const int n_drafted = tokens.size() - n_prompt;
    // A row costs about a fifth of a one-token call (the vocabulary projection), so a draft is
    // checked a stretch at a time: a wrong one then wastes one stretch. Each row also holds its
    // logits (200 KB) until the end, and the dialogue's peak memory is near its 600 MB budget.
    const int first_stretch = 24, stretch = 16;

    auto & decoder = state->decoders[0];
    decoder.sequence.tokens.clear();
    decoder.sequence.result_len       = 0;
    decoder.sequence.sum_logprobs_all = 0.0;
    decoder.sequence.sum_logprobs     = -INFINITY;
    decoder.sequence.avg_logprobs     = -INFINITY;
    decoder.sequence.entropy          = 0.0;
    decoder.sequence.score            = -INFINITY;
    decoder.seek_delta = 100*WHISPER_CHUNK_SIZE;
    decoder.failed     = false;
    decoder.completed  = false;
    decoder.has_ts     = false;
    decoder.grammar    = {};

    whisper_kv_cache_clear(state->kv_self);
    whisper_batch_prep_legacy(state->batch, tokens.data(), n_prompt + std::min(n_drafted, first_stretch), 0, 0);
    for (int i = n_prompt - 1; i < n_prompt + std::min(n_drafted, first_stretch); ++i) {
        state->batch.logits[i] = 1;
    }
    if (!whisper_decode_internal(*ctx, *state, state->batch, params.n_threads, false, params.abort_callback, params.abort_callback_user_data)) {
        return -8;
    }

    const int n_vocab = ctx->vocab.n_vocab;
    {
        const std::vector<float> row(state->logits.begin() + (n_prompt - 1)*n_vocab, state->logits.begin() + n_prompt*n_vocab);
        std::vector<float> logprobs(n_vocab), probs(n_vocab);
        whisper_compute_logprobs(row, n_vocab, logprobs);
        whisper_compute_probs(row, n_vocab, logprobs, probs);
        state->no_speech_prob = probs[whisper_token_nosp(ctx)];
    }

    // rows: the tokens of the latest decoder batch; row r's logits follow rows[r]. cursor: the
    // draft token expected next.
    std::vector<whisper_token> rows(tokens.begin(), tokens.begin() + n_prompt + std::min(n_drafted, first_stretch));
    int row = n_prompt - 1, cursor = 0, accepted = 0;
    bool guessing = true;
    decoder.i_batch = row;
    whisper_process_logits(*ctx, *state, decoder, params, 0.0f);
    for (int i = 0; i < n_max; ++i) {
        decoder.sequence.tokens.push_back(whisper_sample_token(*ctx, decoder, true));
        decoder.sequence.sum_logprobs_all += decoder.sequence.tokens.back().plog;
        const whisper_token id = decoder.sequence.tokens.back().id;
        if (id == eot || (params.max_tokens > 0 && i >= params.max_tokens)) {
            decoder.sequence.result_len = i + 1;
            decoder.completed = true;
            break;
        }
        if (i == n_max - 1) {
            decoder.failed = true;   // whisper_full's "repetition loop"
            break;
        }
        if (row + 1 < (int) rows.size() && rows[row + 1] == id) {
            // the batch already holds the row that follows this token
            ++row;
            ++accepted;
            ++cursor;
        } else {
            // Off the draft: a word came out otherwise. Find where the draft goes on (the same
            // token a little further, as after a word inserted or dropped; else, once, the token
            // after the one replaced) and check that continuation in the batch of this token. A
            // guess that failed is not guessed again until the draft is found once more.
            int next = -1;
            for (int j = std::max(0, cursor - 2); j < std::min(n_drafted, cursor + 8); ++j) {
                if (tokens[n_prompt + j] == id) { next = j + 1; break; }
            }
            const bool found = next >= 0;
            if (!found) {
                next = cursor + 1;
            }
            if (rows.size() > 1 && row == 0) {
                guessing = false;   // the continuation checked last time failed at once
            }
            if (found) {
                guessing = true;
            }
            cursor = next;
            rows.assign(1, id);
            for (int j = cursor; guessing && j < n_drafted && (int) rows.size() <= stretch && i + (int) rows.size() < n_max; ++j) {
                rows.push_back(tokens[n_prompt + j]);
            }
            const int n_past = n_prompt + i;
            whisper_kv_cache_seq_rm(state->kv_self, 0, n_past, -1);
            whisper_batch_prep_legacy(state->batch, rows.data(), rows.size(), n_past, 0);
            for (int r = 0; r < (int) rows.size(); ++r) {
                state->batch.logits[r] = 1;
            }
            if (!whisper_decode_internal(*ctx, *state, state->batch, params.n_threads, false, params.abort_callback, params.abort_callback_user_data)) {
                return -9;
            }
            row = 0;
        }
        decoder.i_batch = row;
        whisper_process_logits(*ctx, *state, decoder, params, 0.0f);
    }
    if (!decoder.failed) {
        whisper_sequence_score(params, decoder.sequence);
    }
    // the batches' logits (up to 5 MB) are not kept for the rest of the dialogue
    std::vector<float>().swap(state->logits);

    const auto & tokens_cur = decoder.sequence.tokens;
    std::string text;
    for (const auto & token : tokens_cur) {
        if (params.print_special || token.id < eot) {
            text += whisper_token_to_str(ctx, token.id);
        }
    }
    if (!tokens_cur.empty() && !text.empty()) {
        const int64_t t0 = 2*(tokens_cur.front().tid - whisper_token_beg(ctx));
        state->result_all.push_back({ t0, decoder.seek_delta, text, state->no_speech_prob, tokens_cur, false });
    }
    if (n_accepted) {
        *n_accepted = accepted;
    }
    return 0;
}

// ---- Dialogue Memo: a transcription that stops at once -------------------------------------------
// An answer's final pass runs on the live state while the dialogue is idle, and must yield the two
// cores the moment a live pass or the language model needs them. whisper_full asks its abort
// callback only between encoder and decoder runs (an encoder run is a few hundred ms on two cores),
// so the callback is lent to the state's backends for the whole call, as above. (A second state
// would hold a second set of buffers: 134 MB more at peak in `make bench`.)
extern "C" WHISPER_API int dialogue_memo_full(
        struct whisper_context * ctx, struct whisper_full_params params, const float * samples, int n_samples);

extern "C" WHISPER_API int dialogue_memo_full(
        struct whisper_context * ctx, struct whisper_full_params params, const float * samples, int n_samples) {
    whisper_state * state = ctx->state;
    dialogue_memo_lend_abort(state, params.abort_callback, params.abort_callback_user_data);
    const int status = whisper_full_with_state(ctx, state, params, samples, n_samples);
    dialogue_memo_lend_abort(state, nullptr, nullptr);
    return status;
}

// ---- Dialogue Memo: a cache cleared without making it resident ------------------------------------
// whisper.cpp clears its self-attention cache with memset at every transcription (the call is
// replaced by scripts/whisper.sed), which makes every page of it resident: 44 MB for the beam's
// 7 × 512 cells, of which a transcription uses a few hundred. Private anonymous memory (the CPU
// backend's buffers: malloc or mmap) given back with MADV_DONTNEED reads as zeros on its next
// touch, as after memset, and costs nothing until then. The partial pages at the ends are zeroed.
#include <sys/mman.h>
#include <unistd.h>

static void dialogue_memo_zero(ggml_backend_buffer_t buffer) {
    char * base = (char *) ggml_backend_buffer_get_base(buffer);
    const size_t size = ggml_backend_buffer_get_size(buffer);
    const uintptr_t page = (uintptr_t) sysconf(_SC_PAGESIZE);
    if (!ggml_backend_buffer_is_host(buffer) || base == nullptr || page == 0 || size < 4*page) {
        ggml_backend_buffer_clear(buffer, 0);
        return;
    }
    char * first = (char *) (((uintptr_t) base + page - 1) & ~(page - 1));
    char * last  = (char *) (((uintptr_t) base + size) & ~(page - 1));
    if (madvise(first, last - first, MADV_DONTNEED) != 0) {
        ggml_backend_buffer_clear(buffer, 0);
        return;
    }
    memset(base, 0, first - base);
    memset(last, 0, base + size - last);
}
