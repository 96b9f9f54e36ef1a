#!/usr/bin/env python3
"""Writes the HAR fixtures of Tests/PolicyTrafficTests in the shapes of three recorders' exports.

    python3 Tests/Fixtures/verify/make_fixtures.py

chrome-clean.har: Chrome DevTools' export of a client that follows the guide (batching, Retry-After
plus jitter, full jitter, a refused prefetch left alone, a ticket reused). charles-bad.har:
Charles' export (base64 answers, +01:00 times) of a client that breaks a rule at known entries.
mitmproxy-network.har: mitmproxy's hardump shape (microsecond times, an aborted attempt).
"""
import base64
import datetime
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = datetime.datetime(2026, 12, 7, 10, 0, 0, tzinfo=datetime.timezone.utc)
FILM = "the-heiress-returns"
VIEWER = "k3Jd9sQm2vXa7LpT0bWc1e:Zr8uYq2nM4a"


def body(asks, device="iphone-7f3a", viewer=VIEWER):
    return {"episodes": [{"film_ref": FILM, "episode_no": e, "intent": i} for e, i in asks],
            "union_info": device, "drm_kek": "pk-" + device, "viewer_ref": viewer}


def answer(asks, statuses, at):
    items = []
    for (e, i), st in zip(asks, statuses):
        words = str(st).split()
        item = {"film_ref": FILM, "episode_no": e, "intent": i, "status": int(words[0])}
        for w in words[1:]:
            if w.startswith("retry_after="):
                item["retry_after"] = int(w[12:])
            else:
                item["error"] = {"code": w, "message": "not yet"}
        if item["status"] == 200:
            item["ticket"] = "tk_%d" % e
            item["expires_at"] = (BASE + datetime.timedelta(seconds=at + 3600)).isoformat().replace("+00:00", "Z")
        items.append(item)
    return {"data": {"results": items}, "request_id": "r1"}


def entry(shape, at, took, asks, status=200, statuses=None, retry_after=None, error=None, **who):
    tz = datetime.timezone(datetime.timedelta(hours=1)) if shape == "charles" else datetime.timezone.utc
    started = (BASE + datetime.timedelta(seconds=at)).astimezone(tz)
    stamp = started.isoformat(timespec="microseconds" if shape == "mitmproxy" else "milliseconds")
    if shape == "chrome":
        stamp = stamp.replace("+00:00", "Z")
    req = {"method": "POST", "url": "https://api.wandura.example/v1/tickets?app=ios", "httpVersion": "HTTP/1.1",
           "headers": [{"name": "content-type", "value": "application/json"}], "queryString": [], "cookies": [],
           "headersSize": -1, "bodySize": 200,
           "postData": {"mimeType": "application/json", "text": json.dumps(body(asks, **who))}}
    headers = [{"name": "Content-Type", "value": "application/json"}]
    if retry_after is not None:
        headers.append({"name": "Retry-After", "value": str(retry_after)})
    if error is not None or status == 0:
        resp = {"status": 0, "statusText": "", "httpVersion": "", "headers": [], "cookies": [],
                "content": {"size": 0, "mimeType": "x-unknown"}, "redirectURL": "", "headersSize": -1, "bodySize": -1}
        if shape == "chrome":
            resp["_error"] = error
    else:
        payload = answer(asks, statuses or [200] * len(asks), at + took) if status == 200 else {"error": {"code": "unavailable"}}
        text = json.dumps(payload)
        content = {"size": len(text), "mimeType": "application/json", "text": text}
        if shape == "charles":
            content["text"] = base64.b64encode(text.encode()).decode()
            content["encoding"] = "base64"
        resp = {"status": status, "statusText": "", "httpVersion": "HTTP/1.1", "headers": headers, "cookies": [],
                "content": content, "redirectURL": "", "headersSize": -1, "bodySize": len(text)}
    e = {"startedDateTime": stamp, "time": took * 1000, "request": req, "response": resp, "cache": {},
         "timings": {"send": 0, "wait": took * 1000, "receive": 0}}
    if shape == "chrome":
        e["_resourceType"] = "fetch"
        e["_priority"] = "High"
    if shape == "charles":
        e["serverIPAddress"] = "10.0.0.5"
    if shape == "mitmproxy" and error is not None:
        e["response"]["_error"] = error
    return e


