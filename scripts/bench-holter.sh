#!/usr/bin/env bash
# Speed and memory of a day-long ECG (issue 41, section 3), on one core: the release
# `cardio predict ecg` on the 24-hour record of scripts/holter-24h.sh (the 48 MIT-BIH records end to
# end, 2 leads at 360 Hz), beside NeuroKit2's `ecg_process` on the first hour of its lead MLII
# (the pinned venv of `make neurokit-venv`). Prints wall seconds and peak resident MB of each, and
# the ratio per hour of ECG. Built and run by `make bench-holter`. Needs $CARDIO_DATASETS (mitdb).
#   scripts/bench-holter.sh [DIR for the 24-h record, default a temporary folder]
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CARDIO_RELEASE_BIN:-${CARGO_TARGET_DIR:-target}/release/cardio}"
python="${CARDIO_NEUROKIT_PYTHON:-$HOME/.cache/cardio/neurokit-venv/bin/python}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
dir="${1:-$tmp}"
[ -f "$dir/h24.hea" ] || scripts/holter-24h.sh "$dir" >/dev/null
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1

# Wall seconds and peak resident MB of a command on core 0, from GNU time.
measure() { # NAME COMMAND...
  local name="$1"
  shift
  taskset -c 0 /usr/bin/time -v "$@" >"$tmp/$name.out" 2>"$tmp/$name.time"
  awk -v name="$name" '
    /Elapsed \(wall clock\)/ { n = split($NF, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i] }
    /Maximum resident set size/ { mb = $NF / 1024 }
    END { printf "%s %.2f %.0f\n", name, s, mb }' "$tmp/$name.time"
}

cat >"$tmp/nk.py" <<'EOF'
# The first hour of channel 0 (MLII) of a format-212 record at 360 Hz, in mV, through
# neurokit2.ecg_process; prints the seconds ecg_process took and the R peaks it found.
import sys, time
import numpy as np
import neurokit2 as nk

fs, hour = 360, 3600 * 360
raw = np.fromfile(sys.argv[1], dtype=np.uint8, count=3 * hour).reshape(-1, 3).astype(np.int32)
s0 = raw[:, 0] | ((raw[:, 1] & 0x0F) << 8)
s0 = np.where(s0 >= 2048, s0 - 4096, s0)
mv = (s0 - 1024) / 200.0
t0 = time.perf_counter()
signals, info = nk.ecg_process(mv, sampling_rate=fs)
print(f"{time.perf_counter() - t0:.2f} {len(info['ECG_R_Peaks'])}")
EOF

read -r _ cardio_s cardio_mb < <(measure cardio "$bin" predict ecg "$dir/h24.hea" --format json)
read -r _ nk_wall nk_mb < <(measure neurokit "$python" "$tmp/nk.py" "$dir/h24.dat")
read -r nk_s nk_beats <"$tmp/neurokit.out"
hours="$(awk 'NR == 1 { printf "%.3f", $4 / $3 / 3600 }' "$dir/h24.hea")"
echo "cardio predict ecg, ${hours} h, 2 leads at 360 Hz, one core: ${cardio_s} s, peak ${cardio_mb} MB"
echo "neurokit2 ecg_process, first hour of MLII, one core: ${nk_s} s (process ${nk_wall} s, peak ${nk_mb} MB, ${nk_beats} R peaks)"
awk -v c="$cardio_s" -v h="$hours" -v n="$nk_s" 'BEGIN {
  printf "seconds per hour of ECG: cardio %.3f, neurokit2 %.2f (neurokit2 / cardio = %.0fx)\n", c / h, n, n / (c / h) }'
