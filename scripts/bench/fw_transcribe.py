"""Runs inside the benchmark's own venv: faster-whisper (CTranslate2 int8) on the CT2 base
weights that bootstrap converts from. Prints one JSON object:
  {"import_s", "load_s", "files": [{"wav", "lang", "beam", "text", "seconds"}]}
`seconds` is the transcription alone (model loaded, segments fully consumed).

Usage: python fw_transcribe.py MODEL_DIR THREADS BEAMS WAV:LANG [WAV:LANG ...]
       (BEAMS: comma-separated beam sizes, e.g. 5,1)
"""
import json
import sys
import time

t0 = time.monotonic()
from faster_whisper import WhisperModel  # noqa: E402

t1 = time.monotonic()
model_dir, threads, beams = sys.argv[1], int(sys.argv[2]), [int(b) for b in sys.argv[3].split(",")]
model = WhisperModel(model_dir, device="cpu", compute_type="int8", cpu_threads=threads, num_workers=1)
t2 = time.monotonic()
files = []
for spec in sys.argv[4:]:
    wav, lang = spec.rsplit(":", 1)
    for beam in beams:
        start = time.monotonic()
        segments, _ = model.transcribe(wav, language=lang, beam_size=beam, vad_filter=False,
                                       condition_on_previous_text=False)
        text = "".join(s.text for s in segments).strip()
        files.append({"wav": wav, "lang": lang, "beam": beam, "text": text,
                      "seconds": time.monotonic() - start})
print(json.dumps({"import_s": t1 - t0, "load_s": t2 - t1, "files": files}, ensure_ascii=False))
