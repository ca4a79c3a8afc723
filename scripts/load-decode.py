#!/usr/bin/env python3
"""Memory stays bounded whatever is uploaded (issue 17 part 2), against a release `cardio serve`.

Each case runs on a fresh server and database, so that its peak is its own:
1. a MAT v5 decompression bomb (0.3 MB, one compressed element of 256 MiB): uploaded (it must be
   refused), then put into the store and database directly, as if uploaded before the limits;
2. the worst MAT file the limits still accept (about 1.8 MB: 1.6 MB of incompressible padding and
   a compressed periodic ECG of 25 M doubles, 14 hours at 500 Hz, inflating to 200 MB), put in
   directly;
3. the largest uncompressed recording the upload limit allows, uploaded: a 50 MB WFDB record
   (format 80, 50 M samples, 28 hours at 500 Hz).
Then 8 concurrent waveform reads and 8 concurrent PDF reports of the case's recording; it prints
the statuses and the server's peak resident memory (VmHWM) after each step.

    scripts/load-decode.py [path/to/cardio]     (default: target/release/cardio)
"""
import concurrent.futures
import hashlib
import json
import math
import os
import sqlite3
import struct
import tempfile
import time
import urllib.error
import urllib.request
import uuid
import zlib

import loadserver


MI_INT8, MI_INT32, MI_UINT32, MI_DOUBLE, MI_MATRIX, MI_COMPRESSED = 1, 5, 6, 9, 14, 15


def tag(kind, payload):
    out = struct.pack("<II", kind, len(payload)) + payload
    return out + b"\0" * (-len(out) % 8)


def matrix(name, rows, cols, kind, payload, mx_class):
    body = tag(MI_UINT32, struct.pack("<II", mx_class, 0))
    body += tag(MI_INT32, struct.pack("<ii", rows, cols))
    body += tag(MI_INT8, name.encode())
    body += tag(kind, payload)
    return tag(MI_MATRIX, body)


def compressed(element):
    z = zlib.compress(element, 9)
    return struct.pack("<II", MI_COMPRESSED, len(z)) + z


def mat_file(elements):
    header = b"MATLAB 5.0 MAT-file, cardio load test".ljust(124, b" ") + b"\0\x01IM"
    return header + b"".join(elements)


def bomb():
    zeros = b"\0" * (256 << 20)
    return mat_file([matrix("fs", 1, 1, MI_DOUBLE, struct.pack("<d", 500.0), 6),
                     compressed(matrix("val", 1, 256 << 20, MI_INT8, zeros, 8))])


