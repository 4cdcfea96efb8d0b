"""Transcription on the same clips, 2 threads: ours in process (`transcribe --json`, default and
--fast) vs whisper-cli of the same build and model vs faster-whisper int8 on the CT2 weights."""
import json
import os
import re
import statistics
import time
from dataclasses import dataclass, field

from .audio import wav_rate, wav_seconds, write_wav
from .common import ENGINES, HERE, JFK, THREADS, WHISPER_MODEL, engine_env, locale_pack, run, say, timed_process
from .scoring import error_rate

JFK_TEXT = "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country."
WHISPER_CLI = os.path.join(ENGINES, "bin/whisper-cli")


@dataclass
class Clip:
    wav: str
    reference: str


@dataclass
class EngineRun:
    wall_ms: int                 # process start + model load + transcription (mean of the runs)
    post_load_ms: int | None     # after the model was loaded
    error_rate: float
    text: str
    walls_ms: list[int] = field(default_factory=list)
    status: int = 0
    self_reported_excl_load_ms: int | None = None   # whisper's own `total time`, without the load


@dataclass
class ClipRow:
    clip_s: float
    reference: str
    runs: dict[str, EngineRun] = field(default_factory=dict)   # ours, whisper_cli, faster_whisper, …


def make_clips(langs, work):
    """One 16 kHz mono WAV per language + its reference text. English: whisper.cpp's jfk.wav;
    the others: the demo answers (kana `speech` for Japanese) spoken by espeak-ng, joined."""
    return {lang: Clip(JFK, JFK_TEXT) if lang == "en" else espeak_clip(lang, work) for lang in langs}


