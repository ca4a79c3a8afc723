"""NeuroKit2's wave delineation of LUDB leads, the reference row of `cardio eval delineation`.

Run by that command with the Python of a venv outside the repo (`make neurokit-venv`, pinned in
requirements.txt beside this file); it can also be run by hand:

    python nk_delineate.py LUDB_DATA_DIR --records 1,2,3 --leads i,ii,...,v6 [--timing-lead ii] [--repeats 3]

For each record and lead: the lead's signal read from the WFDB files (format 16, gain and baseline
from the header), cleaned with `nk.ecg_clean`, R peaks from `nk.ecg_peaks`, then
`nk.ecg_delineate(cleaned, rpeaks, sampling_rate=fs, method="dwt")`. Prints one JSON object on
stdout: the NeuroKit2 version and, per record, its sampling rate and per lead the boundaries found in samples (P on,
peak, off; QRS on (ECG_R_Onsets), R peak, QRS off (ECG_R_Offsets); T on, peak, off). With
--timing-lead, each record's lead of that name is also timed (time.perf_counter, the best of
--repeats runs): clean + peaks + delineate together, and ecg_delineate alone, in milliseconds.
"""

import argparse
import json
import os
import sys
import time
import warnings

import numpy as np
import neurokit2 as nk

KEYS = [
    ("p_on", "ECG_P_Onsets"),
    ("p_peak", "ECG_P_Peaks"),
    ("p_off", "ECG_P_Offsets"),
    ("qrs_on", "ECG_R_Onsets"),
    ("r_peak", None),
    ("qrs_off", "ECG_R_Offsets"),
    ("t_on", "ECG_T_Onsets"),
    ("t_peak", "ECG_T_Peaks"),
    ("t_off", "ECG_T_Offsets"),
]


def read_record(data_dir, name):
    """The record's leads (name -> physical signal, mV) and sampling rate, from a format-16 WFDB pair."""
    with open(os.path.join(data_dir, name + ".hea")) as f:
        lines = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    head = lines[0].split()
    n_sig, fs = int(head[1]), float(head[2].split("/")[0])
    signals = []
    for line in lines[1 : 1 + n_sig]:
        parts = line.split()
        if parts[1] != "16":
            raise ValueError(f"{name}: format {parts[1]} is not 16")
        gain_field = parts[2].split("/")[0]
        baseline = 0
        if "(" in gain_field:
            gain_field, b = gain_field.split("(")
            baseline = int(b.rstrip(")"))
        gain = float(gain_field) or 200.0
        signals.append((parts[-1].lower(), parts[0], gain, baseline))
    raw = np.fromfile(os.path.join(data_dir, signals[0][1]), dtype="<i2")
    raw = raw[: len(raw) // n_sig * n_sig].reshape(-1, n_sig)
    leads = {
        lead: (raw[:, i].astype(float) - baseline) / gain
        for i, (lead, _, gain, baseline) in enumerate(signals)
    }
    return leads, fs


def as_samples(values):
    out = []
    for v in values:
        if v is None:
            continue
        v = float(v)
        if np.isfinite(v):
            out.append(int(v))
    return sorted(out)


def delineate(signal, fs):
    """(cleaned, rpeaks, waves, seconds of ecg_delineate)."""
    cleaned = nk.ecg_clean(signal, sampling_rate=fs)
    _, info = nk.ecg_peaks(cleaned, sampling_rate=fs)
    rpeaks = info["ECG_R_Peaks"]
    t = time.perf_counter()
    _, waves = nk.ecg_delineate(cleaned, rpeaks, sampling_rate=fs, method="dwt")
    return rpeaks, waves, time.perf_counter() - t


def boundaries(signal, fs):
    try:
        rpeaks, waves, _ = delineate(signal, fs)
    except Exception as e:  # NeuroKit2 fails on some leads: no boundaries, the error instead
        return {"error": f"{type(e).__name__}: {e}"}
    out = {}
    for key, nk_key in KEYS:
        out[key] = as_samples(rpeaks if nk_key is None else waves.get(nk_key, []))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data_dir")
    ap.add_argument("--records", required=True, help="comma-separated record names")
    ap.add_argument("--leads", required=True, help="comma-separated lead names")
    ap.add_argument("--timing-lead", default=None)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    leads = [l.lower() for l in args.leads.split(",") if l]
    result = {"neurokit2": nk.__version__, "method": "dwt", "records": {}, "timing": []}
    for name in [r for r in args.records.split(",") if r]:
        signals, fs = read_record(args.data_dir, name)
        result["records"][name] = {
            "fs": fs,
            "leads": {lead: boundaries(signals[lead], fs) for lead in leads if lead in signals},
        }
        if args.timing_lead and args.timing_lead.lower() in signals:
            signal = signals[args.timing_lead.lower()]
            total, alone = [], []
            for _ in range(max(1, args.repeats)):
                t = time.perf_counter()
                try:
                    _, _, d = delineate(signal, fs)
                except Exception:
                    break
                total.append(time.perf_counter() - t)
                alone.append(d)
            if total:
                result["timing"].append(
                    {
                        "record": name,
                        "total_ms": 1000.0 * min(total),
                        "delineate_ms": 1000.0 * min(alone),
                    }
                )
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
