# Dialogue Memo — the two commands a person needs are `make demo` and `make test`.
# Everything native (engines, models) lives in ~/.cache/dialogue-memo, built by `make deps`.

SHELL := /bin/bash
PREFIX ?= /usr/local
SWIFT ?= swift
# Two ggml engines spinning on 2 cores collapse; OpenMP must be passive from process start.
export OMP_WAIT_POLICY := PASSIVE

.PHONY: all deps build release test demo install bench clean help

all: build

help:
	@echo "make demo     set everything up, then run a spoken demo on a private headless audio server"
	@echo "make test     set everything up, then run all tests under a private headless audio server"
	@echo "make deps     install Debian packages, build the engines, fetch and convert the models"
	@echo "make build    debug build;  make release: optimized build in .build/release"
	@echo "make install  install dialogue-memo into \$$PREFIX (default /usr/local)"

deps:
	@scripts/bootstrap.sh

build: deps
	@$(SWIFT) build

release: deps
	@$(SWIFT) build -c release

test: deps
	@scripts/timed.sh "swift build (tests)" $(SWIFT) build --build-tests
	@scripts/timed.sh "swift test" scripts/test-audio.sh run $(SWIFT) test --skip-build --no-parallel

demo: release
	@.build/release/dialogue-memo demo

install: release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/dialogue-memo/Locales
	install -m 0755 .build/release/dialogue-memo $(DESTDIR)$(PREFIX)/bin/dialogue-memo
	install -m 0644 Locales/*.json $(DESTDIR)$(PREFIX)/share/dialogue-memo/Locales/

clean:
	rm -rf .build
