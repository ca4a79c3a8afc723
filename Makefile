# Cardio: `make run` sets up and starts everything; `make test` runs every test.
SHELL := /bin/bash
.DEFAULT_GOAL := help

export CARGO_TARGET_DIR ?= $(CURDIR)/target
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1
CARDIO_DEBUG_BIN := $(CARGO_TARGET_DIR)/debug/cardio
CARDIO_RELEASE_BIN := $(CARGO_TARGET_DIR)/release/cardio
# API tests also run on PostgreSQL when one answers here (each test makes and drops its own database).
TEST_POSTGRES_URL ?= $(shell pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null && echo postgres://postgres@127.0.0.1:5432/postgres)
export TEST_POSTGRES_URL
# The S3-compatible server of the two-instance test (moto's server mode, from PyPI, in a venv
# outside the repo; `make s3-server` installs it).
S3_VENV ?= $(HOME)/.cache/cardio/s3-venv
export TEST_S3_SERVER ?= $(S3_VENV)/bin/moto_server
# The peer readers `cardio convert`'s test reads its output back with (wfdb-python, pyEDFlib, from
# PyPI, in a venv outside the repo; `make peer-readers` installs them).
PEER_VENV ?= $(HOME)/.cache/cardio/peer-readers-venv
export TEST_PEER_PYTHON ?= $(PEER_VENV)/bin/python
# NeuroKit2, the reference row of `cardio eval delineation` (from PyPI, in a venv outside the repo;
# `make neurokit-venv` installs it; the command finds it at $$CARDIO_NEUROKIT_PYTHON, else here).
NEUROKIT_VENV ?= $(HOME)/.cache/cardio/neurokit-venv
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: help run build build-web deps-web chromium s3-server peer-readers neurokit-venv test check-layering test-rust test-web lint fmt fmt-check clippy gen-client check-client e2e bench bench-api bench-throughput bench-holter golden train-ppg train-pcg train-murmur clean

help:
	@echo "make run          build the web app and the server (release) and serve http://127.0.0.1:8080"
	@echo "make test         every test: fmt, clippy, cargo tests (SQLite + PostgreSQL), web lint/types/unit, stale client, e2e"
	@echo "make e2e          Playwright end-to-end tests against a real server (Debian chromium)"
	@echo "make gen-client   regenerate web/src/api/generated/ from the server's OpenAPI document"
	@echo "make bench        criterion benchmarks of the signal crate"
	@echo "make bench-api    API p50/p99 latency of a 30-s ECG upload at 50 concurrent (release)"
	@echo "make bench-throughput  server CPU per upload vs the model's, p50/p99 at 10/20/50 (SQLite, PostgreSQL)"
	@echo "make bench-holter  a 24-h 2-lead ECG on one core: seconds, peak MB, NeuroKit2's ecg_process beside it"
	@echo "make neurokit-venv  NeuroKit2 for the reference row of cardio eval delineation (venv outside the repo)"
	@echo "make golden       recompute the signal crate's golden vectors with SciPy/NeuroKit2 (venv outside the repo)"
	@echo "make train-ppg    retrain the PPG rhythm model (trees and waveform network; PyTorch in a venv outside the repo)"
	@echo "make train-pcg    retrain the heart-sound model (networks and trees; PyTorch in a venv outside the repo)"
	@echo "make train-murmur retrain the murmur model on CirCor (boosted trees in Rust; about 3 min on two cores)"
	@echo "make fmt | lint   format | lint everything"

## Setup -------------------------------------------------------------------------------------------
web/node_modules/.installed: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	touch $@

deps-web: web/node_modules/.installed

# Debian's chromium, only for the browser tests (Playwright never downloads a browser here), and
# poppler-utils, whose pdftotext/pdftoppm read the downloaded PDF reports in those tests.
chromium:
	@command -v chromium >/dev/null && command -v pdftotext >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core poppler-utils >/dev/null; }

# moto's S3 server for the two-instance test (crates/cli/tests/two_instances.rs), pinned.
s3-server: $(S3_VENV)/.installed

$(S3_VENV)/.installed: crates/cli/tests/s3_server/requirements.txt
	[ -x $(S3_VENV)/bin/python ] || python3 -m venv $(S3_VENV)
	$(S3_VENV)/bin/pip install -q -r crates/cli/tests/s3_server/requirements.txt
	touch $@

