"""Whole `demo` dialogues on the private server: turn latency from outside on one clock, the
program's own breakdown from its --events, start-up and peak RSS; and the long-answer
comparison (overlapped vs --no-overlap whole)."""
import json
import os
import subprocess
import time
from dataclasses import dataclass, field

from .audio import RATE, Recorder, utterances
from .common import locale_pack, run, say
from .scoring import error_rate

LONG_LANGUAGES = ["en", "ja"]   # two, to keep `make bench` under 15 min from a fresh clone
DIALOGUE_TIMEOUT_S = 240


@dataclass
class DemoRun:
    lang: str
    mode: str                   # "overlap" (adaptive end of turn), "fixed" (overlap, the preset's silence) or "no_overlap"
    index: int | str
    scenario: str | None = None  # a `demo --scenario` file instead of the locale's answers

    @property
    def tag(self):
        return f"{self.lang}-{self.mode}-{self.index}"


@dataclass
class Turn:
    kind: str                   # "question", or "closing" (the line after the ending phrase)
    latency_ms: float           # last audible sample of the answer → first of the next line
    speech_end_t: float         # on the program's clock (seconds since launch)
    audible_t: float
    answer_s: float
    breakdown: dict = field(default_factory=dict)   # event → ms after the end of the speech
    question: str | None = None


@dataclass
class Transcript:
    text: str | None
    speculative: bool | None


@dataclass
class Dialogue:
    lang: str
    mode: str
    index: int | str
    status: int | str           # exit code, or "timeout"
    wall_s: float
    peak_rss_mb: float
    startup_ms: int | None = None
    turns: list[Turn] = field(default_factory=list)
    transcripts: list[Transcript] = field(default_factory=list)
    questions_asked: int = 0
    program_utterances: int = 0
    person_utterances: int = 0
    waits_ms: list[int] = field(default_factory=list)   # silence waited after each answer's speech (endpoint − speech end)
    went_on: int = 0            # answers cut off and then heard on (the person went on over the next question)
    barge_in_ms: list[int] = field(default_factory=list)  # person starts while the program speaks → its sound ends
    note_wait_ms: int | None = None   # the program falls quiet (closing line over) → the note on screen

    def latencies(self, kind="question"):
        return [t.latency_ms for t in self.turns if t.kind == kind]


def supports_no_overlap(binary):
    return run([binary, "demo", "--no-overlap", "--help"], timeout=30).returncode == 0


def schedule(langs, runs, no_overlap_runs, no_overlap_ok, fixed_runs=0):
    """Round-robin over the languages: overlap (adaptive), fixed silence, no-overlap in each round.

    >>> [d.tag for d in schedule(["en", "ja"], 2, 1, True, 1)]
    ['en-overlap-0', 'en-fixed-0', 'en-no_overlap-0', 'ja-overlap-0', 'ja-fixed-0', 'ja-no_overlap-0', 'en-overlap-1', 'ja-overlap-1']
    """
    plan = []
    for r in range(max(runs, no_overlap_runs, fixed_runs)):
        for lang in langs:
            if r < runs:
                plan.append(DemoRun(lang, "overlap", r))
            if r < fixed_runs:
                plan.append(DemoRun(lang, "fixed", r))
            if r < no_overlap_runs and no_overlap_ok:
                plan.append(DemoRun(lang, "no_overlap", r))
    return plan


def demo_command(binary, server, spec, silence, work):
    cmd = [binary, "demo", "--lang", spec.lang, "--audio-server", server.address,
           "--events", os.path.join(work, f"{spec.tag}.events.jsonl"), "--notes-dir", os.path.join(work, f"{spec.tag}-notes")]
    if spec.scenario:
        cmd += ["--scenario", spec.scenario]
    if silence != "default":
        cmd += ["--silence", silence]
    if spec.mode == "no_overlap":
        cmd.append("--no-overlap")
    return cmd


def wait_with_rss(proc, deadline):
    """(exit status or "timeout", peak RSS in kB) of a child, through wait4."""
    while True:
        pid, st, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(st)
            return proc.returncode, usage.ru_maxrss
        if time.monotonic() > deadline:
            proc.kill()
            os.wait4(proc.pid, 0)
            proc.returncode = -9
            return "timeout", 0
        time.sleep(0.05)


def read_events(path):
    events = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                try:
                    events.append(json.loads(line))
                except ValueError:
                    pass
    return events


