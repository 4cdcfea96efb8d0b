#!/usr/bin/env python3
"""Writes Tests/Fixtures/turn-taking.json, the turn-taking set of `dialogue-memo eval turns`, from
the real-speech clips (Tests/Fixtures/speech-manifest.json, built by scripts/fetch-speech.sh).

  turn_taking_set.py SPEECH_FOLDER > Tests/Fixtures/turn-taking.json

Each answer is a stretch of one clip. Its pauses are the silences of 200 ms or more measured inside
it (speech_fixtures.pauses): 'keep-listening', each also at longer lengths (a person who thinks a
little longer at the same place), and the silence after it: 'end-of-turn'. Joins put an answer
after another of the same voice, so the first one's end becomes a pause between sentences. Only
what precedes a pause is ever transcribed for the decision at that pause, so a lengthened pause or
a join needs no audio of its own: the eval decides it from the same prefix.
"""
import json, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from speech_fixtures import pauses  # noqa: E402

LENGTHENED = [0.6, 1.0, 1.5]   # seconds: a mid-answer pause held longer (issue 14: real ones reach 1.0–1.6 s)
JOIN_PAUSES = [0.5, 1.0]       # seconds between two sentences of one voice
CONVERSATION = "en-conv-pyannote-sample"
MIN_TURN_S = 1.5               # shorter conversation turns ("Hello?") are backchannels, not answers


def voice(clip):
    """Clips of one speaker (to join): the package and, for Asterisk, the language; the clip's 'voice' where a
    package holds several (the MFA test data, Tux Paint)."""
    return clip.get("voice", clip["source"])


def conversation_turns(clip, folder):
    """Each speaker's run of consecutive .stm segments as one answer, its pauses measured on the cut."""
    runs = []
    for turn in clip["turns"]:
        if runs and runs[-1]["speaker"] == turn["speaker"]:
            runs[-1].update(end=turn["end"], text=runs[-1]["text"] + " " + turn["text"])
        else:
            runs.append(dict(turn))
    answers = []
    with tempfile.TemporaryDirectory() as tmp:
        for n, run in enumerate(runs):
            if run["end"] - run["start"] < MIN_TURN_S:
                continue
            cut = os.path.join(tmp, f"t{n}.wav")
            subprocess.run(["sox", "-D", os.path.join(folder, clip["id"] + ".wav"), cut, "trim",
                            str(run["start"]), "=" + str(run["end"])], check=True, capture_output=True)
            inside = pauses(cut)["internal"]
            answers.append({"id": f"{clip['id']}-{run['speaker'].lower()}-{run['start']:.2f}",
                            "clip": clip["id"], "from": run["start"], "to": run["end"],
                            "text": run["text"], "pauses": [
                                {"at": round(run["start"] + p["start"], 2), "seconds": round(p["end"] - p["start"], 2)}
                                for p in inside]})
    return answers


def build(folder):
    manifest = json.load(open(os.path.join(folder, "manifest.json")))
    answers, joins = [], []
    by_voice = {}
    for clip in manifest["clips"]:
        if clip["language"] == "none" or clip["kind"] == "noisy":
            continue
        common = {"language": clip["language"], "split": clip["split"], "licence": clip["licence"]["spdx"]}
        if clip["id"] == CONVERSATION:
            for answer in conversation_turns(clip, folder):
                answers.append({"id": answer.pop("id"), **common, "kind": "conversation-turn", **answer})
            continue
        inside = [{"at": s["start"], "seconds": round(s["end"] - s["start"], 2)}
                  for s in clip["silences"] if s["label"] == "keep-listening"]
        answer = {"id": clip["id"], **common, "kind": clip["kind"], "clip": clip["id"],
                  "from": 0.0, "to": clip["speech"]["end"], "text": clip["reference"], "pauses": inside}
        answers.append(answer)
        by_voice.setdefault((voice(clip), clip["language"], clip["split"]), []).append(answer)
    for group in by_voice.values():
        for first, then in zip(group, group[1:]):
            joins.append({"first": first["id"], "then": then["id"], "pauses": JOIN_PAUSES})
    return {
        "about": __doc__.split("\n\n")[0].strip() + " Metadata only: the audio is the clips' (scripts/fetch-speech.sh).",
        "labels": "Per answer: 'pauses' are keep-listening silences inside it (at: where the silence starts, seconds: "
                  "its measured length, in the clip's time); the end of turn is at 'to' (the last speech frame, or the "
                  "package's turn end in the conversation). 'lengthened': every keep-listening pause is also scored at "
                  "these lengths. 'joins': the first answer's end is a keep-listening pause of each length before the "
                  "next answer of the same voice (between sentences). A clip's licence is in the speech manifest; "
                  "'licence' repeats its SPDX id.",
        "speechManifest": "Tests/Fixtures/speech-manifest.json",
        "lengthened": LENGTHENED,
        "answers": answers,
        "joins": joins,
    }


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    json.dump(build(sys.argv[1]), sys.stdout, ensure_ascii=False, indent=1)
    print()
