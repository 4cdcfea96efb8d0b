#!/usr/bin/env bash
# The package on a clean Debian 12, as a person would meet it: a minimal bookworm chroot
# (debootstrap --variant=minbase, no build tools), `apt install ./the.deb`, then, as a new
# unprivileged user with an empty home, `doctor` (on a private headless audio server),
# `transcribe` of the sample and `talk --type --yes`; then `apt remove`, and a purge, must leave
# no file of the package behind. Needs root, debootstrap and network access to Debian's archive.
#
# Usage: sudo scripts/check-deb.sh .build/dialogue-memo_VERSION_ARCH.deb [CHROOT]
#   CHROOT defaults to /srv/dialogue-memo-bookworm; an existing one is reused as it is.
set -Eeuo pipefail

deb=$(realpath "${1:?usage: check-deb.sh PACKAGE.deb [CHROOT]}")
root=${2:-/srv/dialogue-memo-bookworm}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ "$(id -u)" = 0 ] || { echo "check-deb: run as root (it makes a chroot)" >&2; exit 1; }

if [ ! -x "$root/usr/bin/apt-get" ]; then
    echo "==> debootstrap bookworm into $root"
    debootstrap --variant=minbase bookworm "$root" >/dev/null
fi
mounted=()
cleanup() { local m; for ((i=${#mounted[@]}-1; i>=0; i--)); do umount -l "${mounted[$i]}" || true; done; }
trap cleanup EXIT
for m in proc dev dev/pts dev/shm; do
    mountpoint -q "$root/$m" && continue
    case $m in proc) mount -t proc proc "$root/proc" ;; *) mount --bind "/$m" "$root/$m" ;; esac
    mounted+=("$root/$m")
done
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

cp "$deb" "$root/tmp/"
before=$(mktemp); after=$(mktemp)
in_root find / -xdev \( -path /proc -o -path /dev -o -path /tmp -o -path /var/cache/apt -o -path /var/lib/apt/lists \) -prune -o -print | sort >"$before"

echo "==> apt install ./$(basename "$deb")"
in_root apt-get update -q >/dev/null
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "/tmp/$(basename "$deb")" | tail -n 3
# Only for the check: the pulse tools the private audio server of the test script uses.
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends pulseaudio pulseaudio-utils >/dev/null
in_root sh -c 'command -v swift cc gcc c++ cmake >/dev/null' && echo "   (build tools are present in the chroot)" || echo "   no build tools in the chroot"

user=memo-$$
in_root useradd -m "$user"
mkdir -p "$root/opt/check" && cp "$here/test-audio.sh" "$here/private-server.pa" "$root/opt/check/"
as_user() { in_root su - "$user" -c "$1"; }
echo "==> as $user (home: $(in_root ls -A "/home/$user" | tr '\n' ' '))"
status=0
as_user '/opt/check/test-audio.sh run dialogue-memo doctor' || status=$?
echo "doctor exit $status"
as_user 'dialogue-memo transcribe /usr/share/dialogue-memo/samples/jfk.wav' | tee "$root/tmp/transcript"
grep -q "ask not what your country can do for you" "$root/tmp/transcript" || { echo "✗ transcribe"; exit 1; }
printf 'A repair café for our street.\nWe need a room and two volunteers.\nThat'"'"'s all.\n' >"$root/tmp/answers"
as_user 'dialogue-memo talk --type --yes --lang en < /tmp/answers' | tail -n 2
as_user 'ls -l ~/.local/share/dialogue-memo/notes/'
note_count=$(as_user 'ls ~/.local/share/dialogue-memo/notes/ | wc -l')
[ "$note_count" = 1 ] || { echo "✗ talk --type saved $note_count notes"; exit 1; }
[ "$status" = 0 ] || { echo "✗ doctor"; exit 1; }

in_root userdel -r "$user" 2>/dev/null || true
rm -rf "$root/opt/check"
# Every file and folder of the package's own (not /usr/bin and the like) must be gone.
leftovers() {
    in_root find / -xdev \( -path /proc -o -path /dev -o -path /tmp -o -path /var/cache/apt -o -path /var/lib/apt/lists \) -prune -o -print | sort >"$after"
    { comm -13 "$before" "$after" | grep -i 'dialogue-memo' | grep -v '^/var/lib/dpkg/info/' || true
      dpkg-deb -c "$deb" | awk '{ print substr($6, 2) }' | while read -r path; do
          path=${path%/}
          # A folder that other packages fill too (zsh's completions: pulseaudio's) stays.
          [ -d "$root$path" ] && [ -n "$(ls -A "$root$path")" ] && continue
          [ -n "$path" ] && [ -e "$root$path" ] && ! grep -qxF "$path" "$before" && echo "$path"
      done || true; } | sort -u
}
echo "==> apt remove dialogue-memo"
in_root env DEBIAN_FRONTEND=noninteractive apt-get remove -y -q dialogue-memo >/dev/null
left=$(leftovers)
if [ -n "$left" ]; then echo "✗ apt remove left behind:"; echo "$left"; exit 1; fi
# A removed package without configuration files is gone for apt; dpkg purges what may remain.
echo "==> dpkg --purge dialogue-memo"
in_root dpkg --purge dialogue-memo >/dev/null 2>&1
in_root env DEBIAN_FRONTEND=noninteractive apt-get autoremove --purge -y -q >/dev/null
left=$(leftovers; comm -13 "$before" "$after" | grep '^/var/lib/dpkg/info/dialogue-memo' || true)
if [ -n "$left" ]; then echo "✗ apt purge left behind:"; echo "$left"; exit 1; fi
echo "✓ doctor, transcribe and talk --type worked for a new user; apt remove and the purge left no file of the package"