def noise(shape, at):
    """A request that is no ticket request: an image, and a GET of the catalog."""
    stamp = (BASE + datetime.timedelta(seconds=at)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return {"startedDateTime": stamp, "time": 20, "request": {"method": "GET", "url": "https://cdn.wandura.example/poster.jpg", "headers": []},
            "response": {"status": 200, "headers": [], "content": {"size": 10, "mimeType": "image/jpeg"}}, "timings": {}}


def har(entries, creator):
    return {"log": {"version": "1.2", "creator": {"name": creator, "version": "1"}, "pages": [], "entries": entries}}


def write(name, value):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(value, f, indent=2)
        f.write("\n")


P3 = [(4, "play"), (5, "prefetch"), (6, "prefetch")]
clean = [
    noise("chrome", 0),
    # entries 1-3: a play with its prefetches; the whole answer 503 Retry-After 2; retried with jitter.
    entry("chrome", 0.1, 0.12, P3, status=503, retry_after=2),
    entry("chrome", 2.6, 0.1, P3, statuses=["503 retry_after=1", "200", "429"]),
    entry("chrome", 4.2, 0.1, [(4, "play")]),
    # entry 4: a 502, retried under full jitter (entry 5).
    entry("chrome", 30, 0.1, [(7, "play"), (8, "prefetch")], status=502),
    entry("chrome", 30.35, 0.1, [(7, "play"), (8, "prefetch")], statuses=["200", "404 not_ready"]),
    # entry 6: the refused prefetch of 6 asked with intent play when the viewer got there.
    entry("chrome", 95, 0.1, [(6, "play")]),
    noise("chrome", 96),
    # entry 8: episode 4 again an hour later, its ticket expired.
    entry("chrome", 3700, 0.1, [(4, "play"), (5, "prefetch")]),
]
write("chrome-clean.har", har(clean, "WebInspector"))

bad = [
    # 0-5: 503 with Retry-After 2, retried five times at once (retries-max at 4, retry-after at 1-5, backoff: none, Retry-After).
    entry("charles", 0, 0.1, P3, status=503, retry_after=2),
] + [entry("charles", 0.1 + 0.11 * k, 0.1, P3, status=503, retry_after=2) for k in range(1, 6)] + [
    # 6-7: a paused prefetch asked again (prefetch-retried at 7).
    entry("charles", 20, 0.1, [(7, "play"), (8, "prefetch")], statuses=["200", "429"]),
    entry("charles", 20.5, 0.1, [(8, "prefetch")]),
    # 8-9: a 404 not_ready asked again (not-retryable at 9).
    entry("charles", 40, 0.1, [(20, "play")], statuses=["404 not_ready"]),
    entry("charles", 40.3, 0.1, [(20, "play")], statuses=["404 not_ready"]),
    # 10-11: episode 9 prefetched on its own (batch at 11).
    entry("charles", 60, 0.1, [(8, "play")]),
    entry("charles", 60.2, 0.1, [(9, "prefetch")]),
    # 12: episode 8 asked again while its ticket is good (ticket-reuse at 12).
    entry("charles", 90, 0.1, [(8, "play")]),
    # 13: the same device with an e-mail address as viewer_ref (viewer-ref at 13).
    entry("charles", 120, 0.1, [(1, "play")], viewer="ana.silva@example.com"),
]
write("charles-bad.har", har(bad, "Charles Proxy"))

network = [
    # 0-1: an attempt aborted after 2 s (timeout-min at 0), then a ticket.
    entry("mitmproxy", 0, 2.0, [(4, "play")], error="Client disconnected (timeout)"),
    entry("mitmproxy", 2.3, 0.1, [(4, "play")]),
    # 2-3: a refused connection retried at once: no finding.
    entry("mitmproxy", 30, 0.01, [(5, "play")], error="Connection refused"),
    entry("mitmproxy", 30.2, 0.1, [(5, "play")]),
]
write("mitmproxy-network.har", har(network, "mitmproxy"))
