"""Writes dicom_waveform.json: pydicom's reading of the shared DICOM 12-lead ECG, which
crates/formats/tests/dicom.rs compares the DICOM reader against (within 1 µV).

Run once, outside the repository's runtime (tests never call Python):

    python3 -m venv ~/.cache/cardio/pydicom-venv
    ~/.cache/cardio/pydicom-venv/bin/pip install -r crates/formats/tests/golden/requirements.txt
    CARDIO_DATASETS=... ~/.cache/cardio/pydicom-venv/bin/python crates/formats/tests/golden/dicom_waveform.py

For every multiplex group: its label, rate and sample count, and for every channel its code
meaning, its unit and every 97th sample of `Dataset.waveform_array(group)` (sensitivity x
correction factor + baseline, in the sensitivity's unit) converted to mV.
"""
import json
import os

import numpy as np
import pydicom

HERE = os.path.dirname(os.path.abspath(__file__))
STEP = 97
TO_MV = {"uV": 1e-3, "mV": 1.0, "V": 1e3}


def main():
    path = os.path.join(os.environ["CARDIO_DATASETS"], "ecg_documents", "dicom-waveform-ecg.dcm")
    ds = pydicom.dcmread(path)
    groups = []
    for index, group in enumerate(ds.WaveformSequence):
        values = ds.waveform_array(index)
        channels = []
        for k, channel in enumerate(group.ChannelDefinitionSequence):
            unit = channel.ChannelSensitivityUnitsSequence[0].CodeValue
            samples = values[::STEP, k] * TO_MV[unit]
            channels.append(
                {
                    "meaning": channel.ChannelSourceSequence[0].CodeMeaning,
                    "unit": unit,
                    "samples_mv": [float("%.9g" % v) for v in samples],
                }
            )
        groups.append(
            {
                "label": group.MultiplexGroupLabel,
                "sampling_frequency": float(group.SamplingFrequency),
                "samples": int(group.NumberOfWaveformSamples),
                "channels": channels,
            }
        )
    out = {
        "file": "ecg_documents/dicom-waveform-ecg.dcm",
        "step": STEP,
        "versions": {"pydicom": pydicom.__version__, "numpy": np.__version__},
        "groups": groups,
    }
    with open(os.path.join(HERE, "dicom_waveform.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
