"""Real voices in `talk` (issue 41): recordings of real people from the real-speech set
(scripts/fetch-speech.sh) are played into the running program's microphone on the private
server, timed against its questions in four patterns, and the note is scored against the
recordings' references next to `transcribe` of the very same audio.

Patterns (the person's speech onset, relative to the question just asked):
  plain  0.6 s after the question ends;
  pause  as plain, one answer made of two recordings joined by a 1-2 s thinking pause;
  early  0.3 s before the question ends;
  over   at the middle of the question (the private server's devices are virtual: the
         question does not reach the microphone, so nothing has to be cancelled).
Each exchange: N answers, then the locale's ending phrase (espeak-ng, so the exchange ends
normally and the note holds the final passes), `talk --yes`.
"""
import array
import json
import os
import random
import re
import shutil
import signal
import subprocess
import threading
import time
import wave
from dataclasses import asdict, dataclass, field

from .audio import RATE, AudioServer, Recorder
from .common import CACHE, REPO, locale_pack, percentile, run, say
from .dialogues import read_events, wait_with_rss
from .scoring import edit_distance, normalize_words

PATTERNS = ["plain", "pause", "early", "over"]
MIC_RATE = 16000
REACTION_S = 0.6           # plain: a person starts this long after the question ends
EARLY_S = 0.3              # early: the person starts this long before the question ends
PAUSE_RANGE_S = (1.0, 2.0)  # pause: the thinking pause inside one answer (speech to speech)
QUESTION_SILENCE_S = 0.5   # the program's sound is over once it has been silent this long
AUDIBLE = 100              # |sample| above this (≈ −50 dBFS) is the program speaking
EXCHANGE_TIMEOUT_S = 300
QUESTION_TIMEOUT_S = 60    # from the end of an answer to the next question or the closing line
FINISHED = "finished"
SPEECH_KINDS = {"read", "spontaneous", "conversational", "disfluent"}


# ---------------------------------------------------------------- clips and answers

def speech_folder():
    r = run([os.path.join(REPO, "scripts/fetch-speech.sh")], timeout=1800)
    if r.returncode != 0:
        raise SystemExit(f"scripts/fetch-speech.sh failed: {r.stderr[-500:]}")
    return r.stdout.strip().splitlines()[-1]


def longest_pause(clip):
    return max([x["end"] - x["start"] for x in clip.get("silences", []) if not x.get("final")] or [0])


def choose_clips(manifest, lang, min_words=5, max_seconds=15.0, max_pause=1.0):
    """The language's speech clips a person could say as one answer, in a fixed shuffled order:
    at most 15 s, and no pause inside longer than 1 s (a longer one is a thinking pause, which
    the `pause` pattern makes on purpose).

    >>> m = {"clips": [{"id": f"x{i}", "language": "en", "kind": "read", "durationSeconds": 3,
    ...       "reference": "a b c d e", "speech": {"start": 0, "end": 3}} for i in range(3)]}
    >>> [c["id"] for c in choose_clips(m, "en")] == [c["id"] for c in choose_clips(m, "en")]
    True
    >>> choose_clips(m, "fr")
    []
    """
    clips = [c for c in manifest["clips"] if c["language"] == lang and c["kind"] in SPEECH_KINDS
             and c["durationSeconds"] <= max_seconds and c.get("speech") and longest_pause(c) <= max_pause
             and (lang == "ja" or len(c["reference"].split()) >= min_words)]
    clips.sort(key=lambda c: c["id"])
    random.Random(f"voices-{lang}").shuffle(clips)
    return clips


def read_wav16k(path):
    with wave.open(path) as w:
        assert w.getframerate() == MIC_RATE and w.getnchannels() == 1 and w.getsampwidth() == 2, path
        samples = array.array("h")
        samples.frombytes(w.readframes(w.getnframes()))
    return samples


def write_wav16k(path, samples):
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(MIC_RATE)
        w.writeframes(samples.tobytes())


@dataclass
class Answer:
    """One answer as played: its WAV, where its speech starts and ends in it, its reference."""
    wav: str
    reference: str
    speech_start: float
    speech_end: float
    clips: list
    pause_s: float | None = None
    synthetic: bool = False      # the ending phrase (espeak-ng)


def join_with_pause(a, b, pause_s):
    """Two clips as one answer: a's speech, `pause_s` from a's speech end to b's speech start
    (silence, 0.1 s of each clip's own sound kept at the joint), then b.
    (samples, speech start, speech end) in seconds.

    >>> s, start, end = join_with_pause((array.array("h", [1] * 32000), 0.5, 1.5), (array.array("h", [2] * 16000), 0.2, 0.8), 1.5)
    >>> start, end, round(len(s) / 16000, 2)
    (0.5, 3.6, 3.8)
    """
    (sa, a0, a1), (sb, b0, b1) = a, b
    cut_a = min(len(sa), int((a1 + 0.1) * MIC_RATE))
    from_b = max(0, int((b0 - 0.1) * MIC_RATE))
    gap = max(0, int(pause_s * MIC_RATE) - (cut_a - int(a1 * MIC_RATE)) - (int(b0 * MIC_RATE) - from_b))
    samples = sa[:cut_a] + array.array("h", [0] * gap) + sb[from_b:]
    b_offset = (cut_a + gap - from_b) / MIC_RATE
    return samples, a0, round(b_offset + b1, 3)


