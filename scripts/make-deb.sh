#!/usr/bin/env bash
# Builds .build/dialogue-memo_VERSION_ARCH.deb with dpkg-deb: the tree `make install` makes,
# under /usr, with the portable engines (built by `scripts/bootstrap.sh --portable`). Depends
# names the Debian packages that hold the libraries the program and its engines load, found
# with ldd and dpkg -S on this (Debian) machine: runtime packages, never -dev ones.
# `apt remove` leaves nothing: the package has no configuration files and writes nothing at
# install time; each user's notes, journals and settings are in their own XDG folders.
set -Eeuo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
binary="$repo/.build/release/dialogue-memo"
stage="$repo/.build/deb/root"
fail() { printf 'make deb: %s\n' "$1" >&2; exit 1; }
command -v dpkg-deb >/dev/null || fail "dpkg-deb is missing (a Debian machine has it in the dpkg package)"

version=$("$binary" --version | sed -n '1s/^dialogue-memo \([^ ]*\).*/\1/p')
[ -n "$version" ] || fail "could not read the version from $binary --version"
arch=$(dpkg --print-architecture)

rm -rf "$repo/.build/deb"; mkdir -p "$stage/DEBIAN"
DESTDIR="$stage" PREFIX=/usr PORTABLE=1 NO_MANIFEST=1 "$repo/scripts/install.sh" install
gzip -9n "$stage/usr/share/man/man1/dialogue-memo.1"

# Depends: the package of every library that the program or an engine names itself (as
# dpkg-shlibdeps would: not the libraries those libraries load).
packages=()
while IFS= read -r library; do
    owner=""
    for candidate in "$library" "$(realpath "$library")" "/usr$library" "${library#/usr}"; do
        owner=$(dpkg -S "$candidate" 2>/dev/null | head -n 1 | cut -d: -f1) && [ -n "$owner" ] && break
    done
    [ -n "$owner" ] || fail "no Debian package holds $library"
    case "$owner" in *-dev) fail "$library comes from $owner, a -dev package" ;; esac
    packages+=("$owner")
done < <(for f in "$stage/usr/bin/dialogue-memo" "$stage"/usr/lib/dialogue-memo/*.so*; do
             # Each library this file names itself (NEEDED), where the loader finds it (ldd).
             [ -L "$f" ] && continue
             for name in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
                 ldd "$f" | awk -v n="$name" '$1 == n && $2 == "=>" { print $3 } $1 ~ "/" n "$" { print $1 }'
             done
         done | grep -v "^$stage" | sort -u)
depends=$(printf '%s\n' "${packages[@]}" | sort -u | while read -r p; do
    printf '%s (>= %s), ' "$p" "$(dpkg-query -W -f='${Version}' "$p" | sed 's/-[^-]*$//')"
done)
depends=${depends%, }

cat >"$stage/DEBIAN/control" <<EOF
Package: dialogue-memo
Version: $version
Architecture: $arch
Maintainer: The Dialogue Memo authors <dialogue-memo@localhost>
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends
Recommends: pulseaudio | pipewire-pulse, nano | editor
Suggests: pulseaudio
Section: sound
Priority: optional
Description: speak an unfinished idea, answer a few questions, keep your own words
 Dialogue Memo asks a few short follow-up questions aloud, listens to your
 answers and turns them into a Markdown note made only of your own sentences,
 which you edit before saving. Everything runs offline on this machine:
 espeak-ng speaks, PulseAudio (or PipeWire) plays and records, whisper.cpp
 transcribes and a small llama.cpp model only chooses the next fixed question.
 .
 The package carries its engines (built for any x86-64 CPU, the best code for
 this one chosen at run time) and its three models; their licences and terms
 are in /usr/share/doc/dialogue-memo/copyright.
EOF
(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$stage/DEBIAN/md5sums"

deb="$repo/.build/dialogue-memo_${version}_${arch}.deb"
# The models are already compressed: a light gzip keeps the build quick.
dpkg-deb --root-owner-group -Zgzip -z1 --build "$stage" "$deb" >/dev/null
echo "Built $deb ($(du -h "$deb" | cut -f1)): sudo apt install $deb"
