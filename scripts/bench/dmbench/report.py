"""The results of a bench run, their summary (the JSON line), the tables and the results file."""
import json
import os
import statistics
import time
from dataclasses import asdict, dataclass, field

from .common import CACHE, Stats, say
from .decisions import DecisionResult
from .dialogues import Dialogue, LongAnswer
from .transcription import ClipRow

BREAKDOWN = ["endpoint_ms", "transcribed_ms", "decision_ms", "question_event_ms", "audible_ms"]
ENGINE_NAMES = ["ours", "whisper_cli", "faster_whisper", "ours_fast", "whisper_cli_greedy", "faster_whisper_greedy"]


@dataclass
class Results:
    """Everything one run measured; written whole to bench-results/<timestamp>.json."""
    timestamp: str
    binary: str
    build: str                  # release, debug or custom
    languages: list[str]
    silence: str
    hangover_ms: int
    threads: int
    cpus: int
    bench_tools: dict = field(default_factory=dict)
    alignment_offsets_ms: list[float] = field(default_factory=list)
    dialogues: list[Dialogue] = field(default_factory=list)
    long_answers: dict[str, LongAnswer] = field(default_factory=dict)
    transcription: dict[str, ClipRow] = field(default_factory=dict)
    faster_whisper_process: dict | None = None
    decision: DecisionResult | None = None
    summary: "Summary | None" = None
    bench_seconds: float | None = None


@dataclass
class LanguageSummary:
    p50_ms: int | None
    p95_ms: int | None
    max_ms: int | None
    n: int
    no_overlap_p50_ms: int | None
    no_overlap_n: int
    fixed_p50_ms: int | None = None
    fixed_p95_ms: int | None = None
    fixed_n: int = 0
    wait_median_ms: int | None = None        # silence waited after the speech, adaptive
    wait_mean_ms: int | None = None
    fixed_wait_median_ms: int | None = None
    fixed_wait_mean_ms: int | None = None
    went_on: int = 0                         # cut-offs the person went on from (adaptive / fixed)
    fixed_went_on: int = 0
    going_on_went_on: int = 0                # in the dialogue with a 1.6 s pause (fixed silence)
    barge_in_ms: list = field(default_factory=list)


@dataclass
class Summary:
    """The JSON line, in this key order."""
    hangover_ms: int
    build: str
    turn_latency_p50_ms: int | None = None
    turn_latency_p95_ms: int | None = None
    turn_latency_max_ms: int | None = None
    turns: int = 0
    no_overlap_p50_ms: int | None = None
    no_overlap_p95_ms: int | None = None
    no_overlap_turns: int = 0
    closing_p50_ms: int | None = None
    note_wait_p50_ms: int | None = None      # the closing line over → the note on screen
    overlap_vs_no_overlap: float | None = None
    fixed_p50_ms: int | None = None          # the preset's fixed silence, same dialogues otherwise
    fixed_p95_ms: int | None = None
    adaptive_vs_fixed: float | None = None
    wait_median_ms: int | None = None
    wait_mean_ms: int | None = None
    fixed_wait_median_ms: int | None = None
    fixed_wait_mean_ms: int | None = None
    transcript_after_endpoint_p50_ms: int | None = None   # issue 15: the adaptive dialogues
    transcript_after_endpoint_p95_ms: int | None = None
    fixed_transcript_after_endpoint_p50_ms: int | None = None
    fixed_transcript_after_endpoint_p95_ms: int | None = None
    per_language: dict[str, LanguageSummary] = field(default_factory=dict)
    startup_ms: int | None = None
    startup_min_ms: int | None = None
    peak_rss_mb: float | None = None
    dialogues_failed: int = 0
    stitched_error_rate: float | None = None    # long answers, mean over the languages
    whole_error_rate: float | None = None
    transcribe_vs_whisper_cli: float | None = None
    transcribe_vs_whisper_cli_post_load: float | None = None
    transcribe_vs_whisper_cli_engine: float | None = None
    transcribe_fast_vs_whisper_cli_greedy: float | None = None
    transcribe_vs_faster_whisper: float | None = None
    transcribe_vs_faster_whisper_post_load: float | None = None
    error_rate: dict[str, dict[str, float]] = field(default_factory=dict)
    decision_warm_ms: int | None = None
    decision_cold_ms: int | None = None
    decision_cold_excl_load_ms: int | None = None
    alignment_offset_ms: float | None = None
    llama_completion_build_s: float | None = None
    bench_seconds: float | None = None


