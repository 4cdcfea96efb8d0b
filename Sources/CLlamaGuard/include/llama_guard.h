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

#ifdef __cplusplus
}
#endif
