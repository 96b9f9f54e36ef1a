#!/usr/bin/env python3
"""Benchmarks/verify-large-har.py — `policyc verify` on a generated 100,000-entry HAR (~150 MB).

    python3 Benchmarks/verify-large-har.py [--entries N] [--policyc PATH] [--keep FILE]

Writes a recording in Chrome's shape (a third of the entries are images and scripts, the rest
ticket requests of 2,000 devices, with 503s retried after Retry-After plus jitter), then runs
`policyc verify` on it under /usr/bin/time and prints the wall time and peak memory. The target
(issue 49): ≤ 10 s and ≤ 400 MiB on 2 cores, with a release build.
"""
import argparse
import datetime
import json
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write(path, count):
    rnd = random.Random(49)
    base = datetime.datetime(2026, 12, 7, 10, 0, 0, tzinfo=datetime.timezone.utc)
    padding = "x" * 700    # headers, timings and cookies make real entries about 1.5 KB
    with open(path, "w") as f:
        f.write('{"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "pages": [], "entries": [\n')
        clock = {}
        for i in range(count):
            device = rnd.randrange(2000)
            t = clock.get(device, rnd.random() * 600) + 30 + rnd.random() * 60
            clock[device] = t
            stamp = (base + datetime.timedelta(seconds=t)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
            if i % 3 == 2:
                entry = {"startedDateTime": stamp, "time": 12.5, "request": {"method": "GET", "url": "https://cdn.wandura.example/p/%d.jpg" % i,
                         "headers": [{"name": "accept", "value": "image/*"}]}, "response": {"status": 200, "headers": [], "content": {"size": 2048, "mimeType": "image/jpeg"}},
                         "timings": {"wait": 10}, "_padding": padding}
            else:
                ep = clock.get(("episode", device), 0) + 1       # each device watches on: no ticket asked twice
                clock[("episode", device)] = ep
                body = {"episodes": [{"film_ref": "film-%d" % (device % 50), "episode_no": ep, "intent": "play"},
                                     {"film_ref": "film-%d" % (device % 50), "episode_no": ep + 1, "intent": "prefetch"}],
                        "union_info": "device-%d" % device, "drm_kek": "pk", "viewer_ref": "v%08x:%04x" % (device * 7919, device)}
                ok = rnd.random() > 0.05
                text = json.dumps({"items": [{"film_ref": "film-%d" % (device % 50), "episode_no": ep + k, "status": 200, "ticket": "tk",
                                              "expires_at": (base + datetime.timedelta(seconds=t + 3600)).isoformat()} for k in (0, 1)]} if ok
                                  else {"error": {"code": "unavailable"}})
                entry = {"startedDateTime": stamp, "time": 80.0, "request": {"method": "POST", "url": "https://api.wandura.example/v1/tickets",
                         "headers": [{"name": "content-type", "value": "application/json"}], "postData": {"mimeType": "application/json", "text": json.dumps(body)}},
                         "response": {"status": 200 if ok else 503, "headers": [] if ok else [{"name": "Retry-After", "value": "1"}],
                                      "content": {"size": len(text), "mimeType": "application/json", "text": text}},
                         "timings": {"wait": 75}, "_padding": padding}
            f.write(("," if i else "") + json.dumps(entry) + "\n")
        f.write("]}}\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--policyc", default=os.path.join(ROOT, ".build", "release", "policyc"))
    parser.add_argument("--keep")
    args = parser.parse_args()
    path = args.keep or os.path.join(tempfile.mkdtemp(), "large.har")
    write(path, args.entries)
    print("recording: %s, %d entries, %.0f MB" % (path, args.entries, os.path.getsize(path) / 1e6))
    run = subprocess.run(["/usr/bin/time", "-f", "%e s, %M KiB peak", args.policyc, "verify", path, "--format", "json",
                          "--policy", os.path.join(ROOT, "Policies", "playback.yaml")], capture_output=True, text=True)
    report = json.loads(run.stdout)
    print("exit %d, %d findings, %d clients" % (run.returncode, len(report["findings"]), len(report["clients"])))
    print(run.stderr.strip().splitlines()[-1])
    if not args.keep:
        os.remove(path)


if __name__ == "__main__":
    sys.exit(main())