def latencies(dialogues, mode, lang=None, kind="question"):
    return [x for d in dialogues if d.mode == mode and lang in (None, d.lang) for x in d.latencies(kind)]


def ratio(a, b):
    return round(a / b, 2) if a and b else None


def summarize(r):
    s = Summary(r.hangover_ms, r.build, bench_seconds=r.bench_seconds)
    add_latency(s, r.dialogues, r.languages)
    add_startup(s, r.dialogues)
    if r.long_answers:
        s.stitched_error_rate = round(statistics.mean(v.overlap.error_rate for v in r.long_answers.values()), 3)
        s.whole_error_rate = round(statistics.mean(v.no_overlap.error_rate for v in r.long_answers.values()), 3)
    add_transcription(s, r.transcription)
    if r.decision:
        s.decision_warm_ms, s.decision_cold_ms = r.decision.warm_p50_ms, r.decision.cold_p50_ms
        s.decision_cold_excl_load_ms = r.decision.cold_excl_load_p50_ms
    if r.alignment_offsets_ms:
        s.alignment_offset_ms = round(statistics.median(r.alignment_offsets_ms), 1)
    s.llama_completion_build_s = r.bench_tools.get("llama_completion_build_s",
                                                   r.bench_tools.get("llama_completion_build_s_cached"))
    return s


def add_latency(s, dialogues, languages):
    over, no = Stats.of(latencies(dialogues, "overlap")), Stats.of(latencies(dialogues, "no_overlap"))
    s.turn_latency_p50_ms, s.turn_latency_p95_ms, s.turn_latency_max_ms, s.turns = over.p50, over.p95, over.max, over.n
    s.no_overlap_p50_ms, s.no_overlap_p95_ms, s.no_overlap_turns = no.p50, no.p95, no.n
    s.closing_p50_ms = Stats.of(latencies(dialogues, "overlap", kind="closing")).p50
    s.note_wait_p50_ms = Stats.of([d.note_wait_ms for d in dialogues
                                   if d.mode == "overlap" and d.note_wait_ms is not None]).p50
    s.overlap_vs_no_overlap = ratio(s.turn_latency_p50_ms, s.no_overlap_p50_ms)
    fixed = Stats.of(latencies(dialogues, "fixed"))
    s.fixed_p50_ms, s.fixed_p95_ms = fixed.p50, fixed.p95
    s.adaptive_vs_fixed = ratio(s.turn_latency_p50_ms, s.fixed_p50_ms)
    s.wait_median_ms, s.wait_mean_ms = wait_figures(dialogues, "overlap")
    s.fixed_wait_median_ms, s.fixed_wait_mean_ms = wait_figures(dialogues, "fixed")
    after = Stats.of(transcript_after_endpoint(dialogues, "overlap"))
    s.transcript_after_endpoint_p50_ms, s.transcript_after_endpoint_p95_ms = after.p50, after.p95
    after = Stats.of(transcript_after_endpoint(dialogues, "fixed"))
    s.fixed_transcript_after_endpoint_p50_ms, s.fixed_transcript_after_endpoint_p95_ms = after.p50, after.p95
    for lang in languages:
        o, n = Stats.of(latencies(dialogues, "overlap", lang)), Stats.of(latencies(dialogues, "no_overlap", lang))
        f = Stats.of(latencies(dialogues, "fixed", lang))
        row = LanguageSummary(o.p50, o.p95, o.max, o.n, n.p50, n.n, f.p50, f.p95, f.n)
        row.wait_median_ms, row.wait_mean_ms = wait_figures(dialogues, "overlap", lang)
        row.fixed_wait_median_ms, row.fixed_wait_mean_ms = wait_figures(dialogues, "fixed", lang)
        row.went_on = sum(d.went_on for d in dialogues if d.mode == "overlap" and d.lang == lang)
        row.fixed_went_on = sum(d.went_on for d in dialogues if d.mode == "fixed" and d.lang == lang)
        row.going_on_went_on = sum(d.went_on for d in dialogues if d.mode == "going_on" and d.lang == lang)
        row.barge_in_ms = [x for d in dialogues if d.mode == "going_on" and d.lang == lang for x in d.barge_in_ms]
        s.per_language[lang] = row


