#!/usr/bin/env python3
"""Pipecat's Smart Turn v3.2 (an open audio end-of-turn detector) on the turn-taking set, beside our
reading: `python3 scripts/bench/smart_turn.py [--transcripts RUN.json]` (RUN.json: `dialogue-memo
eval turns --json > RUN.json`). Bench-only; the code is dmbench/smart_turn.py."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dmbench.smart_turn import main  # noqa: E402

if __name__ == "__main__":
    main(sys.argv[1:])
