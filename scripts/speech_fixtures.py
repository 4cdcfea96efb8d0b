#!/usr/bin/env python3
"""Real-speech fixtures: build the clips of Tests/Fixtures/speech-manifest.json, or measure pauses.

  speech_fixtures.py build MANIFEST DOWNLOADS OUT   extract each clip from its verified archive,
                                                    convert it to 16 kHz mono WAV, write OUT/manifest.json
  speech_fixtures.py pauses WAV...                  print the silences of each file (JSON)

Standard library only (plus sox, dpkg-deb and, for Opus, opusdec on PATH), so the bench and the
tests need no venv. The pause analysis lives here so the labels in the manifest can be re-measured
by anyone.
"""
import functools, io, json, math, os, subprocess, sys, tarfile, tempfile, wave, zipfile

FRAME_S = 0.010          # 10 ms frames
MIN_PAUSE_S = 0.200      # the pauses the turn-taking labels care about
MIN_BLIP_S = 0.040       # a louder stretch shorter than this (a click) does not end a pause


def frame_db(path):
    with wave.open(path, "rb") as w:
        assert w.getnchannels() == 1 and w.getsampwidth() == 2, path
        rate, n = w.getframerate(), w.getnframes()
        data = w.readframes(n)
    hop = int(rate * FRAME_S)
    count = len(data) // 2
    samples = memoryview(data).cast("h")
    out = []
    for i in range(0, count - hop + 1, hop):
        chunk = samples[i:i + hop]
        energy = sum(x * x for x in chunk) / hop
        out.append(10 * math.log10(energy / (32768.0 ** 2)) if energy > 0 else -120.0)
    return out, count / rate


def pauses(path):
    """Silences from frame energy. Threshold: 10 dB over the quietest frames, but never more than
    38 dB under the loud ones, so a noisy line and a studio prompt both work."""
    db, duration = frame_db(path)
    ranked = sorted(db)
    floor = max(ranked[int(0.05 * len(ranked))], -90.0)
    loud = ranked[int(0.99 * (len(ranked) - 1))]
    threshold = max(floor + 10.0, loud - 38.0)
    speech = [d > threshold for d in db]
    # Clicks shorter than MIN_BLIP_S inside silence are not speech.
    blip = int(round(MIN_BLIP_S / FRAME_S))
    i = 0
    while i < len(speech):
        if speech[i]:
            j = i
            while j < len(speech) and speech[j]:
                j += 1
            if j - i < blip:
                for k in range(i, j):
                    speech[k] = False
            i = j
        else:
            i += 1
    voiced = [i for i, s in enumerate(speech) if s]
    if not voiced:
        return {"threshold_db": round(threshold, 1), "speech": None, "internal": [],
                "final": None, "duration": round(duration, 3)}
    first, last = voiced[0], voiced[-1]
    internal, i = [], first
    while i <= last:
        if not speech[i]:
            j = i
            while not speech[j]:
                j += 1
            if (j - i) * FRAME_S >= MIN_PAUSE_S - 1e-9:
                internal.append({"start": round(i * FRAME_S, 2), "end": round(j * FRAME_S, 2)})
            i = j
        else:
            i += 1
    speech_end = (last + 1) * FRAME_S
    return {"threshold_db": round(threshold, 1),
            "speech": {"start": round(first * FRAME_S, 2), "end": round(speech_end, 2)},
            "internal": internal,
            "final": {"start": round(speech_end, 2), "end": round(duration, 2)},
            "duration": round(duration, 3)}


@functools.lru_cache(maxsize=2)
def deb_files(archive):
    """A .deb's file tree as tar bytes (read once per package, not once per clip)."""
    return subprocess.run(["dpkg-deb", "--fsys-tarfile", archive], check=True,
                          capture_output=True).stdout


def read_member(archive, member):
    """The bytes of one file inside a wheel/zip, a tar.gz sdist or a .deb."""
    if archive.endswith((".whl", ".zip")):
        with zipfile.ZipFile(archive) as z:
            return z.read(member)
    if archive.endswith(".deb"):
        with tarfile.open(fileobj=io.BytesIO(deb_files(archive))) as t:
            return t.extractfile("./" + member.lstrip("./")).read()
    with tarfile.open(archive) as t:
        return t.extractfile(member).read()