def run_dialogue(binary, server, spec, silence, work):
    rec = Recorder(server.env)
    rec.wait_started()
    with open(os.path.join(work, f"{spec.tag}.log"), "w") as log:
        launch = time.monotonic()
        env = dict(server.env, DIALOGUE_MEMO_FIXED_SILENCE="true" if spec.mode in ("fixed", "going_on") else "false")
        proc = subprocess.Popen(demo_command(binary, server, spec, silence, work),
                                stdout=log, stderr=subprocess.STDOUT, env=env)
        status, maxrss_kb = wait_with_rss(proc, launch + DIALOGUE_TIMEOUT_S)
        exited = time.monotonic()
    left, right = rec.stop()
    events = read_events(os.path.join(work, f"{spec.tag}.events.jsonl"))
    person, program = utterances(left), utterances(right)
    to_prog = lambda frame: rec.mono_time(frame) - launch   # noqa: E731  (program clock ≈ seconds since launch)
    return Dialogue(
        spec.lang, spec.mode, spec.index, status, round(exited - launch, 2), round(maxrss_kb / 1024, 1),
        startup_ms=round(to_prog(program[0][0]) * 1000) if program else None,
        turns=find_turns(person, program, events, to_prog),
        transcripts=[Transcript(e.get("text"), e.get("speculative")) for e in events if e.get("event") == "transcribed"],
        questions_asked=sum(1 for e in events if e.get("event") == "question"),
        program_utterances=len(program), person_utterances=len(person),
        waits_ms=[round((e["endpoint"] - e["speechEnd"]) * 1000) for e in events
                  if e.get("event") == "transcribed" and e.get("endpoint") is not None and e.get("speechEnd") is not None],
        went_on=sum(1 for e in events if e.get("event") == "wentOn"),
        barge_in_ms=barge_ins(person, program),
        note_wait_ms=note_wait(program, events, to_prog))


def note_wait(program, events, to_prog):
    """From the moment the program falls quiet to the `note` event, in ms: its last sound (the
    closing line) is over, and so is the take-back window after an ending no rule forced (the
    `finished` event comes as it closes); 0 when the note was ready before.

    >>> note_wait([(0, 48000), (96000, 144000)], [{"event": "note", "t": 3.5}], lambda f: f / 48000)
    500
    >>> note_wait([(0, 48000)], [{"event": "note", "t": 0.5}], lambda f: f / 48000)
    0
    >>> note_wait([(0, 48000)], [{"event": "finished", "t": 2.5}, {"event": "note", "t": 2.75}], lambda f: f / 48000)
    250
    >>> note_wait([], [{"event": "note", "t": 0.5}], lambda f: f / 48000) is None
    True
    """
    notes = [e["t"] for e in events if e.get("event") == "note" and "t" in e]
    if not program or not notes:
        return None
    finished = [e["t"] for e in events if e.get("event") == "finished" and "t" in e]
    quiet = max([to_prog(program[-1][1])] + finished[-1:])
    return max(0, round((notes[-1] - quiet) * 1000))


def barge_ins(person, program):
    """For each person utterance that starts while the program speaks: ms until the program's
    sound ends (how fast a question or a closing line talked over is stopped).

    >>> barge_ins([(100, 200), (1000, 1500)], [(0, 150), (900, 1048)])
    [1.0, 1.0]
    """
    return [round((q[1] - p[0]) / RATE * 1000, 1) for p in person for q in program if q[0] <= p[0] < q[1]]


def find_turns(person, program, events, to_prog):
    """One turn per program utterance that follows an answer: the answer's end → its onset.
    The program's first lines are questions (as many as it logged), the last the closing.

    >>> turns = find_turns([(48000, 96000)], [(0, 24000), (120000, 150000)], [{"event": "question", "t": 0},
    ...                    {"event": "question", "t": 2.4, "question": "q2"}], lambda f: f / 48000)
    >>> [(t.kind, t.latency_ms, t.answer_s, t.question, t.breakdown) for t in turns]
    [('question', 500.0, 1.0, 'q2', {'question_event_ms': 400, 'audible_ms': 500})]
    """
    questions = sum(1 for e in events if e.get("event") == "question")
    turns = []
    for j in range(1, len(program)):
        prev_end, onset = program[j - 1][1], program[j][0]
        said = [p for p in person if p[0] > prev_end and p[1] < onset]
        if not said:
            continue
        speech_end = said[-1][1]
        latency = (onset - speech_end) / RATE * 1000
        t_end, t_onset = to_prog(speech_end), to_prog(onset)
        turn = Turn("question" if j < questions else "closing", round(latency, 1), round(t_end, 3),
                    round(t_onset, 3), round((speech_end - said[0][0]) / RATE, 2))
        add_breakdown(turn, events, t_end, t_onset)
        turns.append(turn)
    return turns


