"""A scripted LSP client that times `policyc lsp` from didChange to publishDiagnostics.

    python3 Benchmarks/lsp_client.py --policyc PATH --big FILE [--runs N]

For each document it starts `policyc lsp`, initializes as VS Code does (UTF-16 positions,
incremental sync), opens the document and waits for its findings, then sends N changes one at a
time, each waiting for the publishDiagnostics of its version: the time from the first byte of the
didChange written to the last byte of that publishDiagnostics read. The changes flip a value that
changes the findings (maxRetries 3 <-> 4), so each answer is a real check.

Documents: the canonical policy (Policies/playback.yaml) and FILE (a ~1 MiB policy), each edited
with an incremental change; FILE also with the whole text sent (full sync), for information.
Prints one JSON object: {"canonical": {...}, "big": {...}, "big-full": {...}}, each with p50, p95,
max and mean in milliseconds and the number of changes timed (a few warm-up changes are not), and
the server's own CPU time a change (from /proc: what the wall times would be on an idle machine).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WARMUP = 5


class Server:
    def __init__(self, policyc):
        self.proc = subprocess.Popen([policyc, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)
        self.out = self.proc.stdout
        self.next_id = 1

    def send(self, message):
        body = json.dumps(message).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def receive(self):
        length = None
        while True:
            line = self.out.readline()
            if not line:
                raise RuntimeError("policyc lsp closed its output")
            line = line.strip()
            if not line:
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        body = b""
        while len(body) < length:
            chunk = self.out.read(length - len(body))
            if not chunk:
                raise RuntimeError("policyc lsp closed its output inside a message")
            body += chunk
        return json.loads(body)

    def request(self, method, params):
        id_ = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": id_, "method": method, "params": params})
        while True:
            m = self.receive()
            if m.get("id") == id_ and "method" not in m:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result")

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics_for(self, uri, version):
        while True:
            m = self.receive()
            if m.get("method") == "textDocument/publishDiagnostics":
                p = m["params"]
                if p["uri"] == uri and p.get("version") == version:
                    return p["diagnostics"]

    def cpu_seconds(self):
        """The server's CPU time so far (user + system), from /proc; None where there is none."""
        try:
            fields = open(f"/proc/{self.proc.pid}/stat").read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return None

    def close(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        status = self.proc.wait(timeout=30)
        if status != 0:
            raise RuntimeError(f"policyc lsp exited {status} after shutdown and exit")


def utf16_position(text, index):
    line = text.count("\n", 0, index)
    start = text.rfind("\n", 0, index) + 1
    return {"line": line, "character": len(text[start:index].encode("utf-16-le")) // 2}


def time_changes(policyc, text, runs, full):
    """Times `runs` changes of the first `maxRetries: 3` in `text`, flipping it to 4 and back."""
    server = Server(policyc)
    server.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {
        "textDocument": {"synchronization": {"didSave": True}, "publishDiagnostics": {"relatedInformation": True}}}})
    server.notify("initialized", {})
    uri = "file:///benchmark/policy.yaml"
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    server.diagnostics_for(uri, 1)
    # The first `maxRetries: 3` of an interactive profile from the middle of the text on (for the
    # canonical policy, its first).
    needle = "maxRetries: 3"
    at = text.index(needle, len(text) // 2 if len(text) > 100_000 else 0)
    while "interactive" not in text[text.rfind("\n", 0, text.rfind("\n", 0, at)):at]:
        at = text.index(needle, at + 1)
    index = at + len("maxRetries: ")
    position = utf16_position(text, index)
    samples, counts = [], set()
    current = "3"
    cpu_start = None
    for version in range(2, runs + WARMUP + 2):
        if version == WARMUP + 2:
            cpu_start = server.cpu_seconds()
        new = "4" if current == "3" else "3"
        if full:
            changes = [{"text": text[:index] + new + text[index + 1:]}]
        else:
            changes = [{"range": {"start": position, "end": {"line": position["line"], "character": position["character"] + 1}},
                        "text": new}]
        started = time.perf_counter()
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes})
        found = server.diagnostics_for(uri, version)
        elapsed = time.perf_counter() - started
        counts.add(len(found))
        current = new
        if version >= WARMUP + 2:
            samples.append(elapsed * 1000)
    cpu_end = server.cpu_seconds()
    server.close()
    if len(counts) < 2:
        raise RuntimeError(f"the changes did not change the findings ({counts}): nothing was timed")
    samples.sort()
    return {
        "runs": len(samples),
        "p50_ms": round(statistics.median(samples), 3),
        "p95_ms": round(samples[min(len(samples) - 1, int(round(0.95 * (len(samples) - 1))))], 3),
        "max_ms": round(samples[-1], 3),
        "mean_ms": round(statistics.fmean(samples), 3),
        "bytes": len(text.encode("utf-8")),
        # What the server itself spent a change, whatever else the machine was doing.
        "server_cpu_ms": round((cpu_end - cpu_start) * 1000 / len(samples), 3) if cpu_start is not None and cpu_end is not None else None,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--policyc", required=True)
    ap.add_argument("--big", required=True, help="a ~1 MiB policy with a `maxRetries: 3`")
    ap.add_argument("--runs", type=int, default=200)
    a = ap.parse_args()
    canonical = open(os.path.join(ROOT, "Policies", "playback.yaml"), encoding="utf-8").read()
    big = open(a.big, encoding="utf-8").read()
    results = {
        "canonical": time_changes(a.policyc, canonical, a.runs, full=False),
        "big": time_changes(a.policyc, big, max(20, a.runs // 4), full=False),
        "big-full": time_changes(a.policyc, big, max(20, a.runs // 4), full=True),
    }
    json.dump(results, sys.stdout, indent=2, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