def espeak_clip(lang, work):
    pack = locale_pack(lang)
    answers = pack["demo"]["answers"]
    parts = []
    for k, a in enumerate(answers):
        raw = os.path.join(work, f"clip-{lang}-{k}.wav")
        run(["espeak-ng", "-v", pack.get("voice", lang), "-w", raw, a.get("speech") or a["text"]], timeout=60)
        parts.append(raw)
    rate = wav_rate(parts[0])
    pause = os.path.join(work, f"pause-{rate}.wav")
    write_wav(pause, [0] * (rate // 2), rate)                # 0.5 s between answers
    joined = os.path.join(work, f"clip-{lang}.wav")
    # sox: 16 kHz mono 16-bit, what every engine reads natively
    r = run(["sox"] + [x for p in parts for x in (p, pause)][:-1] + ["-r", "16000", "-c", "1", "-b", "16", joined],
            timeout=60)
    if r.returncode != 0:
        raise SystemExit(f"sox failed: {r.stderr}")
    return Clip(joined, " ".join(a["text"] for a in answers))


def fitted_audio_context(seconds):
    """Transcriber.audioContext: at least 256 frames, above that the clip + 0.6 s in 32-frame
    steps; the full 1500 past 1280.

    >>> fitted_audio_context(11.0), fitted_audio_context(2.0), fitted_audio_context(29.0)
    (608, 256, 1500)
    """
    padded = max(256, (int((seconds + 0.6) * 50) + 31) // 32 * 32)
    return 1500 if padded > 1280 else padded


def whisper_commands(binary, wav, lang, seconds):
    """The same work on both sides: segments with timestamps (ours prints them with --json,
    whisper-cli by default). whisper-cli -nt decodes no timestamp tokens, ~10 % fewer tokens
    and one segment per 30 s window, which is other work, not a faster engine."""
    cli = [WHISPER_CLI, "-m", WHISPER_MODEL, "-f", wav, "-l", lang, "-t", str(THREADS)]
    return {
        "ours": [binary, "transcribe", wav, "--lang", lang, "--json"],
        "ours_fast": [binary, "transcribe", wav, "--lang", lang, "--json", "--fast"],
        "whisper_cli": cli + ["-bs", "5", "-bo", "5"],
        "whisper_cli_greedy": cli + ["-bs", "1", "-bo", "1", "-ac", str(fitted_audio_context(seconds))],
    }


def measure_abba(commands, env):
    """Each command twice, in the order A B B A, so that neither side always runs first (one run
    per side swung the ratio between 1.01 and 1.10 from run to run)."""
    order = list(commands.items())
    measured = {name: [] for name in commands}
    for name, cmd in order + order[::-1]:
        measured[name].append(timed_process(cmd, env))
    return measured


def transcript_text(name, stdout):
    """Ours: the last JSON line's text; whisper-cli: "[00:00:00.000 --> 00:00:02.000]  text" lines.

    >>> transcript_text("whisper_cli", "[00:00:00.000 --> 00:00:02.000]  And so\\n[00:00:02.000 --> 00:00:03.000]  ask")
    'And so ask'
    >>> transcript_text("ours", '{"segments": []}\\n{"text": "And so ask"}')
    'And so ask'
    """
    text = stdout.strip()
    if not name.startswith("ours"):
        return " ".join(re.sub(r"^\[[^\]]*\]\s*", "", line).strip() for line in text.splitlines())
    try:
        return json.loads(text.splitlines()[-1])["text"]
    except (ValueError, IndexError, KeyError):
        return text


def self_reported_ms(name, stderr):
    """whisper's `total time` without the load. Ours resets whisper's clock after loading: its
    total already excludes the load.

    >>> err = "whisper_print_timings:     load time =   100.00 ms\\nwhisper_print_timings:    total time =  900.00 ms"
    >>> self_reported_ms("whisper_cli", err), self_reported_ms("ours", err), self_reported_ms("ours", "")
    (800.0, 900.0, None)
    """
    total = re.search(r"total time =\s*([\d.]+) ms", stderr)
    load = re.search(r"load time =\s*([\d.]+) ms", stderr)
    if not (total and load):
        return None
    return float(total.group(1)) - (0 if name.startswith("ours") else float(load.group(1)))


def engine_run(name, runs, clip, lang):
    """The mean of the runs of one command (TimedRun each)."""
    text = transcript_text(name, runs[0].stdout)
    loads = [x.post_load_s for x in runs if x.post_load_s]
    totals = [t for t in (self_reported_ms(name, x.stderr) for x in runs) if t is not None]
    return EngineRun(
        wall_ms=round(statistics.mean(x.wall_s for x in runs) * 1000),
        post_load_ms=round(statistics.mean(loads) * 1000) if len(loads) == len(runs) else None,
        error_rate=error_rate(clip.reference, text, lang), text=text,
        walls_ms=[round(x.wall_s * 1000) for x in runs],
        status=next((x.status for x in runs if x.status), 0),
        self_reported_excl_load_ms=round(statistics.mean(totals)) if len(totals) == len(runs) else None)


def transcribe_clip(binary, lang, clip, env):
    seconds = wav_seconds(clip.wav)
    measured = measure_abba(whisper_commands(binary, clip.wav, lang, seconds), env)
    row = ClipRow(round(seconds, 1), clip.reference,
                  {name: engine_run(name, runs, clip, lang) for name, runs in measured.items()})
    r = row.runs
    say(f"  transcribe {lang}: ours {r['ours'].wall_ms} ms, whisper-cli {r['whisper_cli'].wall_ms} ms, "
        f"ours --fast {r['ours_fast'].wall_ms} ms, whisper-cli greedy {r['whisper_cli_greedy'].wall_ms} ms")
    return row


def faster_whisper(tools, clips, rows):
    """All clips, beam 5 and 1, in ONE process of the bench's venv: its import and model load
    are added to each file's time, comparable to one whisper-cli process per file. Returns the
    process figures (import_s, load_s, wall_s), or None when it failed."""
    specs = [f"{clip.wav}:{lang}" for lang, clip in clips.items()]
    start = time.monotonic()
    r = run([tools.venv_python, os.path.join(HERE, "fw_transcribe.py"), tools.ct2, str(THREADS), "5,1"] + specs,
            env=engine_env(HF_HUB_OFFLINE="1"), timeout=900)
    wall = time.monotonic() - start
    try:
        fw = json.loads(r.stdout.strip().splitlines()[-1])
        files = fw.pop("files")
    except (ValueError, IndexError, KeyError):
        say(f"  ✗ faster-whisper failed: {r.stderr.strip()[-300:]}")
        return None
    for f in files:
        name = "faster_whisper" if f["beam"] == 5 else "faster_whisper_greedy"
        rows[f["lang"]].runs[name] = EngineRun(
            wall_ms=round((f["seconds"] + fw["import_s"] + fw["load_s"]) * 1000), post_load_ms=round(f["seconds"] * 1000),
            error_rate=error_rate(rows[f["lang"]].reference, f["text"], f["lang"]), text=f["text"])
    fw["wall_s"] = wall
    say(f"  faster-whisper: import {fw['import_s']:.1f} s, load {fw['load_s']:.1f} s, {len(files)} transcriptions")
    return fw


def transcription_comparison(binary, tools, langs, work, use_fw):
    """({lang: ClipRow}, the faster-whisper process figures or None)."""
    env = engine_env(DIALOGUE_MEMO_DEBUG="1")
    clips = make_clips(langs, work)
    rows = {lang: transcribe_clip(binary, lang, clip, env) for lang, clip in clips.items()}
    return rows, faster_whisper(tools, clips, rows) if use_fw else None
