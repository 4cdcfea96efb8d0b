#!/usr/bin/env python3
"""`dialogue-memo transcribe` against `whisper-cli` (its defaults, same model) on the real-speech
set, a process per clip each, interleaved, N runs (issue 42): per language the error rate of each,
their total wall time, the ratio, and where our process spends its time.

    python3 scripts/bench/transcribe_speed.py --runs 3
    python3 scripts/bench/transcribe_speed.py --ours before=/tmp/dm-old --ours after=.build/release/dialogue-memo
    python3 scripts/bench/transcribe_speed.py --languages fr --clips tuxpaint --runs 1 --json run.json

Ours runs with DIALOGUE_MEMO_TIMES (its stage marks: started, model loaded, decoded, filtered)
and DIALOGUE_MEMO_DEBUG (whisper's own timings, which whisper-cli prints anyway)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dmbench.transcribe_speed import main  # noqa: E402

if __name__ == "__main__":
    main(sys.argv[1:])
