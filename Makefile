# Dialogue Memo — the two commands a person needs are `make demo` and `make test`.
# Everything native (engines, models) lives in ~/.cache/dialogue-memo, built by `make deps`.

SHELL := /bin/bash
PREFIX ?= /usr/local
SWIFT ?= swift
# Two ggml engines spinning on 2 cores collapse; OpenMP must be passive from process start.
export OMP_WAIT_POLICY := PASSIVE

.PHONY: all deps build release test demo install uninstall portable deb bench bench-tools bench-voices eval-own eval-public clean help

all: build

help:
	@echo "make demo     set everything up, then run a spoken demo on a private headless audio server"
	@echo "make test     set everything up, then run all tests under a private headless audio server"
	@echo "make deps     install Debian packages, build the engines, fetch and convert the models"
	@echo "make build    debug build;  make release: optimized build in .build/release"
	@echo "make install  install dialogue-memo with its engines, models, man page and completions into \$$PREFIX (default /usr/local)"
	@echo "              (make release && sudo make install; PORTABLE=1 after make portable: engines for any x86-64 CPU)"
	@echo "make uninstall    remove exactly what make install put in \$$PREFIX"
	@echo "make deb      a Debian package in .build/ (engines for any x86-64 CPU): sudo apt install ./.build/dialogue-memo_*.deb"
	@echo "make bench    turn-latency benchmark: tables and one JSON summary line (BENCH_ARGS=--quick)"
	@echo "make bench-voices  real recorded voices in talk: words lost, questions over speech, waits (VOICES_ARGS=…)"
	@echo "make eval-own     decision quality on our labelled sets in Tests/Fixtures (EVAL_ARGS=--no-model)"
	@echo "make eval-public  the same on the public sets in ../shared/eval, when that folder exists"

deps:
	@scripts/bootstrap.sh

build: deps
	@$(SWIFT) build

# The Swift runtime linked in: an installed binary needs no toolchain, and starts in 17 ms
# instead of 28 (fewer shared libraries to load and relocate).
release: deps
	@$(SWIFT) build -c release --static-swift-stdlib

# Suites that use no engine, no audio server and no built binary run in parallel; the others
# one at a time on a private PulseAudio (two ggml engines at once collapse on 2 cores), except
# the real-time dialogue suites, whose cases each start their own private server and overlap
# two at a time (they mostly wait on audio; `Lanes` in Tests/EndToEndTests).
PURE_TESTS := ^(DialogueCoreTests|DialogueTests|NotesTests|OptionsTests|VoiceSessionTests)\.
OVERLAPPING_TESTS := ^EndToEndTests\.(DemoDialogueTests|HeardAnswerTests|RefusedDemoTests|GoingOnDemoTests)/

test: deps
	@scripts/timed.sh "swift build (tests)" $(SWIFT) build --build-tests
	@scripts/timed.sh "swift test (engines and audio, one at a time)" scripts/test-audio.sh run $(SWIFT) test --skip-build --no-parallel --skip '$(PURE_TESTS)' --skip '$(OVERLAPPING_TESTS)'
	@scripts/timed.sh "swift test (spoken dialogues, two at a time)" $(SWIFT) test --skip-build --filter '$(OVERLAPPING_TESTS)'
	@scripts/timed.sh "swift test (no engines, in parallel)" $(SWIFT) test --skip-build --filter '$(PURE_TESTS)'

# The demo starts its own private PulseAudio. Where bootstrap left that daemon out (a PipeWire
# desktop: installing it would replace the desktop's sound server), it runs on a private
# headless PipeWire from scripts/test-audio.sh instead.
demo: release
	@if command -v pulseaudio >/dev/null || ! command -v pipewire-pulse >/dev/null; then \
		.build/release/dialogue-memo demo; \
	else \
		scripts/test-audio.sh run sh -c 'exec .build/release/dialogue-memo demo --audio-server "$$PULSE_SERVER"'; \
	fi

# Self-contained (scripts/install.sh): the engines in $(PREFIX)/lib/dialogue-memo, found through
# the binary's relative rpath; the models in $(PREFIX)/share/dialogue-memo/models; the man page
# and completions written by the binary from its own options. `make uninstall` removes exactly
# what it installed (the list is in share/dialogue-memo/installed-files).
# An existing release build is installed as it is, so `make release && sudo make install` builds
# as you and only copies as root; the engines and models are the ones that build was linked with.
# PORTABLE=1 installs the engines built for any x86-64 CPU, as the package has them (`make portable`
# builds them once, beside this machine's).
install: $(if $(wildcard .build/release/dialogue-memo),,release)
	@DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" PORTABLE="$(PORTABLE)" scripts/install.sh install

uninstall:
	@DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" scripts/install.sh uninstall

portable: deps
	@scripts/bootstrap.sh --portable

# A Debian package (.build/dialogue-memo_VERSION_ARCH.deb) of the same tree under /usr, with
# the portable engines: the first run builds them (15 to 30 minutes on 2 cores).
deb: release portable
	@scripts/make-deb.sh

# Turn-latency benchmark (issue 7): release build, then scripts/bench/bench.py on a private headless
# PulseAudio. Bench-only tools (faster-whisper venv, llama-completion) are cached in
# ~/.cache/dialogue-memo/bench-<key>/; results go to ~/.cache/dialogue-memo/bench-results/.
# BENCH_ARGS="--quick" (or --languages en,ja --runs N) for a shorter run. `make bench-tools` is
# the one-time step that also builds llama-completion for the cold-decision comparison
# (~5–8 min on 2 cores); until it has run, make bench reports that comparison as null.
bench: release
	@python3 scripts/bench/bench.py --binary .build/release/dialogue-memo $(BENCH_ARGS)

bench-tools: deps
	@python3 scripts/bench/bench.py --tools-only

# Real recorded voices in `talk` (issue 41; scripts/bench/README.md): en and es, four timing
# patterns, 2 exchanges of 3 answers each, about 15 minutes on 2 cores; kept out of `make bench`
# for that time. VOICES_ARGS="--languages en,es,fr,ja --exchanges 4" and so on.
bench-voices: release
	@python3 scripts/bench/dialogue_voices.py --binary .build/release/dialogue-memo $(VOICES_ARGS)

# Decision quality (choices and grouping) through the real decision path. Our own labelled sets
# live in Tests/Fixtures; the public ones, when a workspace has them beside the repository, are an
# extra measure that no test depends on. EVAL_ARGS are passed on (e.g. --no-model, --json).
eval-own: release
	@.build/release/dialogue-memo eval choices Tests/Fixtures/choice-scenarios.json $(EVAL_ARGS)
	@.build/release/dialogue-memo eval grouping Tests/Fixtures/grouping-scenarios.json $(EVAL_ARGS)

eval-public: release
	@if [ -d ../shared/eval ]; then \
		.build/release/dialogue-memo eval choices ../shared/eval/choice-scenarios.json $(EVAL_ARGS) && \
		.build/release/dialogue-memo eval grouping ../shared/eval/grouping-scenarios.json $(EVAL_ARGS); \
	else \
		echo "../shared/eval is absent: no public scenario sets to measure (make eval-own runs ours)"; \
	fi

clean:
	rm -rf .build
