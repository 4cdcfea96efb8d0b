#!/usr/bin/env bash
# A private, headless PulseAudio (or PipeWire) server with virtual devices, for tests and the demo.
#
#   scripts/test-audio.sh run CMD ARGS…   start a server, run CMD with the client environment,
#                                         stop the server by its PID, exit with CMD's status
#   scripts/test-audio.sh start           start one and print the environment to `eval`
#   scripts/test-audio.sh start --bench   the same, plus the `benchmix` sink (see below)
#   scripts/test-audio.sh start --pipewire   a private headless PipeWire instead (see below)
#   scripts/test-audio.sh run --pipewire CMD ARGS…   CMD under a private PipeWire
#   scripts/test-audio.sh stop DIR        stop the server whose folder is DIR
#
# Devices: sink `speaker` (record `speaker.monitor` to hear exactly what was played), sink
# `micfeed` with source `mic` remapped on its monitor (play the "user" into `micfeed`),
# `deadmic`, a pipe source nobody writes (opens fine, delivers nothing), and `stallmic`, a pipe
# source on the FIFO `$DIALOGUE_MEMO_TEST_AUDIO/stallmic.fifo` that delivers exactly what a test
# writes there (s16le, 16 kHz, mono) and stalls when it stops writing. Each null sink is kept
# busy by a silent source looped into it: an idle null sink renders ahead in ~2 s blocks, which
# delays a new capture stream's first frame by up to 2 s.
#
# Opt-in (`start --bench`, or DIALOGUE_MEMO_BENCH_MIX=1 for any command): a stereo null sink
# `benchmix` (48 kHz) with `micfeed.monitor` looped into its LEFT channel and `speaker.monitor`
# into its RIGHT, by two loopbacks with the same latency, so one `parecord -d benchmix.monitor`
# hears the person and the program on one clock (scripts/bench uses it for turn latency). Also
# `benchsync`, a combine sink over `micfeed` and `speaker`: one click played there reaches both
# at once, which is how the benchmark checks the left/right alignment.
#
# PipeWire (`--pipewire`): `pipewire`, `wireplumber` and `pipewire-pulse` with the configs in
# scripts/private-pipewire, each with its own HOME, XDG_RUNTIME_DIR, config and state folders
# inside the server's folder and no D-Bus, so nothing of a desktop's own PipeWire is touched.
# Clients connect the same way (PULSE_SERVER) and find the same device names. One difference,
# from Debian 12's pipewire 0.3.65: its pipe source plays silence while nobody writes the FIFO,
# so `deadmic` and `stallmic` deliver zeros instead of nothing (they do not stall). Used by
# default where the PulseAudio daemon is not installed (bootstrap leaves it out beside
# pipewire-pulse). Clients see DIALOGUE_MEMO_TEST_AUDIO_SERVER=pipewire (else pulseaudio).
set -euo pipefail

bench_mix=${DIALOGUE_MEMO_BENCH_MIX:-0}
here="$(cd "$(dirname "$0")" && pwd)"

