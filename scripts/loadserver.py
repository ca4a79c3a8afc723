"""What the load scripts (load-auth.py, load-decode.py, kill-uploads.py) share: the release binary
they test, starting `cardio serve` on a data folder of its own, and reading its peak memory."""
import os
import re
import subprocess
import sys
import threading


def binary():
    """The `cardio` binary: the first argument, else target/release/cardio."""
    return sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.environ.get("CARGO_TARGET_DIR", "target"), "release", "cardio")


def start(data, *flags, log=False):
    """Starts `cardio serve` on a free port with its database and blobs under `data`; returns the
    process and its base URL, or (None, None) when it does not start (e.g. an unknown flag). Its
    log is read on (to stderr when `log`), so that a full pipe never blocks it."""
    process = subprocess.Popen(
        [binary(), "serve", "--addr", "127.0.0.1:0", "--data-dir", data,
         "--database-url", f"sqlite://{data}/cardio.db", "--web-dir", data, *flags],
        stdout=subprocess.PIPE, stderr=None if log else subprocess.DEVNULL, text=True,
        env=dict(os.environ, RUST_LOG=os.environ.get("RUST_LOG", "warn")))
    found = re.search(r"http://\S+", process.stdout.readline())
    if not found:
        process.wait()
        return None, None
    drain = (lambda: [sys.stderr.write(line) for line in process.stdout]) if log else process.stdout.read
    threading.Thread(target=drain, daemon=True).start()
    return process, found.group(0)


def peak_rss_mb(process):
    """The process's peak resident memory so far (VmHWM), MB."""
    with open(f"/proc/{process.pid}/status") as status:
        for row in status:
            if row.startswith("VmHWM:"):
                return int(row.split()[1]) / 1024
    return float("nan")
