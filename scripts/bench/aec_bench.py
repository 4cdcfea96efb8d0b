#!/usr/bin/env python3
"""Echo cancellation measured offline (issue 41): how much of the program's own question a
microphone still hears after the canceller, and how much of a person talking over it survives.

    python3 scripts/bench/aec_bench.py [--work DIR] [--transcribe BINARY] [--only NAME,...]
                                       [--drift] [--real-speech [DIR]]

No audio server: espeak-ng speaks the questions (22,050 Hz, as the program plays them) and the
person (another voice); sox makes the echo path (loudspeaker distortion, a short room reverb, a
delay, a gain, at 16 kHz); the microphone is echo + person + a faint noise floor. Each setting of
each engine (scripts/bench/aec_compare.cpp, built here with g++) runs over every scenario
(questions x echo paths), and the medians are printed:

- ERLE (dB): microphone energy / output energy where only the echo is there (10 ms frames
  where it is 15 dB over the noise floor), outside the person's speech. Every scenario plays
  another question first: `cold` is on that one (after its first second), `erle` on the question
  the person talks over (the filter has learned the room, as on any question after a dialogue's
  first), `erle_after` only after the person stopped (did double talk spoil the filter?).
- speech SNR (dB), over the person's span: the engine's output for the person alone (nothing
  played) against the difference with the real output (leftover echo, speech taken down with
  the echo); `snr_in` is the person against the echo on the microphone.
- corr: correlation of the output with the person's clean speech over that span.
- cpu: CPU seconds per second of audio.

With --transcribe, `dialogue-memo transcribe` reads each output, and the words of the person and
of the question found in it are counted (the person's should be there, the question's not).
Standard library only.
"""
import argparse
import array
import glob
import json
import math
import os
import re
import statistics
import subprocess
import sys
import wave

HERE = os.path.dirname(os.path.abspath(__file__))
RATE = 16000
TTS_RATE = 22050

QUESTIONS = [
    "What problem does it solve, and who has that problem today? Tell me about the last time it happened.",
    "Who would use this first, and what would they stop doing once they have it? Give me one example.",
    "What is the smallest version you could try this week, and how would you know that it worked?",
    "What would make you give up on this idea? Think of the one thing that worries you most about it.",
]
PERSON = "Honestly, nobody writes their ideas down before they forget them"
PERSON_VOICE = "en-us+f3"
# With --real-speech: real people from scripts/fetch-speech.sh's folder instead, one per question
# (short English read clips, trimmed to their speech, at the espeak person's level).
REAL_PEOPLE = ["en-arctic-a0007", "en-arctic-a0009", "en-librivox-austen-0930", "en-mfa-librispeech-61-70968-0000"]

# Echo paths: (name, delay ms, gain dB, reverb (reverberance, HF damping, room scale) or None,
# overdrive dB, clock drift in ppm, whether the reference is resampled for that drift).
PATHS = [
    ("near-40ms-6dB", 40, -6, (20, 50, 30), 5, 0, False),
    ("mid-80ms-10dB", 80, -10, (35, 50, 50), 5, 0, False),
    ("far-120ms-15dB", 120, -15, (50, 50, 70), 5, 0, False),
    ("laptop-60ms-3dB", 60, -3, (25, 50, 40), 8, 0, False),
]
# Another clock or a long output buffer (a Bluetooth headset's speaker with a laptop microphone).
DRIFT_PATHS = [
    ("drift-100ppm", 80, -10, (35, 50, 50), 5, 100, False),
    # The same, with the drift measured and the reference resampled for it.
    ("drift-100ppm-compensated", 80, -10, (35, 50, 50), 5, 100, True),
    ("late-250ms", 250, -10, (35, 50, 50), 5, 0, False),
]