def transcript_after_endpoint(dialogues, mode):
    """Per question turn, ms from the endpoint to the transcript in hand (its `transcribed`
    event), on the program's own clock: a few ms when the transcript at the pause was ready.

    >>> from dmbench.dialogues import Dialogue, Turn
    >>> t = Turn("question", 900.0, 1.0, 1.9, 2.0, {"endpoint_ms": 600, "transcribed_ms": 602})
    >>> u = Turn("question", 900.0, 1.0, 1.9, 2.0, {"endpoint_ms": 600, "transcribed_ms": 790})
    >>> transcript_after_endpoint([Dialogue("en", "overlap", 0, 0, 1.0, 500.0, turns=[t, u])], "overlap")
    [2, 190]
    """
    return [t.breakdown["transcribed_ms"] - t.breakdown["endpoint_ms"] for d in dialogues if d.mode == mode
            for t in d.turns if t.kind == "question" and "transcribed_ms" in t.breakdown and "endpoint_ms" in t.breakdown]


def wait_figures(dialogues, mode, lang=None):
    """(median, mean) silence waited after the speech, in ms, from the program's own events."""
    waits = [w for d in dialogues if d.mode == mode and lang in (None, d.lang) for w in d.waits_ms]
    return (round(statistics.median(waits)), round(statistics.mean(waits))) if waits else (None, None)


def add_startup(s, dialogues):
    startups = [d.startup_ms for d in dialogues if d.startup_ms is not None]
    warm = startups[1:] if len(startups) > 1 else startups    # the first launch may be cold
    s.startup_ms = round(statistics.median(warm)) if warm else None
    s.startup_min_ms = min(warm) if warm else None
    rss = [d.peak_rss_mb for d in dialogues if d.peak_rss_mb]
    s.peak_rss_mb = max(rss) if rss else None
    s.dialogues_failed = sum(1 for d in dialogues if d.status != 0)


def total(rows, name, key="wall_ms"):
    """The sum over the clips, or None unless every clip has it."""
    values = [getattr(r.runs[name], key) for r in rows.values() if name in r.runs]
    values = [v for v in values if v is not None]
    return sum(values) if values and len(values) == len(rows) else None


def add_transcription(s, rows):
    s.transcribe_vs_whisper_cli = ratio(total(rows, "ours"), total(rows, "whisper_cli"))
    s.transcribe_vs_whisper_cli_post_load = ratio(total(rows, "ours", "post_load_ms"),
                                                  total(rows, "whisper_cli", "post_load_ms"))
    s.transcribe_vs_whisper_cli_engine = ratio(total(rows, "ours", "self_reported_excl_load_ms"),
                                               total(rows, "whisper_cli", "self_reported_excl_load_ms"))
    s.transcribe_fast_vs_whisper_cli_greedy = ratio(total(rows, "ours_fast"), total(rows, "whisper_cli_greedy"))
    s.transcribe_vs_faster_whisper = ratio(total(rows, "ours"), total(rows, "faster_whisper"))
    s.transcribe_vs_faster_whisper_post_load = ratio(total(rows, "ours", "post_load_ms"),
                                                     total(rows, "faster_whisper", "post_load_ms"))
    s.error_rate = {lang: {name: e.error_rate for name, e in r.runs.items()} for lang, r in rows.items()}


def json_line(summary):
    return json.dumps(asdict(summary), ensure_ascii=False, separators=(",", ":"))