def build_answers(clips, folder, lang, pattern, exchange, per_exchange, work):
    """The answers of one exchange: the same clips for every pattern (pause takes two per
    answer), so the patterns differ only in timing."""
    per = 2 if pattern == "pause" else 1
    rng = random.Random(f"{lang}-{pattern}-{exchange}")
    answers = []
    for k in range(per_exchange):
        chosen = [clips[((exchange * per_exchange + k) * per + j) % len(clips)] for j in range(per)]
        loaded = [(read_wav16k(os.path.join(folder, c["file"])), c["speech"]["start"], c["speech"]["end"]) for c in chosen]
        sep = "" if lang == "ja" else " "
        reference = sep.join(c["reference"] for c in chosen)
        path = os.path.join(work, f"{lang}-{pattern}-{exchange}-{k}.wav")
        pause = None
        if per == 1:
            samples, start, end = loaded[0]
        else:
            pause = round(rng.uniform(*PAUSE_RANGE_S), 2)
            samples, start, end = join_with_pause(loaded[0], loaded[1], pause)
        write_wav16k(path, samples)
        answers.append(Answer(path, reference, start, end, [c["id"] for c in chosen], pause))
    return answers


def ending_answer(lang, work):
    """The locale's demo ending ("I think that's all for now."), spoken by espeak-ng at 16 kHz."""
    pack = locale_pack(lang)
    ending = pack["demo"]["answers"][-1]
    path = os.path.join(work, f"ending-{lang}.wav")
    raw = path + ".raw.wav"
    subprocess.run(["espeak-ng", "-v", pack["voice"], "-w", raw, ending.get("speech") or ending["text"]], check=True)
    subprocess.run(["sox", raw, "-r", str(MIC_RATE), "-c", "1", "-b", "16", path], check=True)
    os.remove(raw)
    samples = read_wav16k(path)
    span = audible_span(samples, 300)
    return Answer(path, ending["text"], span[0] / MIC_RATE, span[1] / MIC_RATE, ["espeak-ng ending"], synthetic=True)


def first_above(samples, threshold=AUDIBLE, start=0):
    """Index of the first |x| > threshold from `start`, or None (scanned in 10 ms blocks).

    >>> first_above(array.array("h", [0] * 1000 + [200] + [0] * 10)), first_above([0, 0]), first_above([5, 0, 7], 0, 1)
    (1000, None, 2)
    """
    for block in range(start, len(samples), 480):
        w = samples[block:block + 480]
        if max(w) > threshold or -min(w) > threshold:
            return block + next(i for i, v in enumerate(w) if abs(v) > threshold)
    return None


