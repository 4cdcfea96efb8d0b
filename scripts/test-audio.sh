#!/usr/bin/env bash
# A private, headless PulseAudio server with virtual devices, for tests and the demo.
#
#   scripts/test-audio.sh run CMD ARGS…   start a server, run CMD with the client environment,
#                                         stop the server by its PID, exit with CMD's status
#   scripts/test-audio.sh start           start one and print the environment to `eval`
#   scripts/test-audio.sh start --bench   the same, plus the `benchmix` sink (see below)
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
set -euo pipefail

bench_mix=${DIALOGUE_MEMO_BENCH_MIX:-0}

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

stop() {
    local dir=$1 pid
    pid=$(cat "$dir/runtime/pulse/pid" 2>/dev/null || true)
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill "$pid"
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    fi
    rm -rf "$dir"
}

client_env() {
    local dir=$1
    printf 'export PULSE_SERVER=unix:%s/runtime/pulse/native PULSE_COOKIE=%s/cookie DIALOGUE_MEMO_TEST_AUDIO=%s\n' \
        "$dir" "$dir" "$dir"
}

case "${1:-}" in
    start)
        [ "${2:-}" = --bench ] && bench_mix=1
        dir=$(start); client_env "$dir" ;;
    stop) stop "${2:?usage: test-audio.sh stop DIR}" ;;
    run)
        shift
        [ $# -gt 0 ] || { echo "usage: test-audio.sh run CMD [ARGS…]" >&2; exit 2; }
        dir=$(start)
        trap 'stop "$dir"' EXIT INT TERM
        eval "$(client_env "$dir")"
        echo "==> private PulseAudio running (pid $(cat "$dir/runtime/pulse/pid"), $dir)"
        status=0; "$@" || status=$?
        exit $status ;;
    *) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
