#!/usr/bin/env python3
"""Real voices in `dialogue-memo talk` (issue 41): recordings of real people from the
real-speech set, played into the running program on a private headless server in four patterns
(plain answers; two recordings joined by a thinking pause; starting 0.3 s before a question ends;
speaking over the middle of a question). Per language and pattern: words lost (the note's error
rate minus `transcribe`'s on the same recordings), questions started over speech, the wait after
a true end. The code is `dmbench/voices.py`; see scripts/bench/README.md.

  scripts/bench/dialogue_voices.py --binary .build/release/dialogue-memo --languages en,es \\
      --answers 3 --exchanges 2 --patterns plain,pause,early,over [--json] [--no-model] [--keep DIR]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dmbench.voices import PATTERNS, main  # noqa: E402

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=".build/release/dialogue-memo")
    parser.add_argument("--languages", default="en,es", help="comma-separated: en,es,fr,de,ja")
    parser.add_argument("--patterns", default=",".join(PATTERNS), help="comma-separated: " + ",".join(PATTERNS))
    parser.add_argument("--answers", type=int, default=3, help="recorded answers per exchange (then the ending phrase)")
    parser.add_argument("--exchanges", type=int, default=2, help="exchanges per language and pattern")
    parser.add_argument("--no-model", action="store_true", help="pass --no-model to talk (rules only: faster)")
    parser.add_argument("--json", action="store_true", help="also print the rows as one JSON line")
    parser.add_argument("--keep", metavar="DIR", help="keep every file (events, logs, the WAVs played) in DIR")
    parser.add_argument("--summarize", metavar="VOICES_JSON", help="print the table of an earlier run's voices.json again")
    main(parser.parse_args())
