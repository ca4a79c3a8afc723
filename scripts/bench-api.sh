#!/usr/bin/env bash
# Latency of the prediction API under load: starts a release `cardio serve` on a throwaway SQLite
# database, runs the load generator (crates/server/examples/load_predict.rs, built by `make
# bench-api`) against it, stops it. Needs $CARDIO_DATASETS (cinc2017).
#   scripts/bench-api.sh [CONCURRENCY] [TOTAL]
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CARDIO_RELEASE_BIN:-${CARGO_TARGET_DIR:-target}/release/cardio}"
load="${CARDIO_LOAD_BIN:-${CARGO_TARGET_DIR:-target}/release/examples/load_predict}"
record="${CARDIO_DATASETS:?set CARDIO_DATASETS}/cinc2017/training2017/A00001"
tmp="$(mktemp -d)"
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
DATABASE_URL="sqlite://$tmp/cardio.db" CARDIO_DATA_DIR="$tmp" RUST_LOG=warn \
  "$bin" serve --addr 127.0.0.1:0 >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 1 100); do
  url="$(sed -n 's/^cardio listening on //p' "$tmp/out")"
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { cat "$tmp/err"; exit 1; }
"$load" --url "$url" --kind ecg --files "$record.hea,$record.mat" \
  --concurrency "${1:-50}" --total "${2:-2000}"
