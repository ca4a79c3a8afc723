#!/usr/bin/env bash
# Writes a day-long Holter record for the speed and memory check of long ECGs (issue 41, section 3):
# the 48 MIT-BIH Arrhythmia records end to end (24 h 4 min, 2 channels, 360 Hz, format 212).
# Every MIT-BIH record is 650000 frames of format 212 at 200 adu/mV, 11 bits, baseline 1024, so
# their signal files concatenated byte for byte are one valid format-212 signal file; the header is
# written here. Channel 0 is named MLII and channel 1 V1, what most records hold (102 and 104 hold
# V5/V2, 114 holds V5/MLII: their half hours keep their own leads).
#   scripts/holter-24h.sh OUT_DIR [COPIES, default 1: 2 gives a 48-hour record]
# writes OUT_DIR/h24.hea and OUT_DIR/h24.dat (about 94 MB a day). Needs $CARDIO_DATASETS (mitdb).
set -euo pipefail
out="${1:?usage: scripts/holter-24h.sh OUT_DIR [COPIES]}"
copies="${2:-1}"
db="${CARDIO_DATASETS:?set CARDIO_DATASETS}/mitdb"
records=(100 101 102 103 104 105 106 107 108 109 111 112 113 114 115 116 117 118 119 121 122 123
  124 200 201 202 203 205 207 208 209 210 212 213 214 215 217 219 220 221 222 223 228 230 231 232
  233 234)
frames=650000
# The header's checksum of each channel is the 16-bit sum of its samples: the sum of the records'
# own checksums (times the copies), folded to a signed 16-bit value.
sum0=0
sum1=0
for r in "${records[@]}"; do
  read -r c0 c1 < <(awk 'NR == 2 { a = $7 } NR == 3 { b = $7 } END { print a, b }' "$db/$r.hea")
  sum0=$((sum0 + c0 * copies))
  sum1=$((sum1 + c1 * copies))
done
fold() { local v=$(($1 & 0xffff)); [ "$v" -ge 32768 ] && v=$((v - 65536)); echo "$v"; }
read -r init0 init1 < <(awk 'NR == 2 { a = $6 } NR == 3 { b = $6 } END { print a, b }' "$db/${records[0]}.hea")
mkdir -p "$out"
: >"$out/h24.dat"
for _ in $(seq 1 "$copies"); do
  for r in "${records[@]}"; do
    size="$(stat -c %s "$db/$r.dat")"
    if [ "$size" -ne $((frames * 3)) ]; then
      echo "$db/$r.dat: $size bytes, expected $((frames * 3))" >&2
      exit 1
    fi
    cat "$db/$r.dat" >>"$out/h24.dat"
  done
done
total=$((frames * ${#records[@]} * copies))
{
  echo "h24 2 360 $total"
  echo "h24.dat 212 200 11 1024 $init0 $(fold "$sum0") 0 MLII"
  echo "h24.dat 212 200 11 1024 $init1 $(fold "$sum1") 0 V1"
  echo "# The 48 MIT-BIH Arrhythmia records end to end (x$copies), written by scripts/holter-24h.sh"
} >"$out/h24.hea"
echo "$out/h24.hea: $total samples a channel ($((total / 360)) s)"
