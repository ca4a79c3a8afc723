"""Times NeuroKit2's ecg_process on an MIT-BIH record, to compare in the same session with
`make bench` (criterion, ms per minute of signal) and `time target/release/cardio analyze 100.hea`
(end to end: read, clean, detect, delineate, HRV, JSON).

    /tmp/gv/bin/python crates/signal/benches/neurokit_compare.py [/root/.cache/cardio-datasets/mitdb/100]

Reads channel 0 of a format-212 record with numpy (no wfdb dependency).
"""
import sys
import time

import numpy as np
import neurokit2 as nk


def read_212(base):
    header = open(base + ".hea").read().split("\n")
    nsig, fs = int(header[0].split()[1]), float(header[0].split()[2])
    gain = float(header[1].split()[2].split("(")[0].split("/")[0])
    zero = float(header[1].split()[4])
    raw = np.fromfile(base + ".dat", dtype=np.uint8).reshape(-1, 3).astype(np.int16)
    s0 = raw[:, 0] | ((raw[:, 1] & 0x0F) << 8)
    s1 = raw[:, 2] | ((raw[:, 1] & 0xF0) << 4)
    s = np.empty(2 * len(raw), dtype=np.int16)
    s[0::2], s[1::2] = s0, s1
    s = np.where(s & 0x800, s - 0x1000, s)
    return fs, (s[0::nsig].astype(float) - zero) / gain


def main():
    base = sys.argv[1] if len(sys.argv) > 1 else "/root/.cache/cardio-datasets/mitdb/100"
    fs, x = read_212(base)
    minutes = len(x) / fs / 60
    best, best_cpu = float("inf"), float("inf")
    for _ in range(3):
        t, c = time.perf_counter(), time.process_time()
        nk.ecg_process(x, sampling_rate=int(fs))
        best = min(best, time.perf_counter() - t)
        best_cpu = min(best_cpu, time.process_time() - c)
    print(f"neurokit2 {nk.__version__} ecg_process on {base}: {best:.2f} s wall, {best_cpu:.2f} s CPU "
          f"for {minutes:.1f} min = {1000 * best / minutes:.1f} ms per minute wall, "
          f"{1000 * best_cpu / minutes:.1f} CPU (best of 3)")


if __name__ == "__main__":
    main()
