"""Writes the golden vectors that crates/signal's tests compare against.

Run once, outside the repository's runtime (tests never call Python):

    python3 -m venv /tmp/gv && /tmp/gv/bin/pip install scipy numpy neurokit2
    /tmp/gv/bin/python crates/signal/tests/golden/make_golden.py

Versions used for the committed files are stored in each file's "versions" field.
"""
import json
import os

import numpy as np
import scipy
from scipy import signal

HERE = os.path.dirname(os.path.abspath(__file__))


def versions():
    v = {"numpy": np.__version__, "scipy": scipy.__version__}
    try:
        import neurokit2 as nk
        v["neurokit2"] = nk.__version__
    except ImportError:
        pass
    return v


def dump(name, obj):
    obj["versions"] = versions()
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(obj, f, separators=(",", ":"))


def r10(a):
    """Rounds to 10 significant digits to keep the files small (tolerances are far looser)."""
    return [float("%.10g" % v) for v in np.asarray(a)]


def test_signal(n, fs, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(n) / fs
    x = (np.sin(2 * np.pi * 1.2 * t) + 0.5 * np.sin(2 * np.pi * 17 * t)
            + 0.3 * np.sin(2 * np.pi * 50 * t) + 0.2 * rng.standard_normal(n) + 0.4 * t)
    # The stored input is exactly what the references are computed from.
    return np.array(r10(x))


def filters():
    cases = []
    specs = [
        ("lowpass", 4, [40.0], 360.0),
        ("highpass", 5, [0.5], 500.0),
        ("bandpass", 3, [5.0, 15.0], 200.0),
        ("bandstop", 2, [45.0, 55.0], 250.0),
        ("bandpass", 2, [0.5, 8.0], 30.0),
        ("lowpass", 1, [10.0], 100.0),
    ]
    for i, (btype, order, wn, fs) in enumerate(specs):
        x = test_signal(200, fs, i)
        sos = signal.butter(order, wn if len(wn) > 1 else wn[0], btype=btype, fs=fs, output="sos")
        cases.append({
            "kind": btype, "order": order, "edges": wn, "fs": fs,
            "sos": sos.tolist(),
            "zi": signal.sosfilt_zi(sos).tolist(),
            "x": x.tolist(),
            "sosfilt_head": r10(signal.sosfilt(sos, x)[:50]),
            "sosfiltfilt": r10(signal.sosfiltfilt(sos, x)),
        })
    notches = []
    for f0, q, fs in [(50.0, 30.0, 500.0), (60.0, 30.0, 360.0)]:
        b, a = signal.iirnotch(f0, q, fs)
        x = test_signal(150, fs, 7)
        notches.append({"f0": f0, "q": q, "fs": fs, "b": b.tolist(), "a": a.tolist(),
                        "x": x.tolist(),
                        "filtfilt": r10(signal.sosfiltfilt(np.concatenate([b, a])[None, :], x))})
    dump("filters.json", {"butter": cases, "notch": notches})


def resampling():
    cases = []
    for up, down, n in [(25, 36, 360), (2, 3, 200), (3, 1, 60), (5, 2, 100)]:
        x = test_signal(n, 360.0, up * 100 + down)
        cases.append({"up": up, "down": down, "x": x.tolist(),
                      "y": r10(signal.resample_poly(x, up, down))})
    dump("resample.json", {"cases": cases})


def hrv():
    import neurokit2 as nk
    cases = []
    rng = np.random.default_rng(2024)
    for label, n in [("sinus", 300), ("irregular", 200)]:
        if label == "sinus":
            t = np.arange(n)
            rr = 850 + 40 * np.sin(2 * np.pi * t / 12) + 15 * rng.standard_normal(n)
        else:
            rr = rng.uniform(450, 1100, n)
        rr = np.round(rr).astype(int)
        peaks = np.concatenate([[1000], 1000 + np.cumsum(rr)])
        tdom = nk.hrv_time(peaks, sampling_rate=1000)
        nl = nk.hrv_nonlinear(peaks, sampling_rate=1000)
        cases.append({
            "label": label,
            "rr_ms": rr.tolist(),
            "MeanNN": float(tdom["HRV_MeanNN"].iloc[0]),
            "SDNN": float(tdom["HRV_SDNN"].iloc[0]),
            "RMSSD": float(tdom["HRV_RMSSD"].iloc[0]),
            "SDSD": float(tdom["HRV_SDSD"].iloc[0]),
            "MedianNN": float(tdom["HRV_MedianNN"].iloc[0]),
            "pNN50": float(tdom["HRV_pNN50"].iloc[0]),
            "pNN20": float(tdom["HRV_pNN20"].iloc[0]),
            "SD1": float(nl["HRV_SD1"].iloc[0]),
            "SD2": float(nl["HRV_SD2"].iloc[0]),
            "SampEn": float(nl["HRV_SampEn"].iloc[0]),
        })
    # Lomb-Scargle of the sinus case's intervals at their beat times, scaled to a one-sided PSD
    # (ms^2/Hz) that integrates to the variance: scipy's periodogram * 2 * span / N.
    rr = np.array(cases[0]["rr_ms"], dtype=float)
    t = np.cumsum(rr) / 1000.0
    freqs = 0.0033 + 0.001 * np.arange(397)
    p = signal.lombscargle(t, rr - rr.mean(), 2 * np.pi * freqs)
    psd = p * 2 * (t[-1] - t[0]) / len(t)
    lomb = {"rr_ms": cases[0]["rr_ms"], "freqs": freqs.tolist(), "psd": r10(psd)}
    dump("hrv.json", {"cases": cases, "lomb": lomb})


if __name__ == "__main__":
    filters()
    resampling()
    hrv()
