#!/usr/bin/env bash
# Installs the release build self-contained under $DESTDIR$PREFIX, or removes what it installed.
#   bin/dialogue-memo              RUNPATH $ORIGIN/../lib/dialogue-memo only (the builder's cache
#                                  path, linked in by Package.swift, is replaced)
#   lib/dialogue-memo/             libwhisper, libllama, one ggml (and ggml's CPU variants, one per
#                                  instruction set, when the engines are the portable ones)
#   share/dialogue-memo/           Locales/, models/, samples/jfk.wav, private-server.pa
#   share/doc/dialogue-memo/       copyright (every licence and term), README.md
#   share/man/man1, shell completions (written by the binary from its own options)
# `make install` lists every path it creates in share/dialogue-memo/installed-files, which
# `make uninstall` reads back: it removes those and nothing else. A package (NO_MANIFEST=1) needs
# no list: dpkg keeps its own.
#
# Usage: scripts/install.sh install|uninstall
# Environment: PREFIX (required), DESTDIR, BINARY (default .build/release/dialogue-memo),
#              PORTABLE=1 (the engines for any x86-64 CPU), NO_MANIFEST=1
# The engines and models come from the cache the binary was linked against (its RUNPATH names
# `<cache>/current/lib`), so `sudo make install` takes the building user's, not root's.
set -Eeuo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
: "${PREFIX:?PREFIX is required}"
DESTDIR=${DESTDIR:-}
root="$DESTDIR$PREFIX"
manifest_path="share/dialogue-memo/installed-files"
fail() { printf 'install: %s\n' "$1" >&2; exit 1; }

if [ "${1:-}" = uninstall ]; then
    manifest="$root/$manifest_path"
    [ -f "$manifest" ] || fail "$manifest is missing: nothing was installed under $root by make install"
    # Files first, then the folders the install created, deepest first, each only if empty.
    created=$(sort -r "$manifest.dirs" 2>/dev/null || true)
    while IFS= read -r path; do rm -f -- "$DESTDIR$path"; done <"$manifest"
    rm -f -- "$manifest" "$manifest.dirs"
    while IFS= read -r dir; do
        [ -z "$dir" ] || rmdir --ignore-fail-on-non-empty -- "$DESTDIR$dir" 2>/dev/null || true
    done <<<"$created"
    rmdir --ignore-fail-on-non-empty -- "$root/share/dialogue-memo" 2>/dev/null || true
    echo "Removed dialogue-memo from $root"
    exit 0
fi
[ "${1:-}" = install ] || fail "usage: scripts/install.sh install|uninstall"

binary=${BINARY:-$repo/.build/release/dialogue-memo}
[ -x "$binary" ] || fail "$binary is missing: run make release first"
linked=$(readelf -d "$binary" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
cache=""
IFS=: read -ra entries <<<"$linked"
for entry in "${entries[@]}"; do case "$entry" in */current/lib) cache=${entry%/current/lib} ;; esac; done
[ -n "$cache" ] || fail "$binary was not linked against a make deps cache (RUNPATH '$linked')"
ENGINES="$cache/current"; [ "${PORTABLE:-}" = 1 ] && ENGINES="$cache/portable"
MODELS="$cache/models"
[ -f "$ENGINES/.complete" ] || fail "$ENGINES holds no complete engine build: run make deps$([ "${PORTABLE:-}" = 1 ] && echo ' portable')"
[ -f "$MODELS/.complete" ] || fail "$MODELS holds no complete models: run make deps"
if ! command -v patchelf >/dev/null; then
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "==> Installing patchelf (sets the installed program's library path)"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends patchelf >/dev/null \
        || fail "patchelf is needed: sudo apt-get install patchelf"
fi

files=(); dirs=()
# folder PATH…: creates each folder under $root, remembering those that did not exist.
folder() {
    local d
    for d in "$@"; do
        local missing="" part="$root"
        for piece in ${d//\// }; do
            part="$part/$piece"
            [ -d "$part" ] || missing="$missing ${part#"$DESTDIR"}/"
        done
        install -d -m 0755 "$root/$d"
        for m in $missing; do dirs+=("$m"); done
    done
}
# put MODE SOURCE DEST: copies a file to $root/DEST.
put() { install -m "$1" "$2" "$root/$3"; files+=("$PREFIX/$3"); }

lib=lib/dialogue-memo share=share/dialogue-memo doc=share/doc/dialogue-memo
folder bin "$lib" "$share/Locales" "$share/models" "$share/samples" "$doc" share/man/man1 \
    share/bash-completion/completions share/zsh/vendor-completions share/fish/vendor_completions.d

put 0755 "$binary" bin/dialogue-memo
strip --strip-debug "$root/bin/dialogue-memo"
patchelf --set-rpath '$ORIGIN/../lib/dialogue-memo' "$root/bin/dialogue-memo"

# The engines' run-time files only: each library with its soname links, no headers or cmake files.
for f in "$ENGINES"/lib/lib{ggml,llama,whisper}*.so.* "$ENGINES"/bin/libggml-*.so; do
    [ -e "$f" ] || continue
    name=$(basename "$f")
    if [ -L "$f" ]; then ln -sfn "$(readlink "$f")" "$root/$lib/$name"; files+=("$PREFIX/$lib/$name")
    else put 0644 "$f" "$lib/$name"; fi
done

for f in "$repo"/Locales/*.json; do put 0644 "$f" "$share/Locales/$(basename "$f")"; done
put 0644 "$repo/scripts/private-server.pa" "$share/private-server.pa"
for model in ggml-base-q8_0.bin gemma-3-270m-q4_k_m.gguf SmolLM2-135M-Instruct.Q4_1.gguf; do
    put 0644 "$MODELS/$model" "$share/models/$model"
done
put 0644 "$ENGINES/share/dialogue-memo/samples/jfk.wav" "$share/samples/jfk.wav"
put 0644 "$repo/packaging/copyright" "$doc/copyright"
put 0644 "$repo/README.md" "$doc/README.md"

generated=$(mktemp -d); trap 'rm -rf "$generated"' EXIT
"$binary" manpage >"$generated/dialogue-memo.1"
put 0644 "$generated/dialogue-memo.1" share/man/man1/dialogue-memo.1
for shell in bash zsh fish; do "$binary" completions $shell >"$generated/$shell"; done
put 0644 "$generated/bash" share/bash-completion/completions/dialogue-memo
put 0644 "$generated/zsh" share/zsh/vendor-completions/_dialogue-memo
put 0644 "$generated/fish" share/fish/vendor_completions.d/dialogue-memo.fish

# The installed program must name no folder of the builder's: only its own lib folder.
runpath=$(readelf -d "$root/bin/dialogue-memo" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
[ "$runpath" = '$ORIGIN/../lib/dialogue-memo' ] || fail "the installed binary's RUNPATH is '$runpath'"
if missing=$(ldd "$root/bin/dialogue-memo" | grep 'not found'); then fail "libraries not found: $missing"; fi

if [ "${NO_MANIFEST:-0}" != 1 ]; then
    printf '%s\n' "${files[@]}" >"$root/$manifest_path"
    printf '%s\n' "${dirs[@]}" >"$root/$manifest_path.dirs"
fi
echo "Installed dialogue-memo under $root ($(du -sh "$root/$lib" | cut -f1) of engines, $(du -sh "$root/$share/models" | cut -f1) of models)"
