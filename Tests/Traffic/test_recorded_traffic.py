"""Real recordings for `policyc verify` (issue 49, item 4): a local ticket server, two clients
recorded through mitmproxy, and verify's verdict on each.

    POLICYC=.build/debug/policyc python3 -m pytest -q Tests/Traffic
    POLICYC_RECORD=1 ...   also copies the recordings to Tests/Fixtures/verify/mitmproxy-*.har

The server (127.0.0.1) answers as the guide describes Wandura under load: 503 with Retry-After,
per-item 429 for a paused prefetch, 503 with an item's retry_after, 404 not_ready past the last
episode, and tickets with expires_at. The good client follows the guide (callWithRetries of SPEC
§7.1 with the guide's policy); the bad one retries five times at once and ignores Retry-After.
"""
import datetime
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
POLICYC = os.environ.get("POLICYC", os.path.join(ROOT, ".build", "debug", "policyc"))
FILM = "the-heiress-returns"
LAST_EPISODE = 9


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TicketServer(BaseHTTPRequestHandler):
    """Per viewer_ref, a fixed script of trouble, so that both clients meet every answer."""
    seen = {}
    lock = threading.Lock()

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
        with self.lock:
            key = (body.get("viewer_ref"), tuple((e["episode_no"], e["intent"]) for e in body["episodes"]))
            n = self.seen.get(key, 0)
            self.seen[key] = n + 1
        episodes = body["episodes"]
        first = episodes[0]["episode_no"]
        if first == 1 and n < 6:                     # the first call: the API is busy
            return self.answer(503, {"error": {"code": "unavailable"}}, {"Retry-After": "1"})
        if first == 4 and n == 0:                    # a 502 without Retry-After
            return self.answer(502, {"error": {"code": "bad_gateway"}})
        items = []
        for e in episodes:
            item = {"film_ref": e["film_ref"], "episode_no": e["episode_no"], "intent": e["intent"]}
            if e["episode_no"] > LAST_EPISODE:
                item.update(status=404, error={"code": "not_ready"})
            elif e["intent"] == "prefetch" and e["episode_no"] == first + 2:
                item.update(status=429, error={"code": "prefetch_paused"})
            elif first == 7 and e["intent"] == "play" and n == 0:
                item.update(status=503, retry_after=1, error={"code": "unavailable"})
            else:
                expires = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)
                item.update(status=200, ticket="tk_%d" % e["episode_no"], expires_at=expires.isoformat())
            items.append(item)
        self.answer(200, {"items": items, "server_time": time.time()})

    def answer(self, status, payload, headers=None):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)


def post(url, body, timeout):
    """One attempt: (status or None, answer or None, Retry-After header or None)."""
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            return r.status, json.loads(r.read()), r.headers.get("Retry-After")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}"), e.headers.get("Retry-After")
    except OSError:
        return None, None, None


INTERACTIVE = {"maxRetries": 3, "baseMs": 500, "capMs": 8000, "timeoutMs": 8000, "deadlineMs": 15000}


def good_call(url, device, viewer, episodes):
    """The guide's client: one request for the episode and its prefetches; per SPEC §7.1 retries
    of what failed and is retryable (play items only: a refused prefetch is left alone), waiting
    Retry-After plus up to 1 s of jitter, else full jitter, at most 3 retries within 15 s."""
    p = INTERACTIVE
    start = time.monotonic()
    asks = list(episodes)
    for n in range(p["maxRetries"] + 1):
        timeout = min(p["timeoutMs"], p["deadlineMs"] - (time.monotonic() - start) * 1000) / 1000
        if timeout <= 0:
            return
        body = {"episodes": [{"film_ref": FILM, "episode_no": e, "intent": i} for e, i in asks],
                "union_info": device, "drm_kek": "pk-" + device, "viewer_ref": viewer}
        status, answer, retry_after = post(url, body, timeout)
        failed, item_retry_after = [], None
        if status is not None and 200 <= status < 300:
            for item in answer.get("items", []):
                s, code = item["status"], (item.get("error") or {}).get("code")
                retryable = s in (429, 500, 502) or (s == 503 and code != "not_ready")
                if item["intent"] == "play" and not 200 <= s < 300 and retryable:
                    failed.append((item["episode_no"], "play"))
                    item_retry_after = item.get("retry_after", item_retry_after)
        elif status is None or status in (429, 500, 502, 503):
            failed = [a for a in asks if a[1] == "play"]
        if not failed or n == p["maxRetries"]:
            return
        ra = float(retry_after) if retry_after else item_retry_after
        wait = ra * 1000 + random.random() * 1000 if ra else random.random() * min(p["capMs"], p["baseMs"] * 2 ** n)
        if (time.monotonic() - start) * 1000 + wait >= p["deadlineMs"]:
            return
        time.sleep(wait / 1000)
        asks = failed


