// What the decisions need of llama.cpp beyond its C API: the hidden states of a decode,
// and rows of the output matrix read from the GGUF file (see LanguageModel+HiddenStates).
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Where a decode's final hidden states (the graph node "result_norm", or a layer's output) are copied. While
/// `active`, the graph stops there: the output layer, a product with the whole vocabulary
/// (262k rows for gemma) for every output position, is skipped; the caller computes the few
/// logits it needs from the hidden states and `dm_output_matrix` rows.
typedef struct dm_hidden_capture {
    float *rows;       ///< destination, `capacity` floats
    size_t capacity;
    size_t filled;     ///< floats written so far (row after row, across micro-batches)
    bool active;
    bool overflow;     ///< a result did not fit (or was not f32): the rows are incomplete
    /// 0: the final hidden states of the output positions ("result_norm"); N > 0: the output of
    /// the first N layers for every position of the batch ("l_out-(N-1)"), the graph stopping there.
    int32_t layer_count;
} dm_hidden_capture;

/// Sets `params`' evaluation callback to copy the hidden states into `capture` (while active).
struct llama_context_params;
void dm_install_hidden_capture(struct llama_context_params *params, dm_hidden_capture *capture);

/// The output matrix of a GGUF file (`output.weight`, or the tied `token_embd.weight`), read
/// row by row from the file and converted to f32.
struct dm_output_matrix;
/// NULL when the file has no such matrix of `n_embd` × `n_vocab`.
struct dm_output_matrix *dm_output_matrix_open(const char *path, int64_t n_embd, int64_t n_vocab);
/// Row `token` (n_embd floats) into `dest`; false on a read error.
bool dm_output_matrix_row(struct dm_output_matrix *matrix, int32_t token, float *dest);
void dm_output_matrix_free(struct dm_output_matrix *matrix);

#ifdef __cplusplus
}
#endif
