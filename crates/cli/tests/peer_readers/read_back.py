"""Reads a WFDB record and an EDF+ file written by `cardio convert` with the reference readers
(wfdb-python, pyEDFlib) and prints what they see as JSON for crates/cli/tests/convert.rs:
lead names, sampling rate, units and physical samples (NaN as null).

Usage: read_back.py RECORD.hea FILE.edf
"""

import json
import math
import sys

import pyedflib
import wfdb


def plain(values):
    return [None if math.isnan(v) else float(v) for v in values]


def main():
    hea, edf = sys.argv[1], sys.argv[2]
    record = wfdb.rdrecord(hea[: -len(".hea")])
    out = {
        "wfdb": {
            "names": list(record.sig_name),
            "rate": float(record.fs),
            "units": list(record.units),
            "samples": [plain(record.p_signal[:, i]) for i in range(record.n_sig)],
        }
    }
    with pyedflib.EdfReader(edf) as reader:
        leads = [i for i, label in enumerate(reader.getSignalLabels()) if label != "EDF Annotations"]
        out["edf"] = {
            "names": [reader.getLabel(i) for i in leads],
            "rate": float(reader.getSampleFrequency(leads[0])),
            "units": [reader.getPhysicalDimension(i) for i in leads],
            "samples": [plain(reader.readSignal(i)) for i in leads],
        }
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