# wfdb-python and pyEDFlib for the convert test (crates/cli/tests/convert.rs), pinned.
peer-readers: $(PEER_VENV)/.installed

$(PEER_VENV)/.installed: crates/cli/tests/peer_readers/requirements.txt
	[ -x $(PEER_VENV)/bin/python ] || python3 -m venv $(PEER_VENV)
	$(PEER_VENV)/bin/pip install -q -r crates/cli/tests/peer_readers/requirements.txt
	touch $@

# NeuroKit2 for the reference row of `cardio eval delineation` (crates/lab/reference/), pinned.
neurokit-venv: $(NEUROKIT_VENV)/.installed

$(NEUROKIT_VENV)/.installed: crates/lab/reference/requirements.txt
	[ -x $(NEUROKIT_VENV)/bin/python ] || python3 -m venv $(NEUROKIT_VENV)
	$(NEUROKIT_VENV)/bin/pip install -q -r crates/lab/reference/requirements.txt
	touch $@

## Build and run -----------------------------------------------------------------------------------
build-web: deps-web
	cd web && npm run build

build: build-web
	cargo build --release -p cardio

run: build
	$(CARDIO_RELEASE_BIN) serve

## Tests -------------------------------------------------------------------------------------------
test: fmt-check clippy check-layering test-rust test-web check-client e2e

test-rust: s3-server peer-readers
	@echo "API tests on SQLite and on PostgreSQL at: $${TEST_POSTGRES_URL:-none found, SQLite only}"
	cargo test --workspace

test-web: deps-web
	cd web && npm run lint && npm run typecheck && npm test

# The server links neither the research crate nor a test-only crate (docs/architecture.md).
check-layering:
	@! cargo tree -q -p cardio-server -e normal --prefix none | grep -E '^cardio-(lab|testkit) ' \
	  || { echo "cardio-server links cardio-lab or cardio-testkit"; exit 1; }

fmt-check:
	cargo fmt --all -- --check

clippy:
	cargo clippy --workspace --all-targets -- -D warnings

e2e: chromium build-web
	cargo build -p cardio
	cd web && CARDIO_BIN=$(CARDIO_DEBUG_BIN) npm run e2e

## Generated client --------------------------------------------------------------------------------
gen-client: deps-web
	cargo run -q -p cardio -- openapi > web/src/api/generated/openapi.json
	cd web && npx openapi-typescript src/api/generated/openapi.json -o src/api/generated/schema.ts

# The Rust test `the_committed_openapi_document_is_current` checks openapi.json against the server;
# this checks schema.ts against openapi.json.
check-client: deps-web
	@tmp=$$(mktemp -d) && cd web && npx openapi-typescript src/api/generated/openapi.json -o $$tmp/schema.ts >/dev/null \
	  && diff -q $$tmp/schema.ts src/api/generated/schema.ts >/dev/null \
	  || { echo "web/src/api/generated/schema.ts is stale: run 'make gen-client'"; exit 1; }

## Benchmarks and reference vectors --------------------------------------------------------------
bench:
	cargo bench -p cardio-signal
	cargo bench -p cardio-models --bench waveform

# API latency of a 30-s ECG upload at 50 concurrent requests (needs CARDIO_DATASETS).
bench-api:
	cargo build --release -p cardio -p cardio-server --bin cardio --example load_predict
	CARDIO_RELEASE_BIN=$(CARDIO_RELEASE_BIN) CARDIO_LOAD_BIN=$(CARGO_TARGET_DIR)/release/examples/load_predict scripts/bench-api.sh 50 2000

# Server CPU per upload against the model's own CPU, and p50/p99 at 10, 20 and 50 concurrent, on
# SQLite and (when one answers) PostgreSQL.
bench-throughput:
	cargo build --release -p cardio -p cardio-server --bin cardio --example load_predict
	CARDIO_RELEASE_BIN=$(CARDIO_RELEASE_BIN) CARDIO_LOAD_BIN=$(CARGO_TARGET_DIR)/release/examples/load_predict scripts/bench-throughput.sh 1000

