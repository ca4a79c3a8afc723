#!/usr/bin/env python3
"""A day-long Holter uploaded to a release `cardio serve` (issue 41, section 4): the 24-hour 2-lead
record of scripts/holter-24h.sh (94 MB of WFDB format 212, its .hea and .dat in one upload) sent to
`/api/predict/ecg/upload` on a fresh server and database, then its waveform (10 s at hour 12) and
its PDF report read. Prints each step's status and seconds and the server's peak resident memory
(VmHWM) after each.

    scripts/upload-holter.py DIR [path/to/cardio]     (DIR holds h24.hea and h24.dat;
                                                       default binary: target/release/cardio)
"""
import json
import os
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid

folder = sys.argv.pop(1)
import loadserver  # noqa: E402  (reads the binary from sys.argv[1])


def call(base, cookie, method, path, body=None, headers=None):
    request = urllib.request.Request(base + path, body, headers or {}, method=method)
    request.add_header("Cookie", cookie)
    try:
        with urllib.request.urlopen(request, timeout=600) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


data = tempfile.mkdtemp(prefix="cardio-upload-holter-")
process, base = loadserver.start(data, log=False)
signup = urllib.request.Request(base + "/api/auth/signup", json.dumps({
    "full_name": "H", "email": "holter@load.test", "password": "load-test-pass",
    "role": "doctor"}).encode(), {"Content-Type": "application/json"})
with urllib.request.urlopen(signup) as response:
    cookie = response.headers["Set-Cookie"].split(";")[0]
print(f"server started: peak RSS {loadserver.peak_rss_mb(process):.0f} MB")

boundary = uuid.uuid4().hex
parts = []
for name in ["h24.hea", "h24.dat"]:
    with open(os.path.join(folder, name), "rb") as f:
        content = f.read()
    parts.append(f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
                 f"filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n".encode()
                 + content + b"\r\n")
body = b"".join(parts) + f"--{boundary}--\r\n".encode()
started = time.time()
status, answer = call(base, cookie, "POST", "/api/predict/ecg/upload", body,
                      {"Content-Type": f"multipart/form-data; boundary={boundary}"})
del body, parts
print(f"upload of {sum(os.path.getsize(os.path.join(folder, n)) for n in ['h24.hea', 'h24.dat']) / 1e6:.1f} MB: "
      f"{status} in {time.time() - started:.1f} s; peak RSS {loadserver.peak_rss_mb(process):.0f} MB")
if status != 200:
    print(answer.decode(errors="replace")[:500])
    sys.exit(1)
result = json.loads(answer)
details = result.get("details", {})
print(f"  label {result.get('label')}, analysed_s {details.get('analysed_s')}, "
      f"af_burden {details.get('af_burden')}, beat_counts {details.get('beat_counts')}")
analysis = result.get("analysis_id")
for what, path in [("waveform, 10 s at hour 12", f"/api/analyses/{analysis}/waveform?start_s=43200&duration_s=10"),
                   ("PDF report", f"/api/analyses/{analysis}/report.pdf")]:
    started = time.time()
    status, answer = call(base, cookie, "GET", path)
    print(f"{what}: {status}, {len(answer) / 1e3:.0f} kB in {time.time() - started:.1f} s; "
          f"peak RSS {loadserver.peak_rss_mb(process):.0f} MB")
process.terminate()
process.wait()
