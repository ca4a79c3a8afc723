#!/usr/bin/env python3
"""Memory stays bounded whatever is uploaded (issue 17 part 2), against a release `cardio serve`.

1. Uploads a MAT v5 decompression bomb (about 1.7 MB, one compressed element of 256 MiB): it
   must be refused.
2. Puts two recordings into the server's store and database directly, as if uploaded before the
   limits existed: that bomb, and the worst file the limits still accept (about 1.8 MB: 1.6 MB
   of incompressible padding and a compressed periodic ECG of 25 M doubles, a 14-hour recording
   at 500 Hz, which inflates to 200 MB).
3. Sends 8 concurrent waveform reads, then 8 concurrent PDF reports, of each, and prints the
   statuses and the server's peak resident memory (VmHWM) after each burst.

    scripts/load-decode.py [path/to/cardio]     (default: target/release/cardio)
"""
import concurrent.futures
import hashlib
import json
import math
import os
import re
import sqlite3
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
import zlib

binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.environ.get("CARGO_TARGET_DIR", "target"), "release", "cardio")
data = tempfile.mkdtemp(prefix="cardio-load-decode-")
db_path = os.path.join(data, "cardio.db")

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


server = subprocess.Popen(
    [binary, "serve", "--addr", "127.0.0.1:0", "--data-dir", data,
     "--database-url", f"sqlite://{db_path}", "--web-dir", data],
    stdout=subprocess.PIPE, env=dict(os.environ, RUST_LOG=os.environ.get("RUST_LOG", "warn")), text=True)
base = re.search(r"http://\S+", server.stdout.readline()).group(0)
# Keep reading its log (to stderr here) so that a full pipe never blocks it.
threading.Thread(target=lambda: [sys.stderr.write(line) for line in server.stdout], daemon=True).start()


def peak_rss_mb():
    with open(f"/proc/{server.pid}/status") as status:
        for row in status:
            if row.startswith("VmHWM:"):
                return int(row.split()[1]) / 1024
    return float("nan")


def call(method, path, body=None, headers=None):
    request = urllib.request.Request(base + path, body, headers or {}, method=method)
    request.add_header("Cookie", cookie)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as err:
        err.read()
        return err.code


try:
    signup = urllib.request.Request(base + "/api/auth/signup", json.dumps({
        "full_name": "L", "email": "decode@load.test", "password": "load-test-pass", "role": "doctor"}).encode(),
        {"Content-Type": "application/json"})
    with urllib.request.urlopen(signup) as response:
        cookie = response.headers["Set-Cookie"].split(";")[0]
        user_id = json.loads(response.read())["uid"]
    print(f"server at {base}; idle peak RSS {peak_rss_mb():.0f} MB")

    files = {"bomb": bomb(), "worst accepted": worst_accepted()}
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"bomb.mat\"\r\n"
            f"Content-Type: application/octet-stream\r\n\r\n").encode() + files["bomb"] + f"\r\n--{boundary}--\r\n".encode()
    status = call("POST", "/api/predict/ecg/upload", body,
                  {"Content-Type": f"multipart/form-data; boundary={boundary}"})
    print(f"upload of the bomb ({len(files['bomb']) / 1e6:.1f} MB): HTTP {status}; peak RSS {peak_rss_mb():.0f} MB")

    # Stored as if uploaded before the limits: in clear (a blob without the encryption header).
    with sqlite3.connect(db_path) as db:
        for name, content in files.items():
            sha = hashlib.sha256(content).hexdigest()
            os.makedirs(os.path.join(data, "blobs", sha[:2]), exist_ok=True)
            with open(os.path.join(data, "blobs", sha[:2], sha), "wb") as f:
                f.write(content)
            files_json = json.dumps([{"name": f"{name}.mat", "sha256": sha, "size": len(content)}])
            analysis_id = str(uuid.uuid4())
            result = json.dumps({"analysis_id": analysis_id, "model": "ecg", "label": "normal", "prediction": "Normal sinus rhythm", "confidence": 0.9,
                                 "risk_score": 0.1, "recommendations": [], "details": {}})
            db.execute(
                "INSERT INTO analyses (id, user_id, modality, file_name, file_sha256, file_size, label, prediction, "
                "confidence, risk_score, result_json, model_id, model_version, created_at, files_json) "
                "VALUES (?, ?, 'ecg', ?, ?, ?, 'normal', 'Normal sinus rhythm', 0.9, 0.1, ?, 'ecg', '1', ?, ?)",
                (analysis_id, user_id, f"{name}.mat", sha, len(content), result, int(time.time() * 1000), files_json))
            files[name] = db.execute("SELECT id FROM analyses WHERE file_sha256 = ?", (sha,)).fetchone()[0]
    for name, analysis in files.items():
        for what, path in [("waveform reads", f"/api/analyses/{analysis}/waveform?start_s=0&duration_s=10"),
                           ("PDF reports", f"/api/analyses/{analysis}/report.pdf")]:
            started = time.time()
            with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
                statuses = list(pool.map(lambda _: call("GET", path), range(8)))
            counts = {s: statuses.count(s) for s in sorted(set(statuses))}
            print(f"8 concurrent {what} of the {name} file: {counts} in {time.time() - started:.1f} s; "
                  f"peak RSS {peak_rss_mb():.0f} MB")
finally:
    server.terminate()
    server.wait()
