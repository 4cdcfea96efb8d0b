#!/usr/bin/env python3
"""Dialogue Memo benchmark (issue 7): turn latency measured from outside, plus side-by-side
comparisons. The code is the `dmbench` package beside this file (scripts/bench/README.md).

  scripts/bench/bench.py [--quick] [--languages en,ja] [--runs N] [--no-overlap-runs N]
                         [--binary PATH] [--silence default] [--parts P,…] [--skip-tools]
                         [--build-tools] [--tools-only] [--keep DIR]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dmbench.cli import main  # noqa: E402

if __name__ == "__main__":
    main()