def add_breakdown(turn, events, t_end, t_onset):
    """The program's own events between the person's answer and the onset, in ms after the end
    of the person's speech."""
    window = [e for e in events if t_end - 1.5 <= e.get("t", -1) <= t_onset + 0.05]

    def last(name):
        found = [e for e in window if e.get("event") == name]
        return found[-1] if found else None
    spoken = last("question") if turn.kind == "question" else None
    marks = {"endpoint_ms": last("endpoint"), "transcribed_ms": last("transcribed"),
             "decision_ms": last("decision") or last("decided"), "question_event_ms": spoken}
    turn.breakdown = {k: round((e["t"] - t_end) * 1000) for k, e in marks.items() if e}
    turn.breakdown["audible_ms"] = round(turn.latency_ms)
    if spoken:
        turn.question = spoken.get("question")


@dataclass
class LongRun:
    text: str
    speculative: bool | None
    latency_ms: float | None
    error_rate: float


@dataclass
class LongAnswer:
    reference: str
    answer_s: float | None
    overlap: LongRun
    no_overlap: LongRun


def long_scenario(lang, work):
    """The demo's answers but the ending, as ONE answer, then the ending: (file, reference)."""
    answers = locale_pack(lang)["demo"]["answers"]
    sep = "" if lang == "ja" else " "
    body = answers[:-1]
    long = {"text": sep.join(a["text"] for a in body), "speech": sep.join(a.get("speech") or a["text"] for a in body)}
    path = os.path.join(work, f"long-{lang}.json")
    with open(path, "w") as f:
        json.dump({"answers": [long, answers[-1]]}, f, ensure_ascii=False)
    return path, long["text"]


def going_on_scenario(lang, work):
    """The demo's answers with a 1.6 s pause in the middle of the first (longer than the fixed
    0.7 s silence, so the answer is cut off there and the person goes on over the question)."""
    answers = [dict(a) for a in locale_pack(lang)["demo"]["answers"]]
    speech = answers[0].get("speech") or answers[0]["text"]
    if lang == "ja":
        cut = speech.find("、") + 1 or len(speech) // 2
    else:
        words = speech.split(" ")
        cut = len(" ".join(words[:len(words) // 2]))
    answers[0]["speech"] = speech[:cut] + " [pause 1.6s] " + speech[cut:].lstrip()
    path = os.path.join(work, f"going-on-{lang}.json")
    with open(path, "w") as f:
        json.dump({"answers": answers}, f, ensure_ascii=False)
    return path


def long_answer(binary, server, lang, work):
    """Overlapped vs whole on a long answer: once in an overlapped dialogue (transcribed at the
    pauses while the person may go on) and once with --no-overlap (the whole answer transcribed
    after the endpoint). Same audio path, same settings otherwise."""
    scenario, reference = long_scenario(lang, work)
    measured, answer_s = {}, None
    for mode in ("overlap", "no_overlap"):
        d = run_dialogue(binary, server, DemoRun(lang, mode, "long", scenario), "default", work)
        first = d.transcripts[0] if d.transcripts else Transcript("", None)
        turn = next((t for t in d.turns if t.kind == "question"), None)
        answer_s = answer_s or (turn.answer_s if turn else None)
        measured[mode] = LongRun(first.text or "", first.speculative, turn.latency_ms if turn else None,
                                 error_rate(reference, first.text or "", lang))
    row = LongAnswer(reference, answer_s, measured["overlap"], measured["no_overlap"])
    say(f"  long answer {lang}: {row.answer_s} s, error overlapped {row.overlap.error_rate} vs whole "
        f"{row.no_overlap.error_rate}, turn latency {row.overlap.latency_ms} vs {row.no_overlap.latency_ms} ms")
    return row


def long_answer_comparison(binary, server, langs, work):
    chosen = [lang for lang in langs if lang in LONG_LANGUAGES] or langs[:1]
    return {lang: long_answer(binary, server, lang, work) for lang in chosen}