# A day-long 2-lead ECG (the 48 MIT-BIH records end to end) through `cardio predict ecg` on one
# core, seconds and peak memory, beside NeuroKit2's ecg_process on its first hour.
bench-holter: neurokit-venv
	cargo build --release -p cardio
	CARDIO_RELEASE_BIN=$(CARDIO_RELEASE_BIN) CARDIO_NEUROKIT_PYTHON=$(NEUROKIT_VENV)/bin/python scripts/bench-holter.sh

GOLDEN_VENV ?= $(HOME)/.cache/cardio/golden-venv
golden:
	[ -x $(GOLDEN_VENV)/bin/python ] || python3 -m venv $(GOLDEN_VENV)
	$(GOLDEN_VENV)/bin/pip install -q -r crates/signal/tests/golden/requirements.txt
	$(GOLDEN_VENV)/bin/python crates/signal/tests/golden/make_golden.py

# Retrains the PPG rhythm model (crates/models/cards/ppg.md): the trees' folds and out-of-fold
# probabilities, the 26 waveform networks (PyTorch in a venv outside the repo; a GPU when there is
# one, else about an hour and a half on two cores: 3-5 min a network), then the trees and the
# card's figures. Needs CARDIO_DATASETS.
TRAIN_VENV ?= $(HOME)/.cache/cardio/train-venv
PPG_TRAIN_DIR ?= $(HOME)/.cache/cardio/ppg-train
train-ppg:
	[ -x $(TRAIN_VENV)/bin/python ] || python3 -m venv $(TRAIN_VENV)
	$(TRAIN_VENV)/bin/pip install -q -r training/ppg_rhythm_cnn/requirements.txt
	cargo build --release -p cardio-lab --example ppg_rhythm
	mkdir -p $(PPG_TRAIN_DIR)
	$(CARGO_TARGET_DIR)/release/examples/ppg_rhythm dump > $(PPG_TRAIN_DIR)/dump.csv
	$(TRAIN_VENV)/bin/python training/ppg_rhythm_cnn/train.py --dump $(PPG_TRAIN_DIR)/dump.csv --out $(PPG_TRAIN_DIR)
	cp $(PPG_TRAIN_DIR)/ppg-rhythm-cnn.bin crates/models/params/ppg-rhythm-cnn.bin
	cargo build --release -p cardio-lab --example ppg_rhythm
	$(CARGO_TARGET_DIR)/release/examples/ppg_rhythm train

# Retrains the heart-sound model (crates/models/cards/pcg.md): the networks' input (every CinC 2016
# recording's log-mel spectrogram, written by the Rust code inference uses), the twelve networks and
# the 25 inner-CV networks (PyTorch in a venv outside the repo; a GPU when there is one, else about
# two and a half hours on two cores),
# then the boosted trees and the card's figures. Needs CARDIO_DATASETS.
PCG_TRAIN_DIR ?= $(HOME)/.cache/cardio/pcg-train
train-pcg:
	[ -x $(TRAIN_VENV)/bin/python ] || python3 -m venv $(TRAIN_VENV)
	$(TRAIN_VENV)/bin/pip install -q -r training/pcg_cnn/requirements.txt
	cargo build --release -p cardio-lab --example pcg_model
	$(CARGO_TARGET_DIR)/release/examples/pcg_model dump $(PCG_TRAIN_DIR)
	$(TRAIN_VENV)/bin/python training/pcg_cnn/train.py --dump $(PCG_TRAIN_DIR) --out $(PCG_TRAIN_DIR)
	cp $(PCG_TRAIN_DIR)/pcg-cnn.bin $(PCG_TRAIN_DIR)/pcg-cnn-inner.bin crates/models/params/
	cargo build --release -p cardio-lab --example pcg_model
	$(CARGO_TARGET_DIR)/release/examples/pcg_model train

# Retrains the murmur model (crates/models/cards/murmur.md) on the whole CirCor training set laid out
# as $(CARDIO_DATASETS)/circor/training_data (see ../shared/datasets/circor_sample/SOURCE.md for
# where it is); boosted trees in Rust, fixed seeds: the same parameters on every run.
train-murmur:
	cargo run --release -p cardio -- train murmur

## Housekeeping ------------------------------------------------------------------------------------
fmt: deps-web
	cargo fmt --all
	cd web && npx prettier --write src e2e

lint: clippy test-web

clean:
	cargo clean
	rm -rf web/dist web/node_modules
