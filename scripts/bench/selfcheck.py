#!/usr/bin/env python3
"""Checks the bench's pure parts without engines or audio: the doctests of every module, and the
summary, tables and JSON line of a canned run. `python3 scripts/bench/selfcheck.py`"""
import contextlib
import doctest
import importlib
import io
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dmbench import report  # noqa: E402
from dmbench.decisions import DecisionResult  # noqa: E402
from dmbench.dialogues import Dialogue, LongAnswer, LongRun, Turn  # noqa: E402
from dmbench.transcription import ClipRow, EngineRun  # noqa: E402

MODULES = ["common", "tools", "audio", "scoring", "dialogues", "transcription", "decisions", "report", "cli", "smart_turn", "voices",
           "transcribe_speed"]
JSON_KEYS = [
    "hangover_ms", "build", "turn_latency_p50_ms", "turn_latency_p95_ms", "turn_latency_max_ms", "turns",
    "no_overlap_p50_ms", "no_overlap_p95_ms", "no_overlap_turns", "closing_p50_ms", "note_wait_p50_ms", "overlap_vs_no_overlap",
    "fixed_p50_ms", "fixed_p95_ms", "adaptive_vs_fixed", "wait_median_ms", "wait_mean_ms", "fixed_wait_median_ms",
    "fixed_wait_mean_ms", "transcript_after_endpoint_p50_ms", "transcript_after_endpoint_p95_ms",
    "fixed_transcript_after_endpoint_p50_ms", "fixed_transcript_after_endpoint_p95_ms", "per_language", "startup_ms", "startup_min_ms", "peak_rss_mb", "dialogues_failed", "stitched_error_rate",
    "whole_error_rate", "transcribe_vs_whisper_cli", "transcribe_vs_whisper_cli_post_load",
    "transcribe_vs_whisper_cli_engine", "transcribe_fast_vs_whisper_cli_greedy", "transcribe_vs_faster_whisper",
    "transcribe_vs_faster_whisper_post_load", "error_rate", "decision_warm_ms", "decision_cold_ms",
    "decision_cold_excl_load_ms", "alignment_offset_ms", "llama_completion_build_s", "bench_seconds"]


def turn(ms, kind="question"):
    return Turn(kind, ms, 1.0, 1.5, 2.0, {"endpoint_ms": 700, "audible_ms": round(ms)})


def canned():
    r = report.Results("2026-12-01T08:00:00", "/x/.build/release/dialogue-memo", "release", ["en", "ja"], "default",
                       700, 2, 2, bench_tools={"llama_completion_build_s_cached": 400}, alignment_offsets_ms=[0.5, -0.2, 0.1])
    r.dialogues = [Dialogue("en", "overlap", 0, 0, 60.0, 300.0, 1400, [turn(900), turn(1100), turn(800, "closing")],
                            waits_ms=[300, 500, 1300], went_on=1),
                   Dialogue("en", "fixed", 0, 0, 60.0, 300.0, 1400, [turn(1200), turn(1300)], waits_ms=[700, 710]),
                   Dialogue("en", "no_overlap", 0, 0, 70.0, 310.5, 1200, [turn(2000)]),
                   Dialogue("en", "going_on", 0, 0, 70.0, 310.5, None, [], went_on=1, barge_in_ms=[180.0]),
                   Dialogue("ja", "overlap", 0, 1, 65.0, 320.0, 1300, [turn(1000)])]
    r.long_answers = {"en": LongAnswer("ref", 12.5, LongRun("a", True, 900, 0.05), LongRun("b", None, 2500, 0.07))}
    r.transcription = {lang: ClipRow(11.0, "ref", {"ours": EngineRun(1000, 800, 0.1, "t", self_reported_excl_load_ms=700),
                                                   "whisper_cli": EngineRun(1250, 900, 0.1, "t", self_reported_excl_load_ms=700)})
                       for lang in ("en", "ja")}
    r.decision = DecisionResult("s.json", 4, 3.0, [400, 120, 140, 130], 130, 400, cold_reason="no `eval prompts`")
    return r


def check_summary():
    r = canned()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        r.bench_seconds = 12.3
        r.summary = report.summarize(r)
        report.print_tables(r)
    line = json.loads(report.json_line(r.summary))
    assert list(line) == JSON_KEYS, list(line)
    expected = {"turn_latency_p50_ms": 1000, "turn_latency_max_ms": 1100, "turns": 3, "no_overlap_p50_ms": 2000,
                "closing_p50_ms": 800, "overlap_vs_no_overlap": 0.5, "startup_ms": 1300, "startup_min_ms": 1200,
                "peak_rss_mb": 320.0, "dialogues_failed": 1, "stitched_error_rate": 0.05, "whole_error_rate": 0.07,
                "transcribe_vs_whisper_cli": 0.8, "transcribe_vs_whisper_cli_engine": 1.0,
                "transcribe_vs_faster_whisper": None, "decision_warm_ms": 130, "decision_cold_ms": None,
                "alignment_offset_ms": 0.1, "llama_completion_build_s": 400, "bench_seconds": 12.3,
                "fixed_p50_ms": 1250, "adaptive_vs_fixed": 0.8, "wait_median_ms": 500, "wait_mean_ms": 700,
                "fixed_wait_median_ms": 705}
    wrong = {k: (line[k], v) for k, v in expected.items() if line[k] != v}
    assert not wrong, wrong
    assert line["per_language"]["ja"] == {"p50_ms": 1000, "p95_ms": 1000, "max_ms": 1000, "n": 1,
                                          "no_overlap_p50_ms": None, "no_overlap_n": 0, "fixed_p50_ms": None,
                                          "fixed_p95_ms": None, "fixed_n": 0, "wait_median_ms": None, "wait_mean_ms": None,
                                          "fixed_wait_median_ms": None, "fixed_wait_mean_ms": None, "went_on": 0,
                                          "fixed_went_on": 0, "going_on_went_on": 0, "barge_in_ms": []}, line["per_language"]
    assert line["per_language"]["en"]["went_on"] == 1 and line["per_language"]["en"]["fixed_n"] == 2
    assert line["per_language"]["en"]["barge_in_ms"] == [180.0] and line["per_language"]["en"]["going_on_went_on"] == 1
    text = out.getvalue()
    for needle in ("== Turn latency", "== End of turn: adaptive", "en went on 1, question stopped [180.0] ms", "✗ issue 14: median wait", "== Long answer", "== Transcription", "not measured: no `eval prompts`",
                   "✓ turn latency p50 ≤ hangover + 600 ms", "✗ turn latency p50 ≤ 0.5 × --no-overlap"):
        assert needle in text, (needle, text)


def main():
    failed = 0
    for name in MODULES:
        result = doctest.testmod(importlib.import_module(f"dmbench.{name}"))
        print(f"dmbench.{name}: {result.attempted} doctests, {result.failed} failed")
        failed += result.failed
    check_summary()
    print("canned run: summary keys, figures and tables ✓")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
