"""One question decision: warm (ours, `eval choices --json`, prefix cached) vs a cold
llama-completion process on the exact prompt and continuations the product scores, which the
binary prints (`eval prompts --json`): nothing of the prompt is re-typed here."""
import json
import os
import re
import time
from dataclasses import dataclass

from .common import LLM_MODEL, REPO, THREADS, engine_env, rounded_percentile, run, say, timed_process

SCENARIOS = os.path.join(REPO, "Tests/Fixtures/choice-scenarios.json")
NO_PROMPTS = "this binary has no `eval prompts` (exit 2): no exact prompt to run llama-completion on"


@dataclass
class DecisionSettings:
    per_language: int = 2           # warm: cases per language
    cold_runs: int = 5              # cold: llama-completion processes
    llama_completion: str | None = None
    no_cold_reason: str = "llama-completion is not built (make bench-tools)"


@dataclass
class CasePrompt:
    """One line of `dialogue-memo eval prompts FILE.json --json`."""
    id: str
    language: str
    format: str                 # "chat" or "completion"
    prompt: str                 # the exact text the product scores the options after
    finish_only: bool
    labels: list[str]           # the exact continuations scored, one per option

    @classmethod
    def parse(cls, line):
        o = json.loads(line)
        return cls(o["id"], o["language"], o["format"], o["prompt"], bool(o.get("finishOnly")),
                   [option["label"] for option in o["options"]])


@dataclass
class ColdRun:
    id: str
    wall_ms: int
    status: int
    answer: str
    load_ms: float | None
    total_ms: float | None
    prompt_tokens: int | None


@dataclass
class DecisionResult:
    scenarios: str
    cases: int
    eval_wall_s: float
    warm_ms_all: list[int]
    warm_p50_ms: int | None
    first_call_ms: int | None
    cold: list[ColdRun] | None = None
    cold_p50_ms: int | None = None
    cold_excl_load_p50_ms: int | None = None
    cold_reason: str | None = None      # why `cold` is null, in one line


def scenario_path():
    return os.environ.get("DIALOGUE_MEMO_CHOICE_SCENARIOS") or SCENARIOS


def pick_cases(cases, langs, per_language):
    """Per language, the first cases that do not end the exchange, the dev split first.

    >>> cases = [{"id": "a", "language": "en", "split": "test"}, {"id": "b", "language": "en", "mustEnd": True,
    ...          "split": "dev"}, {"id": "c", "language": "en", "split": "dev"}, {"id": "d", "language": "ja"}]
    >>> [c["id"] for c in pick_cases(cases, ["en", "ja"], 2)]
    ['c', 'a', 'd']
    """
    picked = []
    for lang in langs:
        mine = [c for c in cases if c["language"] == lang and not c.get("mustEnd")]
        picked += sorted(mine, key=lambda c: c.get("split") != "dev")[:per_language]
    return picked


def gbnf_literal(text):
    r"""A GBNF string literal: quote, backslash and control characters escaped, the rest as UTF-8.

    >>> print(gbnf_literal(' Who is it "for"?\n'), gbnf_literal("a\\b\x01"), gbnf_literal("¿Para quién?"))
    " Who is it \"for\"?\n" "a\\b\x01" "¿Para quién?"
    """
    escapes = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
    return '"' + "".join(escapes.get(c) or (f"\\x{ord(c):02x}" if ord(c) < 0x20 else c) for c in text) + '"'


def option_grammar(labels):
    """The grammar that lets llama-completion produce exactly one of the labels.

    >>> option_grammar([" Who is it for?", " No more questions."])
    'root ::= " Who is it for?" | " No more questions."'
    """
    return "root ::= " + " | ".join(gbnf_literal(label) for label in labels)


def warm_decisions(binary, subset_path):
    """(ms of each model decision of `eval choices --json`, the eval's wall seconds)."""
    start = time.monotonic()
    r = run([binary, "eval", "choices", subset_path, "--json"], env=engine_env(), timeout=900)
    wall = time.monotonic() - start
    per_case = []
    for line in r.stdout.splitlines():
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if "ms" in o and o.get("source") == "model":
            per_case.append(o["ms"])
    return per_case, round(wall, 1)


