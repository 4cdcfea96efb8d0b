// llama.cpp's grammar sampler throws C++ exceptions (for example "Unexpected empty grammar stack
// after accepting piece"). An exception crossing into Swift aborts the process, so these
// wrappers catch everything and report it as an error string instead.
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct llama_sampler;
struct llama_context;
struct llama_vocab;
struct llama_token_data_array;

/// A grammar sampler, or NULL with `error` filled when the grammar does not parse or throws.
struct llama_sampler *dm_grammar_sampler(const struct llama_vocab *vocab, const char *grammar,
                                         const char *root, char *error, size_t error_size);
/// The sampled token (and accepted by the chain), or -1 with `error` filled.
int32_t dm_sample(struct llama_sampler *chain, struct llama_context *ctx, int32_t index,
                  char *error, size_t error_size);
/// Feeds a token the caller chose to the sampler; false with `error` filled if it threw.
bool dm_accept(struct llama_sampler *sampler, int32_t token, char *error, size_t error_size);
/// Applies a sampler (e.g. a grammar) to candidates; false with `error` filled if it threw.
bool dm_apply(struct llama_sampler *sampler, struct llama_token_data_array *candidates,
              char *error, size_t error_size);

/// Where a decode's final hidden states (the graph node "result_norm") are copied. While
/// `active`, the graph stops there: the output layer, a product with the whole vocabulary
/// (262k rows for gemma) for every output position, is skipped; the caller computes the few
/// logits it needs from the hidden states and `dm_output_matrix` rows.
typedef struct dm_hidden_capture {
    float *rows;       ///< destination, `capacity` floats
    size_t capacity;
    size_t filled;     ///< floats written so far (row after row, across micro-batches)
    bool active;
    bool overflow;     ///< a result did not fit (or was not f32): the rows are incomplete
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
