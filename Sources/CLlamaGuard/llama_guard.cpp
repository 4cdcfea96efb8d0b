#include "llama_guard.h"

#include <cstdio>
#include <exception>
#include <llama.h>

static void report(char *error, size_t size, const char *what) {
    if (error && size > 0) std::snprintf(error, size, "%s", what);
}

extern "C" struct llama_sampler *dm_grammar_sampler(const struct llama_vocab *vocab, const char *grammar,
                                                    const char *root, char *error, size_t error_size) {
    try {
        struct llama_sampler *s = llama_sampler_init_grammar(vocab, grammar, root);
        if (!s) report(error, error_size, "the grammar does not parse");
        return s;
    } catch (const std::exception &e) {
        report(error, error_size, e.what());
    } catch (...) {
        report(error, error_size, "unknown exception in llama_sampler_init_grammar");
    }
    return nullptr;
}

extern "C" int32_t dm_sample(struct llama_sampler *chain, struct llama_context *ctx, int32_t index,
                             char *error, size_t error_size) {
    try {
        return llama_sampler_sample(chain, ctx, index);
    } catch (const std::exception &e) {
        report(error, error_size, e.what());
    } catch (...) {
        report(error, error_size, "unknown exception in llama_sampler_sample");
    }
    return -1;
}

extern "C" bool dm_accept(struct llama_sampler *sampler, int32_t token, char *error, size_t error_size) {
    try {
        llama_sampler_accept(sampler, token);
        return true;
    } catch (const std::exception &e) {
        report(error, error_size, e.what());
    } catch (...) {
        report(error, error_size, "unknown exception in llama_sampler_accept");
    }
    return false;
}

extern "C" bool dm_apply(struct llama_sampler *sampler, struct llama_token_data_array *candidates,
                         char *error, size_t error_size) {
    try {
        llama_sampler_apply(sampler, candidates);
        return true;
    } catch (const std::exception &e) {
        report(error, error_size, e.what());
    } catch (...) {
        report(error, error_size, "unknown exception in llama_sampler_apply");
    }
    return false;
}
