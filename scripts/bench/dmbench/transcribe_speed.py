"""`dialogue-memo transcribe` against `whisper-cli` (its defaults, same model), a process per clip each,
interleaved (issue 42). Entry point: scripts/bench/transcribe_speed.py, which says how to run it."""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

from .common import CACHE, ENGINES, REPO, WHISPER_MODEL, engine_env
from .scoring import edit_distance, normalize_words

LANGUAGES = ["en", "es", "fr", "ja", "de"]
WHISPER_TIMING = re.compile(r"whisper_print_timings:\s+(\w+) time =\s+([\d.]+) ms")
MARK = re.compile(r"^dialogue-memo-time (\w+) ([\d.]+)$", re.M)
CLI_TIMESTAMP = re.compile(r"^\[[^\]]*-->[^\]]*\]\s*")


def units(text, lang):
    """Words, or characters for Japanese, as ErrorRate.units (Sources/Evaluation) counts them.

    >>> units("Ask not, what!", "en"), units("東京へ 行く。", "ja")
    (['ask', 'not', 'what'], ['東', '京', 'へ', '行', 'く'])
    """
    words = normalize_words(text)
    return list("".join(words)) if lang == "ja" else words


def errors(text, clip):
    """(edits, reference units) against the reference as written or in digits, whichever is fewer,
    as `eval speech` scores a clip.

    >>> errors("it is 5 o'clock", {"language": "en", "reference": "It is five o'clock.", "referenceDigits": "It is 5 o'clock."})
    (0, 5)
    """
    refs = [r for r in (clip.get("reference"), clip.get("referenceDigits")) if r]
    hyp = units(text, clip["language"])
    return min(((edit_distance(units(r, clip["language"]), hyp), len(units(r, clip["language"]))) for r in refs),
               key=lambda pair: pair[0])


def cli_text(stdout):
    """whisper-cli's transcript from its default output: segment lines after their timestamps,
    sound labels ("[BLANK_AUDIO]") left out, as `eval speech` reads it.

    >>> cli_text("\\n[00:00:00.000 --> 00:00:02.000]   Hello there.\\n[00:00:02.000 --> 00:00:03.000]   [BLANK_AUDIO]\\n")
    'Hello there.'
    """
    lines = [CLI_TIMESTAMP.sub("", line).strip() for line in stdout.splitlines()]
    return " ".join(line for line in lines if line and not (line[0] + line[-1] in ("[]", "()")))


def whisper_timings(stderr):
    """whisper's own figures in ms (the last transcription's), by name.

    >>> whisper_timings("whisper_print_timings:     load time =   102.36 ms\\nwhisper_print_timings:    total time =  2669.98 ms")
    {'load': 102.36, 'total': 2669.98}
    """
    return {name: float(ms) for name, ms in WHISPER_TIMING.findall(stderr)}


def stages(spawn, end, stderr):
    """Our process split by its marks, in seconds: start (exec to `transcribe`'s command), load
    (reading the WAV and the model), decode (whisper), filter (hallucination filter), exit (printing
    and leaving).

    >>> stages(10.0, 13.0, "dialogue-memo-time main 10.05\\ndialogue-memo-time command 10.1\\ndialogue-memo-time load 10.12\\n"
    ...        "dialogue-memo-time loaded 10.3\\ndialogue-memo-time decoded 12.8\\ndialogue-memo-time filtered 12.81\\n")
    {'start': 0.1, 'load': 0.2, 'decode': 2.5, 'filter': 0.01, 'exit': 0.19}
    """
    marks = {name: float(t) for name, t in MARK.findall(stderr)}
    if not {"command", "loaded", "decoded", "filtered"} <= marks.keys():
        return None   # no speech: whisper never ran
    points = [spawn, marks["command"], marks["loaded"], marks["decoded"], marks["filtered"], end]
    return {name: round(b - a, 4) for name, a, b in zip(["start", "load", "decode", "filter", "exit"], points, points[1:])}


def run_ours(binary, path, lang):
    env = engine_env(DIALOGUE_MEMO_TIMES="1", DIALOGUE_MEMO_DEBUG="1")
    start = time.monotonic()
    p = subprocess.run([binary, "transcribe", path, "--lang", lang], env=env, capture_output=True, text=True)
    end = time.monotonic()
    return {"wall": end - start, "text": p.stdout.strip(), "stages": stages(start, end, p.stderr),
            "whisper": whisper_timings(p.stderr), "status": p.returncode}


def run_cli(binary, model, path, lang):
    start = time.monotonic()
    p = subprocess.run([binary, "-m", model, "-f", path, "-l", lang], env=engine_env(), capture_output=True, text=True)
    end = time.monotonic()
    return {"wall": end - start, "text": cli_text(p.stdout), "whisper": whisper_timings(p.stderr), "status": p.returncode}


def newest_speech_folder():
    folders = [os.path.join(CACHE, f) for f in os.listdir(CACHE) if f.startswith("speech-")]
    return max(folders, key=os.path.getmtime)


def load_clips(folder, languages, splits, match):
    with open(os.path.join(folder, "manifest.json")) as f:
        clips = json.load(f)["clips"]
    return [c for c in clips if c["language"] in languages and c["split"] in splits and c["kind"] != "noisy"
            and c.get("file") and (not match or any(m in c["id"] for m in match))]


def median(values):
    return statistics.median(values) if values else 0.0


