#!/usr/bin/env bash
# Throughput per core of the prediction API: for SQLite and for PostgreSQL (a throwaway database on
# $TEST_POSTGRES_URL's server), a release `cardio serve` is started and the load generator
# (crates/server/examples/load_predict.rs) sends 30-s ECG uploads at 10, 20 and 50 concurrent,
# reporting p50/p99 latency and the server's CPU time per upload against the model's own CPU time
# for the same recording (measured in the same run). Built and run by `make bench-throughput`.
# Needs $CARDIO_DATASETS (cinc2017).
#   scripts/bench-throughput.sh [TOTAL per level, default 1000]
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CARDIO_RELEASE_BIN:-${CARGO_TARGET_DIR:-target}/release/cardio}"
load="${CARDIO_LOAD_BIN:-${CARGO_TARGET_DIR:-target}/release/examples/load_predict}"
record="${CARDIO_DATASETS:?set CARDIO_DATASETS}/cinc2017/training2017/A00001"
total="${1:-1000}"
tmp="$(mktemp -d)"
pid=""
pg_db=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  [ -n "$pg_db" ] && psql -q "${TEST_POSTGRES_URL}" -c "DROP DATABASE IF EXISTS \"$pg_db\" WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

serve() { # DATABASE_URL DATA_DIR
  mkdir -p "$2"
  DATABASE_URL="$1" CARDIO_DATA_DIR="$2" CARDIO_SIGNUPS_PER_HOUR=1000 RUST_LOG=warn \
    "$bin" serve --addr 127.0.0.1:0 >"$2/out" 2>"$2/err" &
  pid=$!
  url=""
  for _ in $(seq 1 100); do
    url="$(sed -n 's/^cardio listening on //p' "$2/out")"
    [ -n "$url" ] && return 0
    sleep 0.1
  done
  cat "$2/err"
  exit 1
}

databases=(sqlite)
[ -n "${TEST_POSTGRES_URL:-}" ] && databases+=(postgres)
for db in "${databases[@]}"; do
  if [ "$db" = sqlite ]; then
    serve "sqlite://$tmp/sqlite/cardio.db" "$tmp/sqlite"
  else
    pg_db="cardio_bench_$$"
    psql -q "${TEST_POSTGRES_URL}" -c "CREATE DATABASE \"$pg_db\"" >/dev/null
    serve "${TEST_POSTGRES_URL%/*}/$pg_db" "$tmp/postgres"
  fi
  for concurrency in 10 20 50; do
    echo "== $db, $concurrency concurrent"
    "$load" --url "$url" --kind ecg --files "$record.hea,$record.mat" \
      --concurrency "$concurrency" --total "$total" --warmup 50 --no-reference --server-pid "$pid"
  done
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  pid=""
done