def write_results(results):
    out_dir = os.path.join(CACHE, "bench-results")
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, time.strftime("%Y%m%d-%H%M%S") + ".json")
    with open(path, "w") as f:
        json.dump(asdict(results), f, ensure_ascii=False, indent=1)
    return path


def finish(results, seconds):
    """Summary, tables, the results file, then the JSON line last."""
    results.bench_seconds = round(seconds, 1)
    results.summary = summarize(results)
    print_tables(results)
    say(f"full results: {write_results(results)}")
    print(json_line(results.summary))


# ---------------------------------------------------------------------------------------------
# tables
# ---------------------------------------------------------------------------------------------
def fmt(v, unit=""):
    return "—" if v is None else f"{v}{unit}"


def mark(ok):
    return "✓" if ok else ("✗" if ok is False else "?")


def print_tables(results):
    if results.dialogues:
        print_turn_latency(results)
        print_breakdown(results.dialogues, results.summary)
        print_startup(results)
        print_targets(results.summary)
    if results.long_answers:
        print_long_answers(results)
    if results.transcription:
        print_transcription(results)
    if results.decision:
        print_decision(results.decision)
    if results.bench_tools:
        print(f"   bench-only tools: {results.bench_tools}")
    print()


def print_turn_latency(results):
    s = results.summary
    print()
    print(f"== Turn latency (end of the person's speech → next question audible), ms; hangover {s.hangover_ms} ms, "
          f"{results.build} build")
    print(f"{'lang':<8}{'overlap p50':>12}{'p95':>8}{'max':>8}{'n':>5}   {'no-overlap p50':>15}{'n':>5}")
    for lang, v in s.per_language.items():
        print(f"{lang:<8}{fmt(v.p50_ms):>12}{fmt(v.p95_ms):>8}{fmt(v.max_ms):>8}{v.n:>5}   "
              f"{fmt(v.no_overlap_p50_ms):>15}{v.no_overlap_n:>5}")
    print(f"{'all':<8}{fmt(s.turn_latency_p50_ms):>12}{fmt(s.turn_latency_p95_ms):>8}"
          f"{fmt(s.turn_latency_max_ms):>8}{s.turns:>5}   {fmt(s.no_overlap_p50_ms):>15}{s.no_overlap_turns:>5}")
    print(f"note wait (the closing line over -> the note on screen): p50 {fmt(s.note_wait_p50_ms)} ms")
    print(f"closing line (after the ending phrase, no model decision): p50 {fmt(s.closing_p50_ms)} ms; "
          f"overlap/no-overlap p50 ratio: {fmt(s.overlap_vs_no_overlap)}")
    print()
    print("== End of turn: adaptive (the transcript at the pause read) vs the preset's fixed silence, same dialogues")
    print(f"{'lang':<8}{'adaptive p50':>13}{'p95':>7}{'wait med':>10}{'mean':>7}{'went on':>9}   "
          f"{'fixed p50':>10}{'p95':>7}{'wait med':>10}{'mean':>7}{'went on':>9}")
    for lang, v in s.per_language.items():
        print(f"{lang:<8}{fmt(v.p50_ms):>13}{fmt(v.p95_ms):>7}{fmt(v.wait_median_ms):>10}{fmt(v.wait_mean_ms):>7}"
              f"{v.went_on:>9}   {fmt(v.fixed_p50_ms):>10}{fmt(v.fixed_p95_ms):>7}{fmt(v.fixed_wait_median_ms):>10}"
              f"{fmt(v.fixed_wait_mean_ms):>7}{v.fixed_went_on:>9}")
    print(f"{'all':<8}{fmt(s.turn_latency_p50_ms):>13}{fmt(s.turn_latency_p95_ms):>7}{fmt(s.wait_median_ms):>10}"
          f"{fmt(s.wait_mean_ms):>7}{'':>9}   {fmt(s.fixed_p50_ms):>10}{fmt(s.fixed_p95_ms):>7}"
          f"{fmt(s.fixed_wait_median_ms):>10}{fmt(s.fixed_wait_mean_ms):>7}")
    going = {lang: v for lang, v in s.per_language.items() if v.going_on_went_on or v.barge_in_ms}
    if going:
        print("  going on (a 1.6 s pause in the first answer, fixed silence): "
              + "; ".join(f"{lang} went on {v.going_on_went_on}, question stopped {v.barge_in_ms} ms after the person started"
                          for lang, v in going.items()))
    print(f"  adaptive/fixed turn latency p50: {fmt(s.adaptive_vs_fixed)}; wait = endpoint − end of speech in the "
          "program's audio; 'went on' = answers cut off and then heard on over the next question")