def worst_accepted():
    beat = [1.2 * math.exp(-((i / 500 - 0.5) ** 2) / 0.0004) for i in range(500)]
    period = struct.pack(f"<{len(beat)}d", *beat)
    n = 25_000_000
    signal = period * (n // 500)
    padding = os.urandom(1_600_000)
    return mat_file([matrix("fs", 1, 1, MI_DOUBLE, struct.pack("<d", 500.0), 6),
                     matrix("pad", 1, len(padding), MI_INT8, padding, 8),
                     compressed(matrix("val", 1, n, MI_DOUBLE, signal, 6))])


class Server:
    """A fresh `cardio serve` on its own data folder, with a signed-in doctor."""

    def __init__(self):
        self.data = tempfile.mkdtemp(prefix="cardio-load-decode-")
        self.db_path = os.path.join(self.data, "cardio.db")
        self.process, self.base = loadserver.start(self.data, log=True)
        signup = urllib.request.Request(self.base + "/api/auth/signup", json.dumps({
            "full_name": "L", "email": "decode@load.test", "password": "load-test-pass",
            "role": "doctor"}).encode(), {"Content-Type": "application/json"})
        with urllib.request.urlopen(signup) as response:
            self.cookie = response.headers["Set-Cookie"].split(";")[0]
            self.user_id = json.loads(response.read())["uid"]

    def peak_rss_mb(self):
        return loadserver.peak_rss_mb(self.process)

    def call(self, method, path, body=None, headers=None):
        request = urllib.request.Request(self.base + path, body, headers or {}, method=method)
        request.add_header("Cookie", self.cookie)
        try:
            with urllib.request.urlopen(request, timeout=300) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as err:
            return err.code, err.read()

    def upload(self, files):
        boundary = uuid.uuid4().hex
        body = b"".join(
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
            f"Content-Type: application/octet-stream\r\n\r\n".encode() + content + b"\r\n"
            for name, content in files) + f"--{boundary}--\r\n".encode()
        return self.call("POST", "/api/predict/ecg/upload", body,
                         {"Content-Type": f"multipart/form-data; boundary={boundary}"})

    def put_directly(self, name, content):
        """Stores a recording as if it had been uploaded before the limits (in clear)."""
        sha = hashlib.sha256(content).hexdigest()
        os.makedirs(os.path.join(self.data, "blobs", sha[:2]), exist_ok=True)
        with open(os.path.join(self.data, "blobs", sha[:2], sha), "wb") as f:
            f.write(content)
        analysis_id = str(uuid.uuid4())
        files_json = json.dumps([{"name": name, "sha256": sha, "size": len(content)}])
        result = json.dumps({"analysis_id": analysis_id, "model": "ecg", "label": "normal",
                             "prediction": "Normal sinus rhythm", "confidence": 0.9,
                             "risk_score": 0.1, "recommendations": [], "details": {}})
        with sqlite3.connect(self.db_path) as db:
            db.execute(
                "INSERT INTO analyses (id, user_id, modality, file_name, file_sha256, file_size, label, "
                "prediction, confidence, risk_score, result_json, model_id, model_version, created_at, "
                "files_json) VALUES (?, ?, 'ecg', ?, ?, ?, 'normal', 'Normal sinus rhythm', 0.9, 0.1, ?, "
                "'ecg', '1', ?, ?)",
                (analysis_id, self.user_id, name, sha, len(content), result, int(time.time() * 1000),
                 files_json))
        return analysis_id

    def reads(self, label, analysis):
        for what, path in [("waveform reads", f"/api/analyses/{analysis}/waveform?start_s=0&duration_s=10"),
                           ("PDF reports", f"/api/analyses/{analysis}/report.pdf")]:
            started = time.time()
            with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
                statuses = list(pool.map(lambda _: self.call("GET", path)[0], range(8)))
            counts = {code: statuses.count(code) for code in sorted(set(statuses))}
            print(f"  8 concurrent {what} of the {label}: {counts} in {time.time() - started:.1f} s; "
                  f"peak RSS {self.peak_rss_mb():.0f} MB")

    def stop(self):
        self.process.terminate()
        self.process.wait()


def wfdb_record(n):
    beat = bytes(int(128 + 100 * math.exp(-((i / 500 - 0.5) ** 2) / 0.0004)) for i in range(500))
    return [("big.hea", f"big 1 500 {n}\nbig.dat 80 200 8 128 0 0 0 II\n".encode()),
            ("big.dat", (beat * (n // 500 + 1))[:n])]


for label, make in [("MAT bomb", bomb), ("worst accepted MAT file", worst_accepted),
                    ("50 MB WFDB record", lambda: wfdb_record(50_000_000))]:
    content = make()
    server = Server()
    try:
        print(f"{label}: fresh server, idle peak RSS {server.peak_rss_mb():.0f} MB")
        if label == "50 MB WFDB record":
            status, answer = server.upload(content)
            analysis = json.loads(answer)["analysis_id"]
            print(f"  uploaded: HTTP {status}; peak RSS {server.peak_rss_mb():.0f} MB")
        else:
            if label == "MAT bomb":
                status, answer = server.upload([("bomb.mat", content)])
                print(f"  uploaded ({len(content) / 1e6:.1f} MB): HTTP {status} "
                      f"{json.loads(answer).get('detail', '')[:90]!r}; peak RSS {server.peak_rss_mb():.0f} MB")
            analysis = server.put_directly(f"{label}.mat", content)
        del content
        server.reads(label, analysis)
    finally:
        server.stop()