def summary(clips, results, systems):
    """Per language: each system's error rate (first run's text) and total time (the sum over its
    clips of each clip's median wall time), the ratio to whisper-cli, and the median of the
    per-clip ratios; then our stages, summed the same way."""
    lines = []
    head = f"{'lang':5} {'clips':>5} " + " ".join(f"{s + ' err':>12} {s + ' s':>10}" for s in systems) + \
        "  " + " ".join(f"{s + '/cli':>10}" for s in systems if s != "whisper-cli") + \
        "  " + " ".join(f"{'med ' + s + '/cli':>14}" for s in systems if s != "whisper-cli")
    lines.append(head)
    for lang in LANGUAGES + ["all"]:
        rows = [c for c in clips if lang in ("all", c["language"])]
        if not rows:
            continue
        err, total = {}, {}
        for s in systems:
            e = [errors(results[c["id"]][s][0]["text"], c) for c in rows]
            err[s] = sum(x for x, _ in e) / max(1, sum(n for _, n in e))
            total[s] = sum(median([r["wall"] for r in results[c["id"]][s]]) for c in rows)
        ratios = {s: [median([r["wall"] for r in results[c["id"]][s]]) / median([r["wall"] for r in results[c["id"]]["whisper-cli"]])
                      for c in rows] for s in systems if s != "whisper-cli"}
        lines.append(f"{lang:5} {len(rows):5} " + " ".join(f"{err[s]:12.3f} {total[s]:10.1f}" for s in systems) + "  " +
                     " ".join(f"{total[s] / total['whisper-cli']:10.2f}" for s in ratios) + "  " +
                     " ".join(f"{median(ratios[s]):14.2f}" for s in ratios))
    lines.append("")
    lines.append("stages, s summed over clips (per clip the median run): ours start→command, WAV+model load, decode, filter, exit;"
                 " whisper-cli start+exit, load, work")
    for lang in LANGUAGES + ["all"]:
        rows = [c for c in clips if lang in ("all", c["language"])]
        if not rows:
            continue
        parts = []
        for s in systems:
            if s == "whisper-cli":
                runs = [results[c["id"]][s] for c in rows]
                load = sum(median([r["whisper"].get("load", 0) / 1000 for r in rs]) for rs in runs)
                work = sum(median([(r["whisper"].get("total", 0) - r["whisper"].get("load", 0)) / 1000 for r in rs]) for rs in runs)
                rest = sum(median([r["wall"] - r["whisper"].get("total", 0) / 1000 for r in rs]) for rs in runs)
                parts.append(f"{s}: {rest:.2f} / {load:.2f} / {work:.2f}")
            else:
                names = ["start", "load", "decode", "filter", "exit"]
                sums = {n: sum(median([r["stages"][n] for r in results[c["id"]][s] if r["stages"]] or [0]) for c in rows) for n in names}
                parts.append(f"{s}: " + " / ".join(f"{sums[n]:.2f}" for n in names))
        lines.append(f"{lang:5} " + "; ".join(parts))
    return "\n".join(lines)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ours", action="append", default=[],
                    help="LABEL=BINARY (repeatable); default ours=.build/release/dialogue-memo")
    ap.add_argument("--whisper-cli", default=os.path.join(ENGINES, "bin/whisper-cli"))
    ap.add_argument("--model", default=WHISPER_MODEL)
    ap.add_argument("--folder", help="the speech-* folder (default: the newest in the cache)")
    ap.add_argument("--languages", default=",".join(LANGUAGES))
    ap.add_argument("--splits", default="dev,test")
    ap.add_argument("--clips", default="", help="only clips whose id contains one of these (comma-separated)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", help="write every run (texts, times, stages) here")
    args = ap.parse_args(argv)

    ours = [tuple(o.split("=", 1)) if "=" in o else ("ours", o) for o in args.ours] or \
        [("ours", os.path.join(REPO, ".build/release/dialogue-memo"))]
    systems = [label for label, _ in ours] + ["whisper-cli"]
    runners = {label: (lambda path, lang, b=binary: run_ours(b, path, lang)) for label, binary in ours}
    runners["whisper-cli"] = lambda path, lang: run_cli(args.whisper_cli, args.model, path, lang)
    folder = args.folder or newest_speech_folder()
    clips = load_clips(folder, args.languages.split(","), args.splits.split(","), [m for m in args.clips.split(",") if m])
    print(f"{len(clips)} clips from {folder}, {args.runs} runs, systems {', '.join(systems)}", file=sys.stderr)

    results = {c["id"]: {s: [] for s in systems} for c in clips}
    for run in range(args.runs):
        for i, clip in enumerate(clips):
            # The order turns by one each clip and run, so no system is always first after another's exit.
            k = (i + run) % len(systems)
            for s in systems[k:] + systems[:k]:
                r = runners[s](clip["file"], clip["language"])
                if r["status"] != 0:
                    print(f"{s} failed on {clip['id']} (status {r['status']})", file=sys.stderr)
                results[clip["id"]][s].append(r)
            print(f"run {run + 1} {clip['id']}: " + ", ".join(
                f"{s} {results[clip['id']][s][-1]['wall']:.2f} s" for s in systems), file=sys.stderr)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"folder": folder, "systems": systems, "results": results}, f, ensure_ascii=False, indent=1)
    print(summary(clips, results, systems))