def print_breakdown(dialogues, s):
    print()
    print("== The program's own breakdown (events; ms after the end of the person's speech, medians per mode)")
    print(f"{'mode':<12}" + "".join(f"{k.replace('_ms', ''):>16}" for k in BREAKDOWN))
    for mode in ("overlap", "fixed", "no_overlap"):
        turns = [t for d in dialogues if d.mode == mode for t in d.turns if t.kind == "question"]
        if turns:
            cells = [[t.breakdown[k] for t in turns if k in t.breakdown] for k in BREAKDOWN]
            print(f"{mode:<12}" + "".join(f"{fmt(round(statistics.median(c)) if c else None):>16}" for c in cells))
    print("  (event times are on the program's clock, taken as seconds since launch: ±~30 ms against the audio)")
    print(f"  transcript in hand after the endpoint, per turn: adaptive p50 {fmt(s.transcript_after_endpoint_p50_ms)} ms, "
          f"p95 {fmt(s.transcript_after_endpoint_p95_ms)} ms; fixed p50 {fmt(s.fixed_transcript_after_endpoint_p50_ms)} ms, "
          f"p95 {fmt(s.fixed_transcript_after_endpoint_p95_ms)} ms (issue 15: 0 ms at p50, ≤ 150 ms at p95)")


def print_startup(results):
    s = results.summary
    print()
    print(f"== Start-up (launch → first question audible): median {fmt(s.startup_ms)} ms "
          f"(min {fmt(s.startup_min_ms)}); peak RSS over a dialogue: {fmt(s.peak_rss_mb)} MB; "
          f"dialogues failed: {s.dialogues_failed}/{len(results.dialogues)}")
    print(f"   left/right alignment check: {fmt(s.alignment_offset_ms)} ms median "
          f"({results.alignment_offsets_ms})")


def issue7_targets(s):
    """[(target, True / False / None when not measured)]."""
    per = s.per_language.values()
    return [
        ("issue 14: turn latency p50 ≤ the preset's silence, p95 ≤ 1.5 × it",
         None if s.turn_latency_p50_ms is None else
         s.turn_latency_p50_ms <= s.hangover_ms and (s.turn_latency_p95_ms or 0) <= 1.5 * s.hangover_ms),
        ("issue 14: median wait after a true end ≤ 350 ms, mean ≤ 700 ms",
         None if s.wait_median_ms is None else s.wait_median_ms <= 350 and s.wait_mean_ms <= 700),
        ("turn latency p50 ≤ hangover + 600 ms in every language",
         all(v.p50_ms is not None and v.p50_ms <= s.hangover_ms + 600 for v in per)),
        ("turn latency p50 ≤ 0.5 × --no-overlap in every language",
         None if s.no_overlap_p50_ms is None else all(
             v.p50_ms is not None and v.no_overlap_p50_ms and v.p50_ms <= 0.5 * v.no_overlap_p50_ms for v in per)),
        ("issue 15: transcript in hand at the endpoint (p50 ≤ 10 ms, the events' own order), p95 ≤ 150 ms",
         None if s.transcript_after_endpoint_p50_ms is None else
         s.transcript_after_endpoint_p50_ms <= 10 and s.transcript_after_endpoint_p95_ms <= 150),
        ("launch → first question ≤ 1.5 s", None if s.startup_ms is None else s.startup_ms <= 1500),
        ("peak RSS ≤ 600 MB", None if s.peak_rss_mb is None else s.peak_rss_mb <= 600),
    ]


