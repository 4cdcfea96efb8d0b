#include "llama_guard.h"

#include <cstdio>
#include <cstring>
#include <ggml.h>
#include <ggml-backend.h>
#include <gguf.h>
#include <llama.h>
#include <vector>

static bool hidden_callback(struct ggml_tensor *t, bool ask, void *user_data) {
    auto *capture = static_cast<dm_hidden_capture *>(user_data);
    if (!capture || !capture->active) return !ask;  // ask for nothing, go on
    bool hidden = false;
    if (capture->layer_count == 0) {
        hidden = std::strcmp(t->name, "result_norm") == 0;
    } else {
        char name[32];
        std::snprintf(name, sizeof name, "l_out-%d", (int)capture->layer_count - 1);
        hidden = std::strcmp(t->name, name) == 0;
    }
    if (ask) return hidden;
    if (!hidden) return true;
    const size_t count = (size_t)ggml_nelements(t);
    if (t->type == GGML_TYPE_F32 && capture->filled + count <= capture->capacity) {
        ggml_backend_tensor_get(t, capture->rows + capture->filled, 0, count * sizeof(float));
        capture->filled += count;
    } else {
        capture->overflow = true;
    }
    return false;  // stop the graph here: the layers after it (or the output layer) are not needed
}

extern "C" void dm_install_hidden_capture(struct llama_context_params *params, dm_hidden_capture *capture) {
    params->cb_eval = hidden_callback;
    params->cb_eval_user_data = capture;
}

struct dm_output_matrix {
    FILE *file;
    long long offset;
    size_t row_size;
    int64_t n_embd;
    int64_t n_vocab;
    ggml_type type;
    std::vector<unsigned char> raw;
};

extern "C" struct dm_output_matrix *dm_output_matrix_open(const char *path, int64_t n_embd, int64_t n_vocab) {
    struct ggml_context *meta = nullptr;
    struct gguf_init_params params = {/*no_alloc =*/true, /*ctx =*/&meta};
    struct gguf_context *gguf = gguf_init_from_file(path, params);
    if (!gguf) return nullptr;
    dm_output_matrix *matrix = nullptr;
    const char *names[] = {"output.weight", "token_embd.weight"};
    for (const char *name : names) {
        const int64_t id = gguf_find_tensor(gguf, name);
        if (id < 0) continue;
        struct ggml_tensor *tensor = ggml_get_tensor(meta, name);
        const ggml_type type = gguf_get_tensor_type(gguf, id);
        const bool convertible = type == GGML_TYPE_F32 || ggml_get_type_traits(type)->to_float != nullptr;
        if (tensor && tensor->ne[0] == n_embd && tensor->ne[1] == n_vocab && convertible) {
            FILE *file = std::fopen(path, "rb");
            if (file) {
                matrix = new dm_output_matrix{file, (long long)(gguf_get_data_offset(gguf) + gguf_get_tensor_offset(gguf, id)),
                                              ggml_row_size(type, n_embd), n_embd, n_vocab, type, {}};
                matrix->raw.resize(matrix->row_size);
            }
        }
        break;  // output.weight, when present, is the matrix even if unusable
    }
    gguf_free(gguf);
    if (meta) ggml_free(meta);
    return matrix;
}

extern "C" bool dm_output_matrix_row(struct dm_output_matrix *matrix, int32_t token, float *dest) {
    if (!matrix || token < 0 || token >= matrix->n_vocab) return false;
    if (fseeko(matrix->file, (off_t)(matrix->offset + (long long)token * (long long)matrix->row_size), SEEK_SET) != 0) return false;
    if (std::fread(matrix->raw.data(), 1, matrix->row_size, matrix->file) != matrix->row_size) return false;
    if (matrix->type == GGML_TYPE_F32) {
        std::memcpy(dest, matrix->raw.data(), matrix->row_size);
    } else {
        ggml_get_type_traits(matrix->type)->to_float(matrix->raw.data(), dest, matrix->n_embd);
    }
    return true;
}

extern "C" void dm_output_matrix_free(struct dm_output_matrix *matrix) {
    if (!matrix) return;
    std::fclose(matrix->file);
    delete matrix;
}
