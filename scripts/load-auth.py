#!/usr/bin/env python3
"""Sign-in and sign-up under bursts (issue 17 part 3), against a release build of `cardio serve`.

Starts the server on a fresh SQLite database, then:
  1. 40 parallel sign-ins with a wrong password for one account: how many reached the password
     check (401) and how many were refused before it (429);
  2. 200 parallel sign-ups, each from another client address (the server trusts 127.0.0.1 as a
     proxy, so X-Forwarded-For names the client and the per-address sign-up limit does not hide
     the Argon2 bound), and 200 from one address;
and prints the server's peak resident memory (VmHWM) after each step.

    scripts/load-auth.py [path/to/cardio]     (default: target/release/cardio)
"""
import concurrent.futures
import json
import tempfile
import urllib.error
import urllib.request

import loadserver

data = tempfile.mkdtemp(prefix="cardio-load-auth-")
server, base = loadserver.start(data, "--trusted-proxies", "127.0.0.1")
if server is None:
    # A server from before --trusted-proxies: every request then counts as 127.0.0.1.
    print("(this server has no --trusted-proxies: X-Forwarded-For is ignored)")
    server, base = loadserver.start(data)


def post(path, body, client=None):
    headers = {"Content-Type": "application/json"}
    if client:
        headers["X-Forwarded-For"] = client
    request = urllib.request.Request(base + path, json.dumps(body).encode(), headers)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status
    except urllib.error.HTTPError as err:
        return err.code


def peak_rss_mb():
    return loadserver.peak_rss_mb(server)


def burst(calls):
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(calls)) as pool:
        statuses = list(pool.map(lambda call: call(), calls))
    return {code: statuses.count(code) for code in sorted(set(statuses))}


try:
    print(f"server at {base}, idle peak RSS {peak_rss_mb():.0f} MB")
    assert post("/api/auth/signup", {"full_name": "A", "email": "target@load.test",
                                     "password": "load-test-pass", "role": "doctor"}) == 201
    wrong = burst([lambda: post("/api/auth/login", {"email": "target@load.test", "password": "nope-nope"})] * 40)
    print(f"40 parallel wrong passwords: {wrong.get(401, 0)} reached the password check (401), "
          f"{wrong.get(429, 0)} refused before it (429); peak RSS {peak_rss_mb():.0f} MB")
    spread = burst([
        (lambda i=i: post("/api/auth/signup", {"full_name": "L", "email": f"spread{i}@load.test",
                                               "password": "load-test-pass", "role": "doctor"},
                          client=f"10.{i // 250}.{i % 250}.1"))
        for i in range(200)])
    print(f"200 parallel sign-ups from 200 addresses: {spread}; peak RSS {peak_rss_mb():.0f} MB")
    same = burst([
        (lambda i=i: post("/api/auth/signup", {"full_name": "L", "email": f"same{i}@load.test",
                                               "password": "load-test-pass", "role": "doctor"},
                          client="192.0.2.1"))
        for i in range(200)])
    print(f"200 parallel sign-ups from one address: {same}; peak RSS {peak_rss_mb():.0f} MB")
finally:
    server.terminate()
    server.wait()