SETTINGS = [
    # name, engine, options
    ("none", "none", []),
    ("speex-160-250ms-nopp", "speex", ["frame=160", "filter_ms=250", "pp=none"]),
    ("speex-160-250ms", "speex", ["frame=160", "filter_ms=250", "pp=denoise", "noise_db=-3"]),
    ("speex-160-250ms-ns15", "speex", ["frame=160", "filter_ms=250", "pp=denoise", "noise_db=-15"]),
    ("speex-256-250ms", "speex", ["frame=256", "filter_ms=250", "pp=denoise", "noise_db=-3"]),
    ("speex-160-150ms", "speex", ["frame=160", "filter_ms=150", "pp=denoise", "noise_db=-3"]),
    ("speex-160-400ms", "speex", ["frame=160", "filter_ms=400", "pp=denoise", "noise_db=-3"]),
    ("webrtc-low", "webrtc", ["level=low", "extended=1", "agnostic=0", "delay_ms=0"]),
    ("webrtc-moderate", "webrtc", ["level=moderate", "extended=1", "agnostic=0", "delay_ms=0"]),
    ("webrtc-moderate-agnostic", "webrtc", ["level=moderate", "extended=1", "agnostic=1", "delay_ms=0"]),
    ("webrtc-moderate-std", "webrtc", ["level=moderate", "extended=0", "agnostic=0", "delay_ms=0"]),
]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def read_wav(path):
    with wave.open(path) as w:
        assert w.getsampwidth() == 2 and w.getnchannels() == 1, path
        data = array.array("h", w.readframes(w.getnframes()))
        return [s / 32768 for s in data], w.getframerate()


def write_raw(path, samples):
    data = array.array("h", (max(-32768, min(32767, round(s * 32768))) for s in samples))
    with open(path, "wb") as f:
        data.tofile(f)


def read_raw(path):
    data = array.array("h")
    with open(path, "rb") as f:
        data.frombytes(f.read())
    return [s / 32768 for s in data]


def write_wav(path, samples):
    write_wav_at(path, samples, RATE)


def energy(xs, spans):
    return sum(xs[i] * xs[i] for a, b in spans for i in range(a, b)) + 1e-12


def db(x):
    return 10 * math.log10(x)


def speak(text, voice, path):
    run(["espeak-ng", "-v", voice, "-w", path, text])


def write_wav_at(path, samples, rate):
    data = array.array("h", (max(-32768, min(32767, round(s * 32768))) for s in samples))
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(data.tobytes())


def question_wav(work, qi):
    path = os.path.join(work, f"q{qi}.wav")
    if not os.path.exists(path):
        speak(QUESTIONS[qi], "en", path)
    return path


def espeak_person(work):
    path = os.path.join(work, "person16.wav")
    if not os.path.exists(path):
        speak(PERSON, PERSON_VOICE, os.path.join(work, "person.wav"))
        run(["sox", os.path.join(work, "person.wav"), "-r", str(RATE), path])
    return {"key": "espeak", "samples": read_wav(path)[0], "text": PERSON}


def real_people(folder, level):
    """The REAL_PEOPLE clips, trimmed to their speech (0.1 s either side), RMS scaled to `level`."""
    with open(os.path.join(folder, "manifest.json")) as f:
        clips = {c["id"]: c for c in json.load(f)["clips"]}
    people = []
    for key in REAL_PEOPLE:
        clip = clips[key]
        samples, rate = read_wav(os.path.join(folder, clip["file"]))
        assert rate == RATE
        a = max(0, int((clip["speech"]["start"] - 0.1) * RATE))
        b = min(len(samples), int((clip["speech"]["end"] + 0.1) * RATE))
        samples = samples[a:b]
        rms = math.sqrt(sum(x * x for x in samples) / len(samples))
        people.append({"key": key, "samples": [x * level / rms for x in samples], "text": clip["reference"]})
    return people


