"""The private PulseAudio with `benchmix`, the one-clock recorder, utterance detection, the
left/right alignment check and wav I/O."""
import array
import atexit
import os
import shlex
import struct
import subprocess
import sys
import threading
import time
import wave

from .common import REPO, run

RATE = 48000                  # benchmix rate
LOOPBACK_MS = 20              # latency_msec of both benchmix loopbacks (test-audio.sh)
AUDIBLE = 100                 # |sample| above this (≈ −50 dBFS) is audible; silence is digital 0
MERGE_GAP_S = 0.9             # pauses shorter than this stay inside one utterance
WINDOW = 48                   # frames per activity window (1 ms)
TEST_AUDIO = os.path.join(REPO, "scripts/test-audio.sh")


class AudioServer:
    """scripts/test-audio.sh start --bench: a headless server of our own, stopped at exit."""

    def __init__(self):
        r = run([TEST_AUDIO, "start", "--bench"], timeout=60)
        if r.returncode != 0:
            raise SystemExit(f"test-audio.sh start --bench failed: {r.stderr}")
        self.env = dict(os.environ)
        for token in shlex.split(r.stdout.replace("export ", "")):
            k, _, v = token.partition("=")
            self.env[k] = v
        self.env["OMP_WAIT_POLICY"] = "PASSIVE"
        self.dir = self.env["DIALOGUE_MEMO_TEST_AUDIO"]
        self.address = self.env["PULSE_SERVER"]
        atexit.register(self.stop)

    def stop(self):
        if self.dir:
            run([TEST_AUDIO, "stop", self.dir], timeout=30)
            self.dir = None


class Recorder:
    """parecord of benchmix.monitor into memory; every chunk's arrival is stamped on the
    monotonic clock, so frame k ≈ t0 + k / RATE (t0 = the tightest bound over all chunks)."""

    def __init__(self, env):
        self.proc = subprocess.Popen(
            ["parecord", "-d", "benchmix.monitor", "--raw", "--format=s16le", f"--rate={RATE}",
             "--channels=2", "--latency-msec=10"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.data = bytearray()
        self.t0 = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        fd = self.proc.stdout.fileno()
        while True:
            chunk = os.read(fd, 8192)
            now = time.monotonic()
            if not chunk:
                return
            self.data += chunk
            t0 = now - (len(self.data) // 4) / RATE
            if self.t0 is None or t0 < self.t0:
                self.t0 = t0

    def wait_started(self, timeout=5):
        end = time.monotonic() + timeout
        while len(self.data) < RATE * 4 // 10 and time.monotonic() < end:   # 100 ms of audio
            time.sleep(0.02)

    def stop(self):
        """(left, right): the person's channel and the program's."""
        time.sleep(0.3)
        self.proc.terminate()
        self.proc.wait(timeout=5)
        self.thread.join(timeout=5)
        return split_stereo(bytes(self.data))

    def mono_time(self, frame):
        """Monotonic time at which frame `frame` was played into micfeed/speaker."""
        return self.t0 + frame / RATE - LOOPBACK_MS / 1000


def split_stereo(data):
    """s16le interleaved stereo → (left, right) sample arrays."""
    samples = array.array("h")
    samples.frombytes(data[:len(data) // 4 * 4])
    if sys.byteorder != "little":
        samples.byteswap()
    return samples[0::2], samples[1::2]


def utterances(channel, merge_gap_s=MERGE_GAP_S):
    """[(first audible frame, last audible frame)] with pauses < merge_gap_s merged.

    >>> tone = [0] * 48000 + [500, -500] * 12000 + [0] * 24000 + [300] * 4800 + [0] * 96000
    >>> utterances(tone)                    # a 0.5 s pause is inside one utterance
    [(48000, 100799)]
    >>> utterances(tone, 0.1)
    [(48000, 71999), (96000, 100799)]
    >>> utterances([0] * 4800)
    []
    """
    gap = int(merge_gap_s * RATE)
    segments = []
    for i in active_windows(channel):
        if segments and i - segments[-1][1] <= gap:
            segments[-1][1] = i
        else:
            segments.append([i, i])
    return [(first_audible(channel, a), last_audible(channel, b)) for a, b in segments]


def active_windows(channel):
    for i in range(0, len(channel), WINDOW):
        w = channel[i:i + WINDOW]
        if max(w) > AUDIBLE or -min(w) > AUDIBLE:
            yield i


def first_audible(channel, window_start):
    w = channel[window_start:window_start + WINDOW]
    return window_start + next(k for k, v in enumerate(w) if abs(v) > AUDIBLE)


def last_audible(channel, window_start):
    w = channel[window_start:window_start + WINDOW]
    return window_start + max(k for k, v in enumerate(w) if abs(v) > AUDIBLE)


def write_wav(path, samples, rate, channels=1):
    with wave.open(path, "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(struct.pack(f"<{len(samples)}h", *samples))


def wav_seconds(path):
    with wave.open(path) as w:
        return w.getnframes() / w.getframerate()


def wav_rate(path):
    with wave.open(path) as w:
        return w.getframerate()


def check_alignment(server, work):
    """Clicks played into `benchsync` reach micfeed and speaker at once; their left/right
    offset in the benchmix recording is the measurement error of turn latency (ms each)."""
    click = os.path.join(work, "click.wav")
    samples = [0] * int(0.15 * RATE)
    samples[int(0.05 * RATE):int(0.05 * RATE) + 48] = [20000] * 48
    write_wav(click, samples, RATE)
    rec = Recorder(server.env)
    rec.wait_started()
    for _ in range(5):
        run(["paplay", "-d", "benchsync", click], env=server.env, timeout=10)
        time.sleep(0.25)
    left, right = rec.stop()
    return click_offsets_ms(utterances(left, 0.1), utterances(right, 0.1))


def click_offsets_ms(left, right):
    """Right minus left onset of each left click that has a right one within 100 ms.

    >>> click_offsets_ms([(4800, 4900), (48000, 48100)], [(4848, 4950), (90000, 90100)])
    [1.0]
    """
    offsets = []
    for a, _ in left:
        near = [b for b, _ in right if abs(b - a) < RATE // 10]
        if near:
            offsets.append((near[0] - a) / RATE * 1000)
    return offsets
