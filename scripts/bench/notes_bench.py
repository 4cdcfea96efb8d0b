#!/usr/bin/env python3
"""The notes commands on a generated folder of many notes, side by side with grep in one run.

    python3 scripts/bench/notes_bench.py [--notes 20000] [--runs 5] [--binary .build/release/dialogue-memo]

Writes a folder of notes in the format `talk` saves (five languages, a third with next steps,
about 4 KB each), then prints the median wall time and the peak memory of `list`, `search`,
`tasks` and `show` through a warm index, next to `grep -ril` over the same files, and the first
run that builds the index. Nothing here asserts: machines differ, compare the ratios.
"""
import argparse
import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time

WORDS = {
    "en": "the idea is to share tools with neighbours on our street before winter comes and nobody has a ladder".split(),
    "de": "die Idee ist Werkzeug mit den Nachbarn zu teilen bevor der Winter kommt und niemand eine Leiter hat".split(),
    "es": "la idea es compartir herramientas con los vecinos de la calle antes de que llegue el invierno y café".split(),
    "fr": "l'idée est de partager des outils avec les voisins de la rue avant l'hiver et personne n'a d'échelle".split(),
    "ja": "近所 の 人 と 道具 を 共有 する アイデア です 冬 が 来る 前 に 梯子 を 持って いない 人 東京 会議".split(),
}


def write_notes(folder, count, rng):
    os.makedirs(folder, exist_ok=True)
    for number in range(count):
        language = "en de es fr ja".split()[number % 5]
        words = WORDS[language]
        sentences = [" ".join(rng.choice(words) for _ in range(rng.randint(8, 16))) + "." for _ in range(rng.randint(25, 35))]
        if number == count // 2:
            sentences[3] += " zebra512"
        body = "\n\n".join(" ".join(sentences[i:i + 4]) for i in range(0, len(sentences), 4))
        steps = ""
        if number % 3 == 0:
            steps = "\n\n## Next steps\n\n" + "".join(f"- [{'x' if rng.random() < 0.3 else ' '}] {rng.choice(sentences)}\n" for _ in range(3))
        created = f"20{20 + number % 7:02d}-{1 + number % 12:02d}-{1 + number % 28:02d}T{number % 24:02d}:{number % 60:02d}:00+01:00"
        text = (f'---\nid: "{number:08x}{rng.getrandbits(32):08x}"\ncreated: "{created}"\nlanguage: "{language}"\n'
                f'ended: "ready"\nlayout: "model"\nkey_sentence: "{sentences[0]}"\n---\n\n# {" ".join(sentences[0].split()[:6])}\n\n'
                f"{body}{steps}\n")
        with open(os.path.join(folder, f"{created[:10]}-note-{number}.md"), "w", encoding="utf-8") as handle:
            handle.write(text)


def measure(command, env):
    """Wall seconds and peak resident MB of one run (GNU time's %M)."""
    start = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed ({result.returncode}):\n{result.stderr}")
    peak_kb = int(result.stderr.strip().splitlines()[-1])
    return seconds, peak_kb / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--notes", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--binary", default=".build/release/dialogue-memo")
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    if not os.access(binary, os.X_OK):
        raise SystemExit(f"{binary} is not built: run `make release` first")

    work = tempfile.mkdtemp(prefix="notes-bench-")
    try:
        folder, cache = os.path.join(work, "notes"), os.path.join(work, "cache")
        print(f"Writing {options.notes:,} notes into {folder} …", flush=True)
        write_notes(folder, options.notes, random.Random(7))
        size = sum(os.path.getsize(os.path.join(folder, name)) for name in os.listdir(folder)) / 1e6
        env = dict(os.environ, XDG_CACHE_HOME=cache)
        notes = ["--notes-dir", folder]

        first, first_mb = measure([binary, "list"] + notes, env)
        some_id = subprocess.run([binary, "list", "--json"] + notes, env=env, capture_output=True, text=True).stdout.split('"id":"')[1][:16]
        rows = [
            ("grep -ril zebra512", ["grep", "-ril", "zebra512", folder]),
            ("search zebra512", [binary, "search", "zebra512"] + notes),
            ("search 東京 (2 characters: a scan)", [binary, "search", "東京"] + notes),
            ("list", [binary, "list"] + notes),
            ("tasks", [binary, "tasks"] + notes),
            ("show ID", [binary, "show", some_id] + notes),
        ]
        results = {}
        for _ in range(options.runs):
            for name, command in rows:
                results.setdefault(name, []).append(measure(command, env))
        print(f"\n{options.notes:,} notes, {size:.0f} MB; medians of {options.runs} runs")
        print(f"{'command':<36} {'seconds':>8} {'× grep':>7} {'peak MB':>8}")
        grep = statistics.median(s for s, _ in results["grep -ril zebra512"])
        for name, _ in rows:
            seconds = statistics.median(s for s, _ in results[name])
            peak = max(m for _, m in results[name])
            print(f"{name:<36} {seconds:>8.3f} {seconds / grep:>7.1f} {peak:>8.1f}")
        print(f"{'first list (builds the index)':<36} {first:>8.3f} {first / grep:>7.1f} {first_mb:>8.1f}")
        deleted, deleted_mb = measure([binary, "delete", some_id, "--yes"] + notes, env)
        print(f"{'delete ID (purges the index)':<36} {deleted:>8.3f} {deleted / grep:>7.1f} {deleted_mb:>8.1f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
