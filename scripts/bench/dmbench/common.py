"""Paths, constants and small helpers that every part of the bench shares."""
import json
import math
import os
import subprocess
import threading
import time
from dataclasses import dataclass

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # scripts/bench
REPO = os.path.dirname(os.path.dirname(HERE))
CACHE = os.environ.get("DIALOGUE_MEMO_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "dialogue-memo")
ENGINES = os.path.join(CACHE, "current")
MODELS = os.path.join(CACHE, "models")
DOWNLOADS = os.path.join(CACHE, "downloads")
WHISPER_MODEL = os.path.join(MODELS, "ggml-base-q8_0.bin")
LLM_MODEL = os.path.join(MODELS, "gemma-3-270m-q4_k_m.gguf")
JFK = os.path.join(ENGINES, "share/dialogue-memo/samples/jfk.wav")
ALL_LANGUAGES = ["en", "es", "fr", "de", "ja"]
HANGOVER_MS = {"relaxed": 1250, "default": 700, "aggressive": 350}
THREADS = 2

T_START = time.monotonic()


def say(message):
    print(f"[{time.monotonic() - T_START:6.1f}s] {message}", flush=True)


def run(cmd, env=None, timeout=600, **kw):
    return subprocess.run(cmd, env=env, timeout=timeout, capture_output=True, text=True, **kw)


def engine_env(**extra):
    """Every engine process runs with passive OpenMP waits: two spinning ggml engines on 2 cores
    collapse."""
    return dict(os.environ, OMP_WAIT_POLICY="PASSIVE", **extra)


def locale_pack(lang):
    with open(os.path.join(REPO, "Locales", f"{lang}.json")) as f:
        return json.load(f)


def percentile(values, p):
    """Linear interpolation between the closest ranks.

    >>> percentile([1, 2, 3, 4], 50), percentile([10], 95), percentile([], 50)
    (2.5, 10.0, None)
    >>> round(percentile([0, 100], 95), 6)
    95.0
    """
    if not values:
        return None
    s = sorted(values)
    k = (len(s) - 1) * p / 100
    lo, hi = math.floor(k), math.ceil(k)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def rounded_percentile(values, p):
    value = percentile(values, p)
    return None if value is None else round(value)


@dataclass
class Stats:
    n: int
    p50: int | None
    p95: int | None
    max: int | None

    @classmethod
    def of(cls, values):
        """
        >>> Stats.of([100, 200, 300])
        Stats(n=3, p50=200, p95=290, max=300)
        """
        if not values:
            return cls(0, None, None, None)
        return cls(len(values), rounded_percentile(values, 50), rounded_percentile(values, 95), round(max(values)))


@dataclass
class TimedRun:
    wall_s: float
    post_load_s: float | None     # exit − the last model-loading log line, when it was seen
    stdout: str
    stderr: str
    status: int


def timed_process(cmd, env, init_marker="whisper_init_state"):
    """Wall time of a process, and the time after its last model-loading log line (stderr is
    read line by line and stamped as it arrives)."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    loaded, err_lines = [None], []

    def read_err():
        for line in iter(p.stderr.readline, b""):
            err_lines.append(line.decode("utf-8", "replace"))
            if init_marker in err_lines[-1]:
                loaded[0] = time.monotonic()
    t = threading.Thread(target=read_err, daemon=True)
    t.start()
    out = p.stdout.read().decode("utf-8", "replace")
    p.wait()
    end = time.monotonic()
    t.join(timeout=5)
    return TimedRun(end - start, (end - loaded[0]) if loaded[0] else None, out, "".join(err_lines), p.returncode)