def make_scenario(work, qi, path, person):
    """One scenario: the program plays the question before (the canceller learns the room on it,
    as it does on a dialogue's first question), a 0.7 s pause, then question `qi`, which the person
    talks over. Returns the reference (22,050 Hz, as played), the microphone (16 kHz), the
    person's clean speech where the microphone has it, and the spans to score."""
    name, delay, gain, reverb, overdrive, ppm, _ = path
    warm, far_rate = read_wav(question_wav(work, (qi + 1) % len(QUESTIONS)))
    far, _ = read_wav(question_wav(work, qi))
    lead, pause = 0.5, 0.7
    played = [0.0] * int(lead * far_rate) + warm + [0.0] * int(pause * far_rate)
    question_start = len(played) / far_rate
    played += far
    base = os.path.join(work, f"s-{qi}-{name}-{person['key']}")
    write_wav_at(base + ".played.wav", played, far_rate)
    echo = base + ".echo.wav"
    chain = ["sox", base + ".played.wav", "-r", str(RATE), echo]
    if ppm:
        chain += ["speed", f"{1 + ppm / 1e6:.6f}"]
    if overdrive:
        chain += ["overdrive", str(overdrive)]
    # The gain before the room, so that the reverb does not clip.
    chain += ["gain", str(gain)]
    if reverb:
        chain += ["reverb", *map(str, reverb)]
    chain += ["pad", f"{delay / 1000:.3f}"]
    run(chain)
    echo_s, rate = read_wav(echo)
    assert rate == RATE
    person_s = person["samples"]
    # The person starts 25 % into the question and speaks over its middle.
    start = int((question_start + 0.25 * len(far) / far_rate) * RATE)
    total = max(len(echo_s), start + len(person_s)) + RATE // 2
    near = [0.0] * total
    near[start:start + len(person_s)] = person_s
    seed = 12345 + qi
    mic, alone = [], []
    for i in range(total):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        noise = (seed / 0x7FFFFFFF - 0.5) * 2 * 10 ** (-66 / 20)  # a -70 dBFS (RMS) noise floor
        mic.append((echo_s[i] if i < len(echo_s) else 0) + near[i] + noise)
        alone.append(near[i] + noise)
    write_raw(base + ".far.raw", played)
    write_raw(base + ".mic.raw", mic)
    # The person alone, nothing played: what the engine does to a voice by itself (speexdsp's
    # DC notch shifts the phase of a low voice), the reference for the speech SNR.
    write_raw(base + ".alone.raw", alone)
    write_raw(base + ".silent.raw", [0.0] * len(played))
    write_wav(base + ".mic.wav", mic)
    # Spans, in 16 kHz samples.
    q = int(question_start * RATE)
    person_span = (start, start + len(person_s))
    echo_end = min(len(echo_s), total)
    # ERLE counts only 10 ms frames where the echo is 15 dB above the noise floor: in a pause
    # or a reverb tail the ratio would measure the noise suppressor, not the canceller.
    def audible(a, b):
        return [(i, i + 160) for i in range(a, b - 159, 160)
                if sum(x * x for x in echo_s[i:i + 160]) / 160 > 10 ** (-55 / 10)]
    spans = {
        "cold": audible(int((lead + 1.0) * RATE), q),  # the first question, after its first second
        "erle": audible(q, person_span[0]) + audible(person_span[1], echo_end),
        "after": audible(person_span[1], echo_end),
    }
    return base, near, mic, spans, person_span, q


def output_lag(out, mic, span):
    """The canceller's own delay, in samples (speex's preprocessor holds one frame, webrtc's
    canceller works in 64-sample blocks): the lag that best matches the output to the microphone
    over the person's speech, which the canceller keeps."""
    a = (span[0] + span[1]) // 2 - 2000
    return max(range(0, 513), key=lambda lag: sum(mic[i] * out[i + lag] for i in range(a, a + 4000)))


def score(out, alone, mic, near, spans, person_span):
    """`alone`: the engine's output for the person alone, nothing played."""
    lag = output_lag(out, mic, person_span)
    out = out[lag:] + [0.0] * lag
    alone = alone[lag:] + [0.0] * lag
    a, b = person_span
    err = sum((out[i] - alone[i]) ** 2 for i in range(a, b)) + 1e-12
    err_in = sum((mic[i] - near[i]) ** 2 for i in range(a, b)) + 1e-12
    clean = energy(near, [person_span])
    dot = sum(out[i] * near[i] for i in range(a, b))
    return {
        "erle_cold": db(energy(mic, spans["cold"]) / energy(out, spans["cold"])),
        "erle": db(energy(mic, spans["erle"]) / energy(out, spans["erle"])),
        "erle_after": db(energy(mic, spans["after"]) / energy(out, spans["after"])),
        "snr": db(energy(alone, [person_span]) / err),
        "snr_in": db(clean / err_in),
        "corr": dot / math.sqrt(clean * energy(out, [person_span])),
        "lag": lag,
    }


def words(text):
    return re.findall(r"[a-z']+", text.lower())