def case_prompts(binary, subset_path):
    """([CasePrompt], None), or (None, why not)."""
    r = run([binary, "eval", "prompts", subset_path, "--json"], env=engine_env(), timeout=300)
    if r.returncode == 2:
        return None, NO_PROMPTS
    if r.returncode != 0:
        return None, f"`eval prompts` failed (exit {r.returncode}): {(r.stderr.strip().splitlines() or [''])[-1]}"
    prompts = []
    for line in r.stdout.splitlines():
        try:
            prompts.append(CasePrompt.parse(line))
        except (ValueError, KeyError, TypeError):
            continue    # not a case line (a summary, say)
    return prompts, None


def cold_decision(llama_completion, case):
    """One llama-completion process on the product's own prompt, constrained to its labels."""
    cmd = [llama_completion, "-m", LLM_MODEL, "-t", str(THREADS), "-tb", str(THREADS), "-p", case.prompt,
           "--no-escape", "-n", "64", "--temp", "0", "--grammar", option_grammar(case.labels),
           "-no-cnv", "--no-display-prompt", "-c", "2048"]
    t = timed_process(cmd, engine_env(), init_marker="__never__")
    m_load = re.search(r"load time =\s*([\d.]+) ms", t.stderr)
    m_total = re.search(r"total time =\s*([\d.]+) ms", t.stderr)
    m_prompt = re.search(r"prompt eval time =\s*([\d.]+) ms /\s*(\d+) tokens", t.stderr)
    return ColdRun(case.id, round(t.wall_s * 1000), t.status, t.stdout.strip()[-80:],
                   float(m_load.group(1)) if m_load else None, float(m_total.group(1)) if m_total else None,
                   int(m_prompt.group(2)) if m_prompt else None)


def add_cold(out, binary, llama_completion, subset_path, cold_runs):
    prompts, reason = case_prompts(binary, subset_path)
    if prompts is None:
        out.cold_reason = reason
        return
    cold = [cold_decision(llama_completion, case) for case in [p for p in prompts if not p.finish_only][:cold_runs]]
    ok = [c for c in cold if c.status == 0]
    out.cold = cold
    out.cold_p50_ms = rounded_percentile([c.wall_ms for c in ok], 50)
    out.cold_excl_load_p50_ms = rounded_percentile([c.total_ms - c.load_ms for c in ok if c.total_ms and c.load_ms], 50)
    if not ok:
        out.cold_reason = f"no llama-completion run succeeded ({len(cold)} tried)"


def write_subset(path, langs, per_language, work):
    """The picked cases as a scenario file of their own: (its path, how many cases)."""
    with open(path) as f:
        scenarios = json.load(f)
    cases = pick_cases(scenarios["cases"], langs, per_language)
    subset_path = os.path.join(work, "choices-subset.json")
    with open(subset_path, "w") as f:
        json.dump(dict(scenarios, cases=cases), f, ensure_ascii=False)
    return subset_path, len(cases)


def decision_comparison(binary, langs, work, settings):
    path = scenario_path()
    if not os.path.exists(path):
        say(f"  ✗ no choice scenarios at {path}")
        return None
    subset_path, count = write_subset(path, langs, settings.per_language, work)
    per_case, wall = warm_decisions(binary, subset_path)
    warm = per_case[1:] if len(per_case) > 1 else per_case   # the first call fills the prefix cache
    out = DecisionResult(path, count, wall, per_case, rounded_percentile(warm, 50), per_case[0] if per_case else None)
    say(f"  warm decisions (ours, eval choices): p50 {out.warm_p50_ms} ms over {len(warm)} "
        f"(first call {out.first_call_ms} ms)")
    if settings.llama_completion and os.path.exists(settings.llama_completion):
        add_cold(out, binary, settings.llama_completion, subset_path, settings.cold_runs)
    else:
        out.cold_reason = settings.no_cold_reason
    say(f"  cold llama-completion: not measured: {out.cold_reason}" if out.cold_reason else
        f"  cold llama-completion: p50 wall {out.cold_p50_ms} ms (excluding model load {out.cold_excl_load_p50_ms} "
        f"ms) over {sum(1 for c in out.cold if c.status == 0)} runs")
    return out