def last_above(samples, threshold=AUDIBLE):
    """Index of the last |x| > threshold, or None.

    >>> last_above(array.array("h", [0, 300, 0, -400, 0, 0])), last_above([0])
    (3, None)
    """
    for block in range((len(samples) - 1) // 480 * 480, -1, -480):
        w = samples[block:block + 480]
        if max(w) > threshold or -min(w) > threshold:
            return block + max(i for i, v in enumerate(w) if abs(v) > threshold)
    return None


def audible_span(samples, threshold=AUDIBLE):
    """(first, last) index with |x| > threshold, or None.

    >>> audible_span(array.array("h", [0, 5, 500, 0, -600, 3]))
    (2, 4)
    """
    first = first_above(samples, threshold)
    return None if first is None else (first, last_above(samples, threshold))


# ---------------------------------------------------------------- the person's mouth

class Mouth:
    """One pacat stream into `micfeed`, fed in 20 ms chunks on the monotonic clock (zeros when
    the person is silent), so a clip starts within a chunk of the time asked, under load too;
    a fresh paplay per clip would add its own start-up."""
    CHUNK = 320

    def __init__(self, env):
        self.proc = subprocess.Popen(
            ["pacat", "--playback", "-d", "micfeed", "--raw", "--format=s16le", f"--rate={MIC_RATE}",
             "--channels=1", "--latency-msec=40"], stdin=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.lock = threading.Lock()
        self.queued = []          # [(first sample index, samples)]
        self.t0 = time.monotonic()
        self.written = 0          # samples written so far
        self.running = True
        self.thread = threading.Thread(target=self._feed, daemon=True)
        self.thread.start()

    def _feed(self):
        lead = 0.06
        while self.running:
            due = self.t0 + self.written / MIC_RATE - lead
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            chunk = array.array("h", [0] * self.CHUNK)
            lo, hi = self.written, self.written + self.CHUNK
            with self.lock:
                for start, samples in self.queued:
                    a, b = max(lo, start), min(hi, start + len(samples))
                    if a < b:
                        chunk[a - lo:b - lo] = samples[a - start:b - start]
                self.queued = [(s, x) for s, x in self.queued if s + len(x) > hi]
            try:
                self.proc.stdin.write(chunk.tobytes())
                self.proc.stdin.flush()
            except (BrokenPipeError, ValueError):
                return
            self.written = hi

    def say(self, samples, at):
        """Plays `samples` from monotonic time `at` (at once if that is past); returns the time used."""
        with self.lock:
            first = max(int((at - self.t0) * MIC_RATE), self.written + self.CHUNK)
            # a person says one thing at a time: what is left of the previous clip (its room
            # tone after the speech) stops here
            self.queued = [(s, x[:max(0, first - s)]) for s, x in self.queued]
            self.queued.append((first, samples))
        return self.t0 + first / MIC_RATE

    def close(self):
        self.running = False
        self.thread.join(timeout=2)
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        self.proc.terminate()
        self.proc.wait(timeout=5)


# ---------------------------------------------------------------- the program, heard live

class ProgramEar:
    """The program's channel (benchmix right) of the running recording, read as it grows."""

    def __init__(self, rec):
        self.rec = rec

    def frames(self):
        return len(self.rec.data) // 4

    def frame_at(self, mono):
        return max(0, int((mono - self.rec.t0) * RATE))

    def mono(self, frame):
        return self.rec.t0 + frame / RATE

    def right(self, a, b):
        samples = array.array("h")
        samples.frombytes(bytes(self.rec.data[a * 4:b * 4]))
        return samples[1::2]

    def onset(self, since_frame, deadline):
        """First audible frame of the program from `since_frame`, waiting until `deadline`."""
        pos = since_frame
        while time.monotonic() < deadline:
            end = self.frames()
            if end > pos:
                found = first_above(self.right(pos, end))
                if found is not None:
                    return pos + found
                pos = end
            time.sleep(0.01)
        return None

    def end_of_sound(self, onset_frame, deadline, not_before=0, silence_s=QUESTION_SILENCE_S):
        """Last audible frame once the program has been silent `silence_s` after it (and the
        recording has reached `not_before`)."""
        last, pos = onset_frame, onset_frame
        while time.monotonic() < deadline:
            end = self.frames()
            if end > pos:
                found = last_above(self.right(pos, end))
                if found is not None:
                    last = pos + found
                pos = end
                if pos - last >= silence_s * RATE and pos >= not_before:
                    return last
            time.sleep(0.01)
        return last


class EventTail:
    """The --events file read as the program writes it."""

    def __init__(self, path):
        self.path, self.offset, self.events = path, 0, []
        self.used = 0             # events already acted on

    def poll(self):
        if os.path.exists(self.path) and os.path.getsize(self.path) < self.offset:
            # a refusal rewrites the file without the refused words: start over, act on nothing old
            self.offset, self.events = 0, []
            self.poll()
            self.used = len(self.events)
        if os.path.exists(self.path):
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
            complete = data[:data.rfind(b"\n") + 1]
            self.offset += len(complete)
            for line in complete.decode("utf-8", "replace").splitlines():
                try:
                    self.events.append(json.loads(line))
                except ValueError:
                    pass
        return self.events


# ---------------------------------------------------------------- one exchange

@dataclass
class Exchange:
    lang: str
    pattern: str
    index: int
    status: int | str
    wall_s: float
    peak_rss_mb: float
    answers: list = field(default_factory=list)      # per answer: reference, clips, onsets…
    question_onsets_s: list = field(default_factory=list)   # seconds since launch, on the recording
    closing_onset_s: float | None = None
    note_s: float | None = None
    saved: bool = False
    refused: bool = False     # the program took an answer for a refusal: nothing saved (not scored)
    wavs: list = field(default_factory=list)          # the recorded answers played (not the ending)
    note_text: str = ""
    answers_text: str = ""
    reference: str = ""
    transcribed: str = ""
    note_edits: int = 0
    note_inserted: int = 0      # of the edits, words (ja: characters) the note has and the references do not
    transcribe_inserted: int = 0
    transcribe_edits: int = 0
    reference_units: int = 0
    over_speech: int = 0
    waits_ms: list = field(default_factory=list)
    lead_ms: list = field(default_factory=list)       # early/over: speech onset − question end (negative: before)
    note_wait_ms: int | None = None   # the program falls quiet (closing line and take-back window over) → the note
    failure: str | None = None


def note_text(markdown, pack):
    """The person's sentences in a note: no front matter, the title only when it is a sentence
    (not the generic dated title), bullets unmarked, no next-steps section (it repeats
    sentences).

    >>> md = "---\\nid: x\\n---\\n\\n# I want a shop.\\n\\nIt sells bread.\\n\\n## Next steps\\n\\n- [ ] It sells bread.\\n"
    >>> note_text(md, {"noteTitle": "Memo from {date}"})
    'I want a shop. It sells bread.'
    >>> note_text("---\\n---\\n\\n# Memo from 2026-12-07\\n\\n- One.\\n- Two.\\n", {"noteTitle": "Memo from {date}"})
    'One. Two.'
    """
    lines = markdown.split("\n")
    if lines and lines[0] == "---":
        end = lines.index("---", 1)
        lines = lines[end + 1:]
    kept = []
    generic = re.compile(re.escape(pack["noteTitle"]).replace(re.escape("{date}"), ".+") + r"\Z")
    for line in lines:
        if line.startswith("## "):
            break
        if line.startswith("# "):
            title = line[2:].strip()
            if not generic.match(title):
                kept.append(title)
            continue
        line = re.sub(r"^- (\[ \] )?", "", line).strip()
        if line:
            kept.append(line)
    return " ".join(kept).replace("\\", "")


def units(text, lang):
    words = normalize_words(text)
    return list("".join(words)) if lang == "ja" else words


def exchange_command(binary, lang, work, tag, extra):
    return [binary, "talk", "--lang", lang, "--yes", "--events", os.path.join(work, f"{tag}.events.jsonl"),
            "--notes-dir", os.path.join(work, f"{tag}-notes")] + extra


class Durations:
    """How long each question sounds: measured when it played to its end, else espeak-ng's
    rendering of its text scaled by what was measured so far."""

    def __init__(self, voice):
        self.voice, self.measured, self.ratios = voice, {}, []
        self.delays = []          # from the time asked to the clip's first sample on the recording

    def mouth_delay(self):
        return sorted(self.delays)[len(self.delays) // 2] if self.delays else 0.0

    def learn_delay(self, ear, at, deadline):
        """The clip asked for `at` (the person silent before it): when did it start sounding?"""
        begin = ear.frame_at(at - 0.2)
        while ear.frames() < begin + int(0.7 * RATE) and time.monotonic() < deadline:
            time.sleep(0.02)
        left = array.array("h")
        left.frombytes(bytes(ear.rec.data[begin * 4:(begin + int(0.7 * RATE)) * 4]))
        left = left[0::2]
        first = first_above(left, 0)
        if first is not None and first > RATE // 20:
            self.delays.append(ear.mono(begin + first) - at)

    def rendered(self, text):
        r = subprocess.run(["espeak-ng", "-v", self.voice, "--stdout", text], capture_output=True)
        data = r.stdout[44:]
        samples = array.array("h")
        samples.frombytes(data[:len(data) // 2 * 2])
        span = audible_span(samples)
        return (span[1] - span[0]) / 22050 if span else 2.0

    def estimate(self, text):
        if text in self.measured:
            return self.measured[text]
        ratio = sorted(self.ratios)[len(self.ratios) // 2] if self.ratios else 1.0
        return self.rendered(text) * ratio

    def learn(self, text, seconds):
        if text not in self.measured:
            self.ratios.append(seconds / max(0.1, self.rendered(text)))
        self.measured[text] = seconds


def run_exchange(binary, server, lang, pattern, index, answers, ending, durations, work, extra):
    tag = f"{lang}-{pattern}-{index}"
    env = dict(server.env, XDG_CONFIG_HOME=os.path.join(work, "config"), XDG_DATA_HOME=os.path.join(work, "data"),
               XDG_STATE_HOME=os.path.join(work, "state"), OMP_WAIT_POLICY="PASSIVE")
    rec = Recorder(server.env)
    rec.wait_started()
    mouth = Mouth(server.env)
    ear = ProgramEar(rec)
    events = EventTail(os.path.join(work, f"{tag}.events.jsonl"))
    played = []            # (Answer, monotonic start asked, question onset frame, question length or None)
    failure = None
    with open(os.path.join(work, f"{tag}.log"), "w") as log:
        launch = time.monotonic()
        proc = subprocess.Popen(exchange_command(binary, lang, work, tag, extra), stdin=subprocess.DEVNULL,
                                stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = launch + EXCHANGE_TIMEOUT_S
        try:
            after = launch            # the next answer waits for a question asked after this time
            # the ending phrase is said again (twice at most) when a question follows it instead
            # of the closing line: a misheard ending must not leave the exchange waiting
            for answer in answers + [ending] * 3:
                asked = next_question(events, ear, proc, launch, after, min(deadline, after + QUESTION_TIMEOUT_S))
                if asked is None:
                    failure = "no question after answer %d" % len(played)
                    break
                if asked == FINISHED:     # the program ended the exchange itself (or took the ending)
                    break
                text, onset, fresh = asked
                if fresh:
                    start, length = schedule(pattern if not answer.synthetic else "plain", text, onset, ear, durations, deadline)
                else:   # a question asked over the person, now waiting: answered at once
                    start, length = time.monotonic() + 0.2, None
                at = mouth.say(read_wav16k(answer.wav), start - answer.speech_start - durations.mouth_delay())
                played.append((answer, at, onset, length))
                after = at + durations.mouth_delay() + answer.speech_end
                durations.learn_delay(ear, at, deadline)
                while time.monotonic() < after and running(proc):
                    time.sleep(0.05)
            else:
                failure = "the ending phrase was not taken three times"
        except Exception as e:  # noqa: BLE001  (a bench keeps going: the exchange is marked failed)
            failure = f"{type(e).__name__}: {e}"
        if failure and running(proc):
            proc.send_signal(signal.SIGINT)     # ends the exchange as Ctrl-C would: the note is saved
        status, maxrss_kb = wait_with_rss(proc, deadline)
        exited = time.monotonic()
    mouth.close()
    left, right = rec.stop()
    all_events = read_events(os.path.join(work, f"{tag}.events.jsonl"))
    ex = Exchange(lang, pattern, index, status, round(exited - launch, 2), round(maxrss_kb / 1024, 1), failure=failure)
    measure(ex, rec, launch, left, right, played, all_events, locale_pack(lang))
    return ex


def running(proc):
    """Still running, without reaping it (its exit status and peak RSS come from wait4 later)."""
    return os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None


def next_question(events, ear, proc, launch, after, deadline):
    """(text, onset frame, fresh) of the question the person answers next, FINISHED (the
    exchange ended: closing line), or None (no question in time, or the program exited).
    Normally the first question that sounds after `after` (the end of the person's last
    speech; `fresh`). A question started before it (over the person)
    is answered (not `fresh`) only when the program then listens without hearing anything: it
    waits for an answer to it. Each event is looked at once."""
    pending = None
    while time.monotonic() < deadline and running(proc):
        evs = events.poll()
        while events.used < len(evs):
            e = evs[events.used]
            if e.get("event") == "finished":
                return FINISHED
            events.used += 1
            if e.get("event") == "question":
                onset = ear.onset(ear.frame_at(launch + e["t"] - 0.1), time.monotonic() + 5)
                if onset is not None and ear.mono(onset) >= after - 0.05:
                    return e.get("text", ""), onset, True
                pending = (e.get("text", ""), onset, e["t"])
        if pending and time.monotonic() > after + 0.8 and waits_for_answer(evs, pending[2]):
            return pending[0], pending[1], False
        time.sleep(0.02)
    return FINISHED if any(e.get("event") == "finished" for e in read_events(events.path)) else None


def waits_for_answer(events, question_t):
    """After the question at `question_t` the program listens and has heard nothing yet (had it
    heard the end of the person's speech, it would answer that and ask anew).

    >>> evs = [{"event": "question", "t": 5}, {"event": "listening", "t": 7}, {"event": "hearing", "t": 7.1}]
    >>> waits_for_answer(evs[:2], 5), waits_for_answer(evs, 5), waits_for_answer(evs[:1], 5)
    (True, False, False)
    """
    listening = [e["t"] for e in events if e.get("event") == "listening" and e["t"] >= question_t]
    return bool(listening) and not any(e.get("event") in ("hearing", "endpoint", "question") and e["t"] >= listening[-1]
                                       for e in events)


def schedule(pattern, text, onset, ear, durations, deadline):
    """(the monotonic time at which the person's speech should start, the question's length)."""
    if pattern in ("plain", "pause"):
        # not before most of its expected length: a pause between its sentences is not its end
        end = ear.end_of_sound(onset, deadline, not_before=onset + int(0.8 * durations.estimate(text) * RATE))
        durations.learn(text, (end - onset) / RATE)
        return ear.mono(end) + REACTION_S, (end - onset) / RATE
    length = durations.estimate(text)
    if pattern == "early":
        return ear.mono(onset) + length - EARLY_S, length
    if pattern == "over":
        return ear.mono(onset) + length / 2, length
    raise ValueError(pattern)


# ---------------------------------------------------------------- measured on the recording

def onsets_after(channel, frames):
    """First audible frame within 10 s at or after each frame (None where nothing follows)."""
    out = []
    for f in frames:
        f = max(0, f)
        found = first_above(channel[f:f + 10 * RATE])
        out.append(None if found is None else f + found)
    return out


def measure(ex, rec, launch, left, right, played, events, pack):
    to_s = lambda frame: rec.mono_time(frame) - launch   # noqa: E731  (≈ the program's clock)
    frame_of = lambda s: int((s + launch - rec.t0) * RATE)   # noqa: E731
    # Where each clip began on the recording: its first non-zero sample, where the person was
    # silent (digital zero) just before; else the delay of the other clips from the time asked.
    starts, delays = [], []
    for answer, at, _, _ in played:
        lead = (first_above(read_wav16k(answer.wav), 0) or 0) / MIC_RATE
        f = frame_of(at - launch - 0.15)
        heard = None if first_above(left[max(0, f - RATE // 10):f], 0) is not None else first_above(left, 0, f)
        if heard is not None and heard - f < 0.5 * RATE:
            delays.append(to_s(heard) - lead - (at - launch))
            starts.append(to_s(heard) - lead)
        else:
            starts.append(None)
    delay = sorted(delays)[len(delays) // 2] if delays else 0.0
    spans = []
    for (answer, at, _, _), begin in zip(played, starts):
        begin = at - launch + delay if begin is None else begin
        spans.append((begin + answer.speech_start, begin + answer.speech_end))
    q_times = [e["t"] for e in events if e.get("event") == "question"]
    q_onsets = [to_s(f) for f in onsets_after(right, [frame_of(t - 0.1) for t in q_times]) if f is not None]
    finished = [e["t"] for e in events if e.get("event") == "finished"]
    # The closing line follows the final decision (after a take-back window, `finished` comes
    # only once the line has played); a refusal's follows `finished`.
    final = [e["t"] for e in events if e.get("event") == "decision" and e.get("choice") in ("ready", "stop")]
    asked = final[-1] if final else finished[0] if finished else None
    closing = onsets_after(right, [frame_of(asked - 0.1)])[0] if asked is not None else None
    ex.question_onsets_s = [round(x, 3) for x in q_onsets]
    ex.closing_onset_s = round(to_s(closing), 3) if closing is not None else None
    notes = [e for e in events if e.get("event") == "note"]
    ex.note_s = notes[-1]["t"] if notes else None
    if closing is not None and ex.note_s is not None and frame_of(ex.note_s) > closing:
        last = last_above(right[closing:frame_of(ex.note_s)])
        quiet = max(to_s(closing + (last or 0)), finished[-1])
        ex.note_wait_ms = max(0, round((ex.note_s - quiet) * 1000))
    ex.saved = any(e.get("event") == "saved" for e in events)
    ex.refused = any(e.get("event") == "refused" for e in events)
    ex.wavs = [a.wav for a, *_ in played if not a.synthetic]
    for (answer, _, q_onset, q_length), (a, b) in zip(played, spans):
        ex.answers.append({
            "clips": answer.clips, "reference": answer.reference, "speech_s": [round(a, 3), round(b, 3)],
            "pause_s": answer.pause_s, "synthetic": answer.synthetic,
            # the person's speech onset against the end of the question it answers (its
            # full length: in `over` the question may have been stopped); negative = before
            "lead_ms": None if q_length is None else round((a - (to_s(q_onset) + q_length)) * 1000)})
    derive(ex)
    answered = {}
    texts = []
    for e in events:
        if e.get("event") == "answer":
            texts.append(e.get("text", ""))
        elif e.get("event") == "finalAnswer" and 0 <= e.get("turn", -1) < len(texts):
            answered[e["turn"]] = e.get("text", "")
    ex.answers_text = " ".join(answered.get(i, t) for i, t in enumerate(texts))
    ex.note_text = note_text(notes[-1]["markdown"], pack) if notes else ""
    sep = "" if ex.lang == "ja" else " "
    ex.reference = sep.join(a.reference for a, *_ in played if not a.synthetic)


def derive(ex):
    """Questions over speech and waits after true ends, from the timings on the recording.

    >>> ex = Exchange("en", "plain", 0, 0, 0, 0, answers=[{"speech_s": [2, 5]}, {"speech_s": [7, 9]},
    ...               {"speech_s": [11, 12], "synthetic": True}], question_onsets_s=[0.5, 6, 8], closing_onset_s=13, note_s=15)
    >>> derive(ex); ex.over_speech, ex.waits_ms, [a.get("wait_ms") for a in ex.answers]
    (1, [1000], [1000, None, None])
    """
    spans = [tuple(a["speech_s"]) for a in ex.answers]
    sounds = ex.question_onsets_s + ([ex.closing_onset_s] if ex.closing_onset_s is not None else [])
    # questions (and the closing line) that start while the person speaks, pauses included
    ex.over_speech = sum(1 for q in sounds for a, b in spans if a < q < b)
    ex.waits_ms = []
    for row, (a, b) in zip(ex.answers, spans):
        row.pop("wait_ms", None)
        if row.get("synthetic"):
            continue
        later = [x for x, _ in spans if x > b]
        limit = min(later) if later else float("inf")
        # the next question or closing line before the person speaks again; else the note
        nxt = [q for q in sounds if b <= q < limit]
        wait = min(nxt) - b if nxt else (ex.note_s - b if ex.note_s is not None and ex.note_s >= b and not later else None)
        if wait is not None:
            row["wait_ms"] = round(wait * 1000)
            ex.waits_ms.append(row["wait_ms"])


def summarize_file(path):
    """The table again from a results file (its timings re-derived)."""
    with open(path) as f:
        result = json.load(f)
    exchanges = []
    for d in result["dialogues"]:
        if "refused" not in d:   # files written before the field: the events file beside it says
            events = read_events(os.path.join(os.path.dirname(path), f"{d['lang']}-{d['pattern']}-{d['index']}.events.jsonl"))
            d["refused"] = any(e.get("event") == "refused" for e in events)
        ex = Exchange(**{k: v for k, v in d.items() if k in Exchange.__dataclass_fields__})
        derive(ex)
        score(ex, [ex.transcribed])     # the edits again from the texts (insertions too)
        exchanges.append(ex)
    return result, summarize(exchanges)


def edit_ops(ref, hyp):
    """(substitutions, deletions, insertions) of a shortest alignment of hyp to ref.

    >>> edit_ops("a b c d".split(), "a x c c d e".split())
    (1, 0, 2)
    >>> edit_ops("a b c".split(), []), edit_ops([], ["a"])
    ((0, 3, 0), (0, 0, 1))
    """
    n, m = len(ref), len(hyp)
    cost = [[(0, 0, 0)] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        cost[i][0] = (0, i, 0)
    for j in range(1, m + 1):
        cost[0][j] = (0, 0, j)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            s_, d, ins = cost[i - 1][j - 1]
            options = [(s_ + (ref[i - 1] != hyp[j - 1]), d, ins)]
            s_, d, ins = cost[i - 1][j]
            options.append((s_, d + 1, ins))
            s_, d, ins = cost[i][j - 1]
            options.append((s_, d, ins + 1))
            cost[i][j] = min(options, key=lambda o: (sum(o), o[2]))
    return cost[n][m]


def score(ex, transcripts):
    """Edits of the note and of `transcribe` (the same recordings, one run per recording)
    against the references of the answers played (the ending phrase, which the note leaves out,
    is left out of all three)."""
    sep = "" if ex.lang == "ja" else " "
    ex.transcribed = sep.join(transcripts)
    ref = units(ex.reference, ex.lang)
    ex.reference_units = len(ref)
    ex.note_edits = edit_distance(ref, units(ex.note_text, ex.lang))
    ex.transcribe_edits = edit_distance(ref, units(ex.transcribed, ex.lang))
    ex.note_inserted = edit_ops(ref, units(ex.note_text, ex.lang))[2]
    ex.transcribe_inserted = edit_ops(ref, units(ex.transcribed, ex.lang))[2]


def transcribe(binary, wav, lang, cache):
    if wav not in cache:
        r = run([binary, "transcribe", wav, "--lang", lang], env=dict(os.environ, OMP_WAIT_POLICY="PASSIVE"), timeout=600)
        cache[wav] = r.stdout.strip() if r.returncode == 0 else ""
    return cache[wav]


# ---------------------------------------------------------------- report

@dataclass
class Row:
    lang: str
    pattern: str
    exchanges: int
    answers: int
    failed: int
    refused: int              # exchanges the program ended as a refusal (left out of every figure below)
    notes_saved: int
    note_error: float | None
    transcribe_error: float | None
    words_lost: float | None
    inserted: float | None    # the part of words_lost that is words added (repeated or invented), not missing
    questions_over_speech: int
    wait_after_end_p50_ms: int | None
    wait_after_end_max_ms: int | None
    onset_vs_question_end_ms: int | None
    note_wait_p50_ms: int | None


def summarize(exchanges):
    """One row per language and pattern.

    >>> e = Exchange("en", "plain", 0, 0, 30.0, 500.0, answers=[{}, {}], saved=True, note_edits=3,
    ...              transcribe_edits=1, reference_units=20, waits_ms=[900, 1100], note_wait_ms=400)
    >>> r = summarize([e])[0]
    >>> (r.note_error, r.transcribe_error, r.words_lost, r.wait_after_end_p50_ms, r.notes_saved, r.note_wait_p50_ms)
    (0.15, 0.05, 0.1, 1000, 1, 400)
    """
    rows = []
    keys = sorted({(e.lang, e.pattern) for e in exchanges}, key=lambda k: (k[0], PATTERNS.index(k[1]) if k[1] in PATTERNS else 9))
    for lang, pattern in keys:
        group = [e for e in exchanges if (e.lang, e.pattern) == (lang, pattern)]
        scored = [e for e in group if not e.refused]
        units_ = sum(e.reference_units for e in scored)
        note = sum(e.note_edits for e in scored) / units_ if units_ else None
        base = sum(e.transcribe_edits for e in scored) / units_ if units_ else None
        waits = [w for e in scored for w in e.waits_ms]
        leads = [a["lead_ms"] for e in scored for a in e.answers if a.get("lead_ms") is not None and not a.get("synthetic")]
        note_waits = [e.note_wait_ms for e in group if e.note_wait_ms is not None]
        rows.append(Row(lang, pattern, len(group), sum(sum(1 for a in e.answers if not a.get("synthetic")) for e in group),
                        sum(1 for e in group if e.failure or e.status != 0), sum(1 for e in group if e.refused),
                        sum(1 for e in group if e.saved),
                        None if note is None else round(note, 3), None if base is None else round(base, 3),
                        None if note is None else round(note - base, 3),
                        round(sum(e.note_inserted - e.transcribe_inserted for e in scored) / units_, 3) if units_ else None,
                        sum(e.over_speech for e in scored),
                        None if not waits else round(percentile(waits, 50)),
                        None if not waits else max(waits),
                        None if not leads else round(percentile(leads, 50)),
                        None if not note_waits else round(percentile(note_waits, 50))))
    return rows


def table(rows, title):
    head = ["lang", "pattern", "exch", "answers", "failed", "refused", "saved", "note err", "transcribe err", "words lost", "of it added",
            "Q over speech", "wait p50 ms", "wait max ms", "onset−Q end ms", "note wait p50 ms"]
    body = [[r.lang, r.pattern, str(r.exchanges), str(r.answers), str(r.failed), str(r.refused), f"{r.notes_saved}/{r.exchanges}",
             fmt(r.note_error), fmt(r.transcribe_error), fmt(r.words_lost), fmt(r.inserted), str(r.questions_over_speech),
             fmt(r.wait_after_end_p50_ms), fmt(r.wait_after_end_max_ms), fmt(r.onset_vs_question_end_ms),
             fmt(r.note_wait_p50_ms)] for r in rows]
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    lines = [title, "  ".join(h.ljust(w) for h, w in zip(head, widths))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)) for row in body]
    return "\n".join(lines)


def fmt(x):
    return "—" if x is None else (f"{x:.3f}" if isinstance(x, float) else str(x))


def main(args):
    if args.summarize:
        result, rows = summarize_file(args.summarize)
        print(table(rows, f"Real voices in talk — {result['binary']} (load average at start {result['load_at_start'][0]:.1f})"))
        if args.json:
            print(json.dumps({"rows": [asdict(r) for r in rows]}, ensure_ascii=False))
        return
    binary = os.path.abspath(args.binary)
    langs = args.languages.split(",")
    patterns = args.patterns.split(",")
    for p in patterns:
        if p not in PATTERNS:
            raise SystemExit(f"unknown pattern {p} (choose from {','.join(PATTERNS)})")
    folder = speech_folder()
    with open(os.path.join(folder, "manifest.json")) as f:
        manifest = json.load(f)
    stamp = time.strftime("%Y%m%dT%H%M%S")
    work = args.keep or os.path.join(CACHE, "bench-results", f"voices-{stamp}")
    os.makedirs(work, exist_ok=True)
    extra = ["--no-model"] if args.no_model else []
    server = AudioServer()
    exchanges, transcripts = [], {}
    load = os.getloadavg()
    try:
        for lang in langs:
            clips = choose_clips(manifest, lang)
            if not clips:
                say(f"{lang}: no clips in the real-speech set; skipped")
                continue
            ending = ending_answer(lang, work)
            durations = Durations(locale_pack(lang)["voice"])
            for pattern in patterns:
                for i in range(args.exchanges):
                    answers = build_answers(clips, folder, lang, pattern, i, args.answers, work)
                    ex = run_exchange(binary, server, lang, pattern, i, answers, ending, durations, work, extra)
                    score(ex, [transcribe(binary, wav, lang, transcripts) for wav in ex.wavs])
                    exchanges.append(ex)
                    say(f"{lang} {pattern} #{i}: status {ex.status}{', REFUSED' if ex.refused else ''}, note {ex.note_edits}/{ex.reference_units} vs "
                        f"transcribe {ex.transcribe_edits}/{ex.reference_units}, over speech {ex.over_speech}, "
                        f"waits {ex.waits_ms}" + (f", FAILED: {ex.failure}" if ex.failure else ""))
    finally:
        server.stop()
    rows = summarize(exchanges)
    print(table(rows, f"Real voices in talk — {binary} (load average at start {load[0]:.1f})"))
    result = {"binary": binary, "languages": langs, "patterns": patterns, "answers": args.answers,
              "exchanges": args.exchanges, "load_at_start": load, "rows": [asdict(r) for r in rows],
              "dialogues": [asdict(e) for e in exchanges]}
    path = os.path.join(work, "voices.json")
    with open(path, "w") as f:
        json.dump(result, f, ensure_ascii=False, indent=1)
    print(f"full results: {path}")
    if args.json:
        print(json.dumps({"rows": [asdict(r) for r in rows]}, ensure_ascii=False))
    if not args.keep:
        for name in os.listdir(work):
            p = os.path.join(work, name)
            if name.endswith(".wav"):
                os.remove(p)
            elif os.path.isdir(p):
                shutil.rmtree(p, ignore_errors=True)