def good_client(url):
    device, viewer = "pixel-8-a41c", "Qm9vS2Vy:7f3a91c2e4b8"
    good_call(url, device, viewer, [(1, "play"), (2, "prefetch"), (3, "prefetch")])
    good_call(url, device, viewer, [(4, "play"), (5, "prefetch"), (6, "prefetch")])
    good_call(url, device, viewer, [(7, "play"), (8, "prefetch"), (9, "prefetch")])
    good_call(url, device, viewer, [(9, "play"), (10, "prefetch")])


def bad_client(url):
    """Retries every failure five times at once, ignoring Retry-After."""
    body = {"episodes": [{"film_ref": FILM, "episode_no": 1, "intent": "play"},
                         {"film_ref": FILM, "episode_no": 2, "intent": "prefetch"},
                         {"film_ref": FILM, "episode_no": 3, "intent": "prefetch"}],
            "union_info": "galaxy-s23-77d0", "drm_kek": "pk", "viewer_ref": "c2Vzc2lvbg:91ab"}
    for _ in range(6):
        status, _, _ = post(url, body, 8)
        if status == 200:
            return


def record(client, har, server_port):
    port = free_port()
    proxy = subprocess.Popen(["mitmdump", "--mode", "reverse:http://127.0.0.1:%d" % server_port,
                              "--listen-host", "127.0.0.1", "--listen-port", str(port), "--set", "hardump=" + har, "-q"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        client("http://127.0.0.1:%d/v1/tickets" % port)
    finally:
        proxy.send_signal(signal.SIGINT)     # mitmdump writes the HAR as it shuts down
        proxy.wait(timeout=30)
    assert os.path.exists(har), "mitmdump wrote no HAR"


def verify(har):
    return subprocess.run([POLICYC, "verify", har, "--policy", os.path.join(ROOT, "Policies", "playback.yaml"),
                           "--format", "json"], capture_output=True, text=True)


def test_recorded_clients():
    assert shutil.which("mitmdump"), "mitmdump is not installed: python3 -m pip install mitmproxy"
    server = ThreadingHTTPServer(("127.0.0.1", 0), TicketServer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    folder = tempfile.mkdtemp()
    try:
        good, bad = os.path.join(folder, "good.har"), os.path.join(folder, "bad.har")
        record(good_client, good, server.server_address[1])
        record(bad_client, bad, server.server_address[1])

        passed = verify(good)
        assert passed.returncode == 0, passed.stdout + passed.stderr
        report = json.loads(passed.stdout)
        assert report["findings"] == []
        assert report["clients"][0]["retries"] >= 3

        failed = verify(bad)
        assert failed.returncode == 1, failed.stdout + failed.stderr
        rules = {f["rule"]: f for f in json.loads(failed.stdout)["findings"]}
        assert rules["traffic-retries-max"]["entries"] == [0, 1, 2, 3, 4, 5]
        assert "traffic-retry-after" in rules
        if os.environ.get("POLICYC_RECORD") == "1":
            for name, path in (("mitmproxy-good.har", good), ("mitmproxy-bad.har", bad)):
                shutil.copy(path, os.path.join(ROOT, "Tests", "Fixtures", "verify", name))
    finally:
        server.shutdown()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(subprocess.call([sys.executable, "-m", "pytest", "-q", __file__]))