def transcribe(binary, wav):
    result = run([binary, "transcribe", "--lang", "en", "--fast", wav])
    return result.stdout.strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", default="/tmp/aec-bench")
    parser.add_argument("--transcribe", metavar="BINARY", help="dialogue-memo binary for transcription")
    parser.add_argument("--only", help="comma-separated setting names")
    parser.add_argument("--transcribe-settings", default="none,speex-160-400ms,speex-160-250ms,webrtc-low,webrtc-moderate",
                        help="the settings whose outputs are transcribed (4 s each)")
    parser.add_argument("--drift", action="store_true", help="also the other-clock and long-latency paths")
    parser.add_argument("--real-speech", nargs="?", const="", metavar="DIR",
                        help="real people over the questions (scripts/fetch-speech.sh's folder; default: the newest)")
    parser.add_argument("--json", help="write every row here")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    tool = os.path.join(args.work, "aec_compare")
    source = os.path.join(HERE, "aec_compare.cpp")
    # webrtc-audio-processing is only for the comparison: without its -dev package, speexdsp alone.
    webrtc = subprocess.run(["pkg-config", "--exists", "webrtc-audio-processing"]).returncode == 0
    if not os.path.exists(tool) or os.path.getmtime(tool) < os.path.getmtime(source):
        flags = run(["pkg-config", "--cflags", "--libs", "speexdsp", *(["webrtc-audio-processing"] if webrtc else [])]).stdout.split()
        run(["g++", "-O2", "-o", tool, source, *flags, *(["-DHAVE_WEBRTC"] if webrtc else [])])
    if not webrtc:
        print("webrtc-audio-processing is not installed (apt-get install libwebrtc-audio-processing-dev): speexdsp only", file=sys.stderr)
    settings = [s for s in SETTINGS if (not args.only or s[0] in args.only.split(",")) and (webrtc or s[1] != "webrtc")]
    paths = PATHS + (DRIFT_PATHS if args.drift else [])
    espeak = espeak_person(args.work)
    if args.real_speech is None:
        people = [espeak] * len(QUESTIONS)
    else:
        folder = args.real_speech or max(glob.glob(os.path.expanduser(
            os.environ.get("DIALOGUE_MEMO_CACHE", "~/.cache/dialogue-memo") + "/speech-*")), key=os.path.getmtime)
        level = math.sqrt(sum(x * x for x in espeak["samples"]) / len(espeak["samples"]))
        people = real_people(folder, level)
    scenarios = [(qi, p) for qi in range(len(QUESTIONS)) for p in paths]
    built = [(qi, p, make_scenario(args.work, qi, p, people[qi])) for qi, p in scenarios]
    rows = []
    for sname, engine, options in settings:
        per = []
        for qi, p, (base, near, mic, spans, span, q) in built:
            out_raw = f"{base}.{sname}.out.raw"
            far_rate = TTS_RATE * (1 + p[5] / 1e6) if p[6] else TTS_RATE
            cpu = float(run([tool, engine, base + ".far.raw", f"{far_rate:.3f}", base + ".mic.raw", out_raw, *options]).stdout)
            out = read_raw(out_raw)
            run([tool, engine, base + ".silent.raw", str(TTS_RATE), base + ".alone.raw", out_raw, *options])
            alone = read_raw(out_raw)
            row = {"setting": sname, "question": qi, "path": p[0], "cpu": cpu, **score(out, alone, mic, near, spans, span)}
            if args.transcribe and sname in args.transcribe_settings.split(","):
                # The answer: from the start of the question the person talks over.
                wav = f"{base}.{sname}.out.wav"
                write_wav(wav, out[q:])
                heard = words(transcribe(args.transcribe, wav))
                said = words(people[qi]["text"])
                person_words, question_words = set(said), set(words(QUESTIONS[qi])) - set(said)
                row["person_words"] = sum(w in heard for w in said) / len(said)
                row["question_words"] = len([w for w in heard if w in question_words and w not in person_words])
                row["heard"] = " ".join(heard)
            per.append(row)
            rows.append(row)
        by_path = {}
        for r in per:
            by_path.setdefault(r["path"], []).append(r)
        for path_name, rs in [("all", per)] + sorted(by_path.items()):
            med = lambda k: statistics.median(r[k] for r in rs)
            line = (f"{sname:28s} {path_name:24s} cold {med('erle_cold'):5.1f}  erle {med('erle'):5.1f}  erle_after {med('erle_after'):6.1f}  "
                    f"snr {med('snr'):6.1f} (in {med('snr_in'):5.1f})  corr {med('corr'):.3f}  cpu {med('cpu'):.4f}  lag {med('lag'):.0f}")
            if args.transcribe and sname in args.transcribe_settings.split(","):
                line += f"  person_words {med('person_words'):.2f}  question_words {med('question_words'):.0f}"
            print(line, flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
