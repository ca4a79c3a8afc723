#!/usr/bin/env python3
"""Nothing half-written (issue 17 part 5): kill -9 a release `cardio serve` while uploads are in
flight, three rounds, and count what is left in the blob store.

Each round starts the server on the same data folder (its start-up sweep runs), sends ECG uploads
from 32 threads, kills the server with SIGKILL after a moment, and then, with the server down,
counts in the blob folder: files under a final name that no analysis names (orphans), temporary
files, and analyses whose files are missing (lost recordings). A last start shows what the sweep
at start leaves: temporary files younger than its 5-minute limit stay until the sweep six minutes
after the start.

    scripts/kill-uploads.py [path/to/cardio]     (default: target/release/cardio)
"""
import json
import math
import os
import signal
import sqlite3
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid

import loadserver

data = tempfile.mkdtemp(prefix="cardio-kill-")
db_path = os.path.join(data, "cardio.db")


def start():
    return loadserver.start(data)


def ecg_csv(seed):
    """A 20-s synthetic ECG at 250 Hz (a spike train at 72 bpm), unique per upload."""
    rows = ["time,ECG"]
    for i in range(5000):
        t = i / 250
        phase = (t * 1.2) % 1.0
        value = 1.2 * math.exp(-((phase - 0.5) ** 2) / 0.0004) + 0.01 * math.sin(seed + i)
        rows.append(f"{t:.3f},{value:.5f}")
    return ("\n".join(rows) + "\n").encode()


def upload(base, cookie, seed):
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"e{seed}.csv\"\r\n"
            f"Content-Type: text/csv\r\n\r\n").encode() + ecg_csv(seed) + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(base + "/api/predict/ecg/upload", body, {
        "Content-Type": f"multipart/form-data; boundary={boundary}", "Cookie": cookie})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status


def count():
    referenced = set()
    missing = 0
    with sqlite3.connect(db_path) as db:
        for main, files in db.execute("SELECT file_sha256, files_json FROM analyses"):
            hashes = {main} if main else set()
            hashes |= {f["sha256"] for f in json.loads(files or "[]")}
            referenced |= hashes
            missing += any(not os.path.exists(os.path.join(data, "blobs", h[:2], h)) for h in hashes)
        analyses = db.execute("SELECT COUNT(*) FROM analyses").fetchone()[0]
    orphans = temporary = 0
    root = os.path.join(data, "blobs")
    for shard in os.listdir(root) if os.path.isdir(root) else []:
        for name in os.listdir(os.path.join(root, shard)):
            if name.startswith("."):
                temporary += 1
            elif name not in referenced:
                orphans += 1
    return analyses, orphans, temporary, missing


server, base = start()
signup = urllib.request.Request(base + "/api/auth/signup", json.dumps({
    "full_name": "K", "email": "kill@load.test", "password": "load-test-pass", "role": "doctor"}).encode(),
    {"Content-Type": "application/json"})
with urllib.request.urlopen(signup) as response:
    cookie = response.headers["Set-Cookie"].split(";")[0]
seed = 0
for round_ in range(1, 4):
    if round_ > 1:
        server, base = start()
    stop = threading.Event()
    acknowledged = []

    def worker(offset):
        n = 0
        while not stop.is_set():
            try:
                if upload(base, cookie, offset * 100000 + round_ * 1000 + n) == 200:
                    acknowledged.append(1)
            except (urllib.error.URLError, ConnectionError, OSError):
                return
            n += 1

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(32)]
    for thread in threads:
        thread.start()
    time.sleep(2.5)
    server.send_signal(signal.SIGKILL)
    server.wait()
    stop.set()
    for thread in threads:
        thread.join()
    analyses, orphans, temporary, missing = count()
    print(f"round {round_}: {len(acknowledged)} uploads acknowledged before kill -9; now {analyses} "
          f"analyses, {orphans} orphan files, {temporary} temporary files, {missing} analyses missing a file")
server, base = start()
time.sleep(1)
server.terminate()
server.wait()
analyses, orphans, temporary, missing = count()
print(f"after a restart (start-up sweep): {analyses} analyses, {orphans} orphan files, "
      f"{temporary} temporary files, {missing} analyses missing a file")
