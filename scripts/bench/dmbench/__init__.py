"""The Dialogue Memo benchmark as a package; `scripts/bench/bench.py` is its entry point.

Modules: common (paths, processes, percentiles), tools (the bench-only venv, CT2 weights and
llama-completion), audio (private server, recorder, alignment, wav I/O), dialogues (demo
dialogues and their turn latency, long answers), scoring (error rates), transcription (ours vs
whisper-cli vs faster-whisper), decisions (warm vs cold), report (summary, tables, JSON line),
cli (options and the order of the parts). Python standard library only.
"""