def print_targets(s):
    print("   issue 7 targets (reported, never asserted): "
          + "; ".join(f"{mark(ok)} {name}" for name, ok in issue7_targets(s)))


def print_long_answers(results):
    s = results.summary
    print()
    print("== Long answer (the demo's answers as one): overlapped (transcribed at the pauses) vs whole "
          "(--no-overlap); error rate WER, CER for ja")
    print(f"{'lang':<6}{'answer':>8}{'overlapped':>12}{'whole':>8}{'turn ms':>10}{'whole ms':>10}")
    for lang, v in results.long_answers.items():
        o, w = v.overlap, v.no_overlap
        print(f"{lang:<6}{fmt(v.answer_s):>7}s{o.error_rate:>12.3f}{w.error_rate:>8.3f}"
              f"{fmt(o.latency_ms):>10}{fmt(w.latency_ms):>10}")
    print(f"  {mark(s.stitched_error_rate <= s.whole_error_rate)} target: overlapped error no worse than whole "
          f"(mean {s.stitched_error_rate} vs {s.whole_error_rate})")


def engine_cell(e):
    return "—" if not e else f"{e.wall_ms} [{fmt(e.post_load_ms)}] {e.error_rate:.2f}"


def print_transcription(results):
    print()
    print("== Transcription, same clips, 2 threads: wall ms incl. process start + model load "
          "[after model load] error rate (WER; CER for ja); whisper.cpp sides: mean of 2 runs, order A B B A")
    print(f"{'lang':<6}{'clip':>6}" + "".join(f"{n:>26}" for n in ENGINE_NAMES))
    for lang, r in results.transcription.items():
        print(f"{lang:<6}{r.clip_s:>5}s" + "".join(f"{engine_cell(r.runs.get(n)):>26}" for n in ENGINE_NAMES))
    print("  ours = transcribe --json (beam 5, 30 s window, like whisper-cli's defaults, but no temperature fallback); "
          "ours_fast = --fast (greedy, fitted window)\n  vs whisper-cli -bs 1 -ac N; both sides with segment timestamps;"
          " whisper-cli re-decodes a failed segment at a higher temperature (its default), which varies its time and words;\n"
          "  faster-whisper int8 on the CT2 weights, beam 5 / 1,\n"
          "  its wall = transcription + one process's import and model load; [after load] = exit − last model-init "
          "log line (ours, whisper-cli) or the in-process timing (faster-whisper)")
    print_transcription_ratios(results.summary)


def print_transcription_ratios(s):
    ok = s.transcribe_vs_whisper_cli
    print(f"  {mark(ok <= 1.0 if ok else None)} target: in-process ≤ 1.0 × whisper-cli wall time on the same files")
    print(f"  ratios ours/whisper-cli: {fmt(s.transcribe_vs_whisper_cli)} wall, "
          f"{fmt(s.transcribe_vs_whisper_cli_post_load)} after load, "
          f"{fmt(s.transcribe_vs_whisper_cli_engine)} whisper's own total without load; --fast vs greedy: "
          f"{fmt(s.transcribe_fast_vs_whisper_cli_greedy)}; ours/faster-whisper: "
          f"{fmt(s.transcribe_vs_faster_whisper)} wall, {fmt(s.transcribe_vs_faster_whisper_post_load)} after load")


def print_decision(d):
    print()
    print(f"== One question decision (gemma-3-270m, 2 threads): warm in process p50 {fmt(d.warm_p50_ms)} ms "
          f"(first call {fmt(d.first_call_ms)} ms); cold llama-completion p50 {fmt(d.cold_p50_ms)} ms "
          f"wall, {fmt(d.cold_excl_load_p50_ms)} ms excluding model load")
    print("   cold = the product's own prompt (`eval prompts`), one of its option labels by grammar"
          + (f"; not measured: {d.cold_reason}" if d.cold_reason else ""))