start() {
    local dir; dir=$(mktemp -d "${TMPDIR:-/tmp}/dialogue-memo-pulse.XXXXXX")
    mkdir -p "$dir/home" "$dir/runtime/pulse"
    chmod 700 "$dir/runtime"
    sed "s|@RUNTIME@|$dir/runtime|g" "$(dirname "$0")/private-server.pa" >"$dir/server.pa"
    cat >>"$dir/server.pa" <<EOF
load-module module-pipe-source source_name=deadmic file=$dir/deadmic.fifo format=s16le rate=16000 channels=1
load-module module-pipe-source source_name=stallmic file=$dir/stallmic.fifo format=s16le rate=16000 channels=1
EOF
    if [ "$bench_mix" = 1 ]; then
        # Each loopback stream has ONE channel, front-left or front-right: PulseAudio's remixing
        # copies micfeed's mono into it (and downmixes the speaker's stereo), and a one-channel
        # front-left (front-right) stream reaches only the sink's left (right) channel. (With
        # remix=no, PulseAudio 16 connects only identically named channels: mono→front-left is
        # then silent.) Measured with `benchsync` clicks: left/right agree within ±6 ms.
        cat >>"$dir/server.pa" <<EOF
load-module module-null-sink sink_name=benchmix rate=48000 channels=2 channel_map=front-left,front-right sink_properties=device.description=benchmix
load-module module-null-source source_name=keepalive_benchmix rate=48000 channels=2
load-module module-loopback source=keepalive_benchmix sink=benchmix latency_msec=20
load-module module-loopback source=micfeed.monitor sink=benchmix latency_msec=20 rate=48000 channels=1 channel_map=front-left source_dont_move=true sink_dont_move=true
load-module module-loopback source=speaker.monitor sink=benchmix latency_msec=20 rate=48000 channels=1 channel_map=front-right source_dont_move=true sink_dont_move=true
load-module module-combine-sink sink_name=benchsync slaves=micfeed,speaker rate=48000 channels=1 sink_properties=device.description=benchsync
set-default-sink speaker
EOF
    fi
    HOME="$dir/home" XDG_RUNTIME_DIR="$dir/runtime" PULSE_COOKIE="$dir/cookie" \
        pulseaudio --daemonize=yes --use-pid-file=yes -n -F "$dir/server.pa" \
        --exit-idle-time=-1 --realtime=no --high-priority=no --log-target="file:$dir/server.log" \
        >/dev/null 2>&1 || { echo "test-audio: pulseaudio failed to start; see $dir/server.log" >&2
                            tail -n 5 "$dir/server.log" >&2 || true; exit 1; }
    local i
    for i in $(seq 1 50); do
        [ -S "$dir/runtime/pulse/native" ] && [ -s "$dir/runtime/pulse/pid" ] && break
        sleep 0.1
    done
    PULSE_SERVER="unix:$dir/runtime/pulse/native" PULSE_COOKIE="$dir/cookie" pactl info >/dev/null
    echo "$dir"
}

# The environment of the private PipeWire's three processes: all their files in DIR, no D-Bus
# (the desktop's session bus would let them reserve devices or ask portals), no display.
pipewire_env() {
    local dir=$1
    echo env -u DISPLAY -u WAYLAND_DISPLAY -u PIPEWIRE_REMOTE -u PULSE_SERVER -u PULSE_COOKIE \
        HOME="$dir/home" XDG_RUNTIME_DIR="$dir/runtime" PIPEWIRE_RUNTIME_DIR="$dir/runtime" \
        PULSE_RUNTIME_PATH="$dir/runtime/pulse" XDG_CONFIG_HOME="$dir/config" \
        XDG_STATE_HOME="$dir/state" WIREPLUMBER_CONFIG_DIR="$dir/wireplumber" \
        DBUS_SESSION_BUS_ADDRESS=disabled: DBUS_SYSTEM_BUS_ADDRESS=disabled:
}

