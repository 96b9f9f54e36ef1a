"""Real recordings for `policyc verify` (issue 49, item 4): a local ticket server, two clients
recorded through mitmproxy, and verify's verdict on each.

    POLICYC=.build/debug/policyc python3 -m pytest -q Tests/Traffic
    POLICYC_RECORD=1 ...   also copies the recordings to Tests/Fixtures/verify/mitmproxy-*.har

The server (127.0.0.1) answers as the guide describes Wandura under load: 503 with Retry-After,
per-item 429 for a paused prefetch, 503 with an item's retry_after, 404 not_ready past the last
episode, and tickets with expires_at. The good client is good_client.ts on the generated TypeScript
(`callWithRetries` and `itemsToRetry` of SPEC §7); the bad one retries five times at once and
ignores Retry-After.
"""
import datetime
import json
import os
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


def build_good_client(folder):
    """The good client (good_client.ts) compiled with the module policyc generates from Policies/:
    the guide's client is the generated `callWithRetries` and `itemsToRetry`, not code of ours."""
    for tool in ("tsc", "node"):
        assert shutil.which(tool), tool + " is not installed (Debian: node-typescript, nodejs)"
    subprocess.run([POLICYC, "generate", "--targets", "typescript", "--out", os.path.join(folder, "generated"),
                    os.path.join(ROOT, "Policies")], check=True, capture_output=True)
    shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "good_client.ts"), folder)
    compiled = subprocess.run(["tsc", "--strict", "--module", "commonjs", "--target", "es2020", "--lib", "es2020,dom",
                               "--rootDir", folder, "--outDir", os.path.join(folder, "js"), os.path.join(folder, "good_client.ts")],
                              capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    script = os.path.join(folder, "js", "good_client.js")

    def good_client(url):
        ran = subprocess.run(["node", script, url], capture_output=True, text=True, timeout=120)
        assert ran.returncode == 0, ran.stdout + ran.stderr
        # The first call meets six 503s (retries used), the others end with every needed ticket.
        assert ran.stdout.split() == ["retriesUsed", "succeeded", "succeeded", "succeeded"], ran.stdout
    return good_client


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
        record(build_good_client(folder), good, server.server_address[1])
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