def to_16k(src, dst, fmt=None, trim=None):
    if src.endswith(".opus"):   # sox reads no Opus: opusdec decodes it at 16 kHz (Opus's own rate), no dither
        decoded = src[:-len(".opus")] + "-opus.wav"
        subprocess.run(["opusdec", "--quiet", "--no-dither", "--rate", "16000", src, decoded], check=True, capture_output=True)
        src = decoded
    # -D: no dither, so every build of a clip has the same samples (and the same pauses).
    cmd = ["sox", "-D"] + (["-t", "gsm", "-r", "8000", "-c", "1"] if fmt == "gsm" else []) + [src,
           "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", dst]
    if trim:
        cmd += ["trim", str(trim[0]), "=" + str(trim[1])]
    subprocess.run(cmd, check=True, capture_output=True)


def read_samples(path):
    with wave.open(path, "rb") as w:
        assert w.getnchannels() == 1 and w.getsampwidth() == 2 and w.getframerate() == 16000, path
        return list(memoryview(w.readframes(w.getnframes())).cast("h"))


def mix(speech_path, noise_path, snr_db, dst):
    """Noise under speech: the noise clip looped to the speech clip's length and scaled so that the
    whole clips' RMS differ by snr_db. Plain integer arithmetic: every build has the same samples."""
    speech, noise = read_samples(speech_path), read_samples(noise_path)
    def rms(xs):
        return math.sqrt(sum(x * x for x in xs) / len(xs))
    looped = [noise[i % len(noise)] for i in range(len(speech))]
    gain = rms(speech) / (rms(looped) * 10 ** (snr_db / 20))
    mixed = [max(-32768, min(32767, round(s + gain * n))) for s, n in zip(speech, looped)]
    with wave.open(dst, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(b"".join(x.to_bytes(2, "little", signed=True) for x in mixed))


def build_clip(clip, archive, tmp, dst):
    b = clip.get("build", {})
    if "mix" in b:          # two clips built before this one, in the same folder
        folder = os.path.dirname(dst)
        m = b["mix"]
        mix(os.path.join(folder, m["speech"] + ".wav"), os.path.join(folder, m["noise"] + ".wav"), m["snrDb"], dst)
        return
    if "sequence" in b:     # keys pressed one after another, with the gaps given (seconds)
        parts = []
        for n, (member, gap) in enumerate(b["sequence"]):
            raw = os.path.join(tmp, f"k{n}" + os.path.splitext(member)[1])
            with open(raw, "wb") as f:
                f.write(read_member(archive, member))
            part = os.path.join(tmp, f"k{n}.wav")
            to_16k(raw, part)
            padded = os.path.join(tmp, f"p{n}.wav")
            subprocess.run(["sox", "-D", part, padded, "pad", "0", str(gap)], check=True, capture_output=True)
            parts.append(padded)
        subprocess.run(["sox", "-D"] + parts + [dst], check=True, capture_output=True)
        return
    raw = os.path.join(tmp, "src" + os.path.splitext(clip["path"])[1])
    with open(raw, "wb") as f:
        f.write(read_member(archive, clip["path"]))
    to_16k(raw, dst, fmt=clip.get("format"), trim=b.get("trim"))


def build(manifest_path, downloads, out):
    manifest = json.load(open(manifest_path))
    files = {s["key"]: os.path.join(downloads, s["file"]) for s in manifest["sources"]}
    os.makedirs(out, exist_ok=True)
    clips = []
    with tempfile.TemporaryDirectory() as tmp:
        for clip in manifest["clips"]:
            dst = os.path.join(out, clip["id"] + ".wav")
            build_clip(clip, files[clip["source"]], tmp, dst)
            got = pauses(dst)["duration"]
            if abs(got - clip["durationSeconds"]) > 0.02:
                raise SystemExit(f"{clip['id']}: {got} s, manifest says {clip['durationSeconds']} s")
            clips.append(dict(clip, file=dst))
    tmp_manifest = os.path.join(out, "manifest.json.tmp")
    with open(tmp_manifest, "w") as f:
        json.dump(dict(manifest, clips=clips), f, ensure_ascii=False, indent=1)
    os.replace(tmp_manifest, os.path.join(out, "manifest.json"))


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "build":
        build(*sys.argv[2:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "pauses":
        for p in sys.argv[2:]:
            print(json.dumps({"file": os.path.basename(p), **pauses(p)}))
    else:
        sys.exit(__doc__)
