#!/usr/bin/env bash
# Bench-only: builds llama.cpp's `llama-completion` (the classic one-shot completion tool) from
# the same llama-cpp-python sdist that bootstrap builds the engines from, against the SAME
# installed ggml (LLAMA_USE_SYSTEM_GGML), into the bench cache. Never used by the product.
#
# Usage: build-llama-completion.sh SDIST.tar.gz ENGINE_PREFIX OUT_DIR     (idempotent)
# Prints the path of the tool. Its build time goes to OUT_DIR/build-seconds.
set -euo pipefail
sdist=$1 prefix=$2 out=$3
if [ -x "$out/bin/llama-completion" ] && [ -f "$out/.complete" ]; then echo "$out/bin/llama-completion"; exit 0; fi
start=$SECONDS
rm -rf "$out/src" "$out/build"; mkdir -p "$out/src"
top=$(basename "$sdist" .tar.gz)   # an sdist unpacks into NAME-VERSION/
tar xzf "$sdist" -C "$out/src" "$top/vendor/llama.cpp"
src="$out/src/$top/vendor/llama.cpp"
rm -f "$src/.git"   # a vendored .git file points at a missing gitdir
cmake -S "$src" -B "$out/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
    -DLLAMA_USE_SYSTEM_GGML=ON -DCMAKE_PREFIX_PATH="$prefix" \
    -DLLAMA_BUILD_COMMON=ON -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
    -DLLAMA_BUILD_SERVER=OFF -DLLAMA_BUILD_APP=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF \
    -DLLAMA_OPENSSL=OFF -DLLAMA_CURL=OFF >"$out/build.log" 2>&1
cmake --build "$out/build" -j "$(nproc)" --target llama-completion >>"$out/build.log" 2>&1
mkdir -p "$out/bin"
ln -sfn "$out/build/bin/llama-completion" "$out/bin/llama-completion"
echo $((SECONDS - start)) >"$out/build-seconds"
rm -rf "$out/src"
touch "$out/.complete"
echo "$out/bin/llama-completion"