# Starts CMD in the background with output to LOG and no other open file: a caller reading our
# output to its end (a test's Process pipe) must not wait on a daemon holding that pipe.
detached() { # log cmd args…
    local log=$1; shift
    (
        for fd in $(ls /proc/$BASHPID/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done
        exec "$@"
    ) </dev/null >"$log" 2>&1 &
    echo $! >>"$dir/pids"
}

start_pipewire() {
    local tool
    for tool in pipewire wireplumber pipewire-pulse; do
        command -v "$tool" >/dev/null || { echo "test-audio: $tool is not installed (apt-get install pipewire pipewire-pulse wireplumber)" >&2; exit 1; }
    done
    local dir; dir=$(mktemp -d "${TMPDIR:-/tmp}/dialogue-memo-pipewire.XXXXXX")
    mkdir -p "$dir/home" "$dir/runtime" "$dir/config" "$dir/state" "$dir/wireplumber"
    chmod 700 "$dir/runtime"
    local conf="$here/private-pipewire"
    cp "$conf/pipewire.conf" "$dir/pipewire.conf"
    sed "s|@DIR@|$dir|g" "$conf/pipewire-pulse.conf" >"$dir/pipewire-pulse.conf"
    # The packaged lua fragments, with our 90-enable-all.lua; WIREPLUMBER_CONFIG_DIR makes this
    # the only folder read, so /etc/wireplumber and ~/.config/wireplumber play no part.
    cp -r /usr/share/wireplumber/main.lua.d /usr/share/wireplumber/policy.lua.d "$dir/wireplumber/"
    cp "$conf/wireplumber.conf" "$dir/wireplumber/wireplumber.conf"
    cp "$conf/90-enable-all.lua" "$dir/wireplumber/main.lua.d/90-enable-all.lua"
    local run; run=$(pipewire_env "$dir")
    wait_for() { # what file
        local i; for i in $(seq 1 100); do [ -S "$2" ] && return 0; sleep 0.05; done
        echo "test-audio: $1 did not start; see $dir/$1.log" >&2; tail -n 5 "$dir/$1.log" >&2 || true
        stop "$dir"; exit 1
    }
    # An absolute -c path: PipeWire then reads no drop-ins from /etc/pipewire or ~/.config.
    detached "$dir/pipewire.log" $run pipewire -c "$dir/pipewire.conf"
    wait_for pipewire "$dir/runtime/pipewire-0"
    detached "$dir/wireplumber.log" $run wireplumber
    detached "$dir/pipewire-pulse.log" $run pipewire-pulse -c "$dir/pipewire-pulse.conf"
    wait_for pipewire-pulse "$dir/runtime/pulse/native"
    # The defaults live in wireplumber's metadata: set them once it answers.
    local i
    for i in $(seq 1 100); do
        PULSE_SERVER="unix:$dir/runtime/pulse/native" pactl set-default-sink speaker 2>/dev/null &&
            PULSE_SERVER="unix:$dir/runtime/pulse/native" pactl set-default-source mic 2>/dev/null &&
            PULSE_SERVER="unix:$dir/runtime/pulse/native" pactl info 2>/dev/null | grep -q '^Default Source: mic$' && break
        sleep 0.05
    done
    PULSE_SERVER="unix:$dir/runtime/pulse/native" pactl info | grep -q '^Default Sink: speaker$' ||
        { echo "test-audio: the private PipeWire has no default devices; see $dir/wireplumber.log" >&2; stop "$dir"; exit 1; }
    echo "$dir"
}

stop() {
    local dir=$1 pid pids
    # PipeWire's three processes (each takes a second or two to quit, so all at once), or
    # PulseAudio's one.
    pids=$(cat "$dir/pids" 2>/dev/null || cat "$dir/runtime/pulse/pid" 2>/dev/null || true)
    for pid in $pids; do kill "$pid" 2>/dev/null || true; done
    for pid in $pids; do
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
    rm -rf "$dir"
}

client_env() {
    local dir=$1 kind=pulseaudio
    [ -f "$dir/pids" ] && kind=pipewire
    printf 'export PULSE_SERVER=unix:%s/runtime/pulse/native PULSE_COOKIE=%s/cookie DIALOGUE_MEMO_TEST_AUDIO=%s DIALOGUE_MEMO_TEST_AUDIO_SERVER=%s\n' \
        "$dir" "$dir" "$dir" "$kind"
}

# Where bootstrap left the PulseAudio daemon out (a PipeWire desktop), PipeWire it is.
server=pulseaudio
if ! command -v pulseaudio >/dev/null && command -v pipewire-pulse >/dev/null; then
    echo "test-audio: no PulseAudio daemon here; using a private PipeWire" >&2
    server=pipewire
fi
command=${1:-}; [ $# -gt 0 ] && shift
while [ $# -gt 0 ]; do
    case "$1" in
        --bench) bench_mix=1; shift ;;
        --pipewire) server=pipewire; shift ;;
        *) break ;;
    esac
done
if [ $server = pipewire ] && [ "$bench_mix" = 1 ]; then
    echo "test-audio: --bench needs PulseAudio (its loopbacks' channel mapping is what scripts/bench measures)" >&2; exit 2
fi
case "$command" in
    start)
        if [ $server = pipewire ]; then dir=$(start_pipewire); else dir=$(start); fi
        client_env "$dir" ;;
    stop)
        dir=${1:?usage: test-audio.sh stop DIR}
        # A wrong folder once stopped nothing and said nothing, and servers leaked.
        if [ ! -f "$dir/pids" ] && [ ! -f "$dir/runtime/pulse/pid" ]; then
            echo "test-audio: $dir is not a running private server's folder (no pid file); nothing stopped" >&2
            exit 1
        fi
        stop "$dir" ;;
    run)
        [ $# -gt 0 ] || { echo "usage: test-audio.sh run [--pipewire] CMD [ARGS…]" >&2; exit 2; }
        if [ $server = pipewire ]; then dir=$(start_pipewire); else dir=$(start); fi
        trap 'stop "$dir"' EXIT INT TERM
        eval "$(client_env "$dir")"
        if [ $server = pipewire ]; then
            echo "==> private PipeWire running (pids $(tr '\n' ' ' <"$dir/pids")$dir)"
        else
            echo "==> private PulseAudio running (pid $(cat "$dir/runtime/pulse/pid"), $dir)"
        fi
        status=0; "$@" || status=$?
        exit $status ;;
    *) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
