"""`policyc lsp` at the level of bytes: the life cycle and its exit status, and input that is not
what the protocol says. Standard output must hold protocol messages and nothing else, whatever
comes in; errors are JSON-RPC errors and the server goes on."""

import json
import subprocess

import pytest

from conftest import POLICYC, canonical


def frame(body):
    if not isinstance(body, bytes):
        body = json.dumps(body).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def request(id, method, params=None):
    return frame({"jsonrpc": "2.0", "id": id, "method": method, "params": params or {}})


def notification(method, params=None):
    return frame({"jsonrpc": "2.0", "method": method, "params": params or {}})


INITIALIZE = request(1, "initialize", {"capabilities": {}})


def run(data, timeout=60):
    """Runs the server on `data` (then end of input); returns its messages, parsed from a stdout that
    must be nothing but Content-Length frames, and the exit status."""
    done = subprocess.run([POLICYC, "lsp"], input=data, capture_output=True, timeout=timeout)
    out, messages = done.stdout, []
    while out:
        head, sep, rest = out.partition(b"\r\n\r\n")
        assert sep, f"stdout holds bytes that are not a message: {out[:200]!r}"
        lines = head.split(b"\r\n")
        assert lines[0].startswith(b"Content-Length: "), lines
        length = int(lines[0][len(b"Content-Length: "):])
        assert len(rest) >= length
        messages.append(json.loads(rest[:length]))
        out = rest[length:]
    for m in messages:
        assert m["jsonrpc"] == "2.0"
    return messages, done.returncode


def response(messages, id):
    found = [m for m in messages if m.get("id") == id and "method" not in m]
    assert len(found) == 1, (id, messages)
    return found[0]


def errors(messages):
    return [m["error"]["code"] for m in messages if "error" in m]


def test_exit_after_shutdown_is_zero():
    messages, status = run(INITIALIZE + notification("initialized") + request(2, "shutdown") + notification("exit"))
    assert status == 0
    assert response(messages, 2)["result"] is None
    assert "positionEncoding" in response(messages, 1)["result"]["capabilities"]


def test_exit_without_shutdown_is_one():
    assert run(INITIALIZE + notification("exit"))[1] == 1
    assert run(notification("exit"))[1] == 1


def test_end_of_input_without_exit():
    assert run(INITIALIZE)[1] == 1
    assert run(INITIALIZE + request(2, "shutdown"))[1] == 0
    assert run(b"")[1] == 1


def test_requests_after_shutdown_are_refused():
    messages, status = run(INITIALIZE + request(2, "shutdown") + request(3, "textDocument/hover", {
        "textDocument": {"uri": "file:///p.yaml"}, "position": {"line": 0, "character": 0}}) + notification("exit"))
    assert response(messages, 3)["error"]["code"] == -32600
    assert status == 0


def test_requests_before_initialize():
    messages, _ = run(request(5, "textDocument/hover") + INITIALIZE + request(6, "shutdown") + notification("exit"))
    assert response(messages, 5)["error"]["code"] == -32002
    assert response(messages, 6)["result"] is None


def test_unknown_methods():
    messages, status = run(INITIALIZE + notification("custom/notification") + notification("$/cancelRequest", {"id": 1})
                           + request(2, "custom/request") + request(3, "$/custom") + request(4, "shutdown")
                           + notification("exit"))
    assert response(messages, 2)["error"]["code"] == -32601
    assert response(messages, 3)["error"]["code"] == -32601
    # Notifications get no answer: only the three requests and initialize are answered.
    assert sorted(m["id"] for m in messages if "id" in m) == [1, 2, 3, 4]
    assert status == 0


@pytest.mark.parametrize("body, code", [
    (b"{not json", -32700),
    (b"", -32700),
    (b"\xff\xfe{}", -32700),
    (b"[" * 100000, -32700),
    (b'"just a string"', -32600),
    (b"[]", -32600),
    (b'{"jsonrpc": "2.0", "id": 9}', -32600),
    (b'{"jsonrpc": "2.0", "id": {"no": 1}, "method": "shutdown"}', -32600),
    (b'{"jsonrpc": "1.0", "id": 9, "method": "shutdown"}', -32600),
    (b'{"jsonrpc": "2.0", "id": 9, "method": "textDocument/hover", "params": 3}', -32602),
    (b'{"jsonrpc": "2.0", "id": 9, "method": "textDocument/hover", "params": {"position": {"line": 0}}}', -32602),
    (b'{"jsonrpc": "2.0", "id": 9, "method": "textDocument/completion", "params": {"textDocument": {"uri": 5}}}', -32602),
])
def test_malformed_messages_get_errors(body, code):
    messages, status = run(INITIALIZE + frame(body) + request(2, "shutdown") + notification("exit"))
    assert errors(messages) == [code], messages
    assert response(messages, 2)["result"] is None
    assert status == 0


@pytest.mark.parametrize("raw", [
    b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n",
    b"Content-Length: twelve\r\n\r\n",
    b"Content-Length: -5\r\n\r\n",
    b"garbage without a header\r\n\r\n",
    b"Content-Length: 99999999999999999999999\r\n\r\n",
    b"X" * 20000 + b"\r\n\r\n",
])
def test_broken_headers_get_errors_and_the_server_goes_on(raw):
    messages, status = run(INITIALIZE + raw + request(2, "shutdown") + notification("exit"))
    assert errors(messages) == [-32700], messages
    assert response(messages, 2)["result"] is None
    assert status == 0


def test_a_message_without_headers_before_a_good_one():
    body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "shutdown"}).encode()
    messages, status = run(INITIALIZE + body + request(2, "shutdown") + notification("exit"))
    assert -32700 in errors(messages)
    assert response(messages, 2)["result"] is None
    assert status == 0


def test_a_body_over_the_limit_is_skipped():
    big = b'{"jsonrpc": "2.0", "method": "x", "params": "' + b"a" * (17 << 20) + b'"}'
    messages, status = run(INITIALIZE + frame(big) + request(2, "shutdown") + notification("exit"), timeout=120)
    assert errors(messages) == [-32600]
    assert response(messages, 2)["result"] is None
    assert status == 0


def test_input_ending_inside_a_message():
    messages, status = run(INITIALIZE + b"Content-Length: 500\r\n\r\n{\"jsonrpc\"")
    assert status == 1


def test_diagnostics_for_a_document_over_one_mib_and_hostile_text():
    text = canonical("big") + "#" + "x" * (1 << 20)
    deep = "description: " + "[" * 40 + "x" + "]" * 40 + "\n"
    # YAML escapes: the policy name holds ESC, BEL and a right-to-left override.
    escapes = 'version: 1\npolicy: "\\u001b]0;title\\u0007\\u202e"\n'
    def open_(uri, text):
        return notification("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    data = (INITIALIZE + notification("initialized") + open_("file:///tmp/big.yaml", text)
            + open_("untitled:Untitled-1", deep) + open_("untitled:Untitled-2", escapes)
            + request(2, "shutdown") + notification("exit"))
    messages, status = run(data)
    published = {m["params"]["uri"]: m["params"]["diagnostics"] for m in messages if m.get("method") == "textDocument/publishDiagnostics"}
    assert [d["code"] for d in published["file:///tmp/big.yaml"]] == ["input-limit"]
    assert [d["code"] for d in published["untitled:Untitled-1"]] == ["input-limit"]
    shown = published["untitled:Untitled-2"]
    assert "bad-name" in [d["code"] for d in shown]
    # Text from the policy is escaped: no terminal escape or bidi control reaches the editor.
    assert not any("\x1b" in d["message"] or "\u202e" in d["message"] for d in shown)
    assert status == 0


def test_command_line():
    help_ = subprocess.run([POLICYC, "lsp", "--help"], capture_output=True, text=True)
    assert help_.returncode == 0
    for section in ("OVERVIEW: ", "USAGE: policyc lsp", "OPTIONS:", "EXIT STATUS:"):
        assert section in help_.stdout
    usage = subprocess.run([POLICYC, "lsp", "Policies"], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert usage.returncode == 2 and usage.stdout == ""
    assert usage.stderr.startswith("error: unexpected argument 'Policies'")
    assert "lsp" in subprocess.run([POLICYC, "--help"], capture_output=True, text=True).stdout


def test_positions_out_of_the_text():
    uri = "file:///tmp/p.yaml"
    data = INITIALIZE + notification("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": canonical("edge")}})
    big = 9223372036854775807
    for i, (line, character) in enumerate([(big, big), (-big, -big), (0, big), (big, 0), (3, -1)]):
        position = {"line": line, "character": character}
        data += request(10 + i, "textDocument/hover", {"textDocument": {"uri": uri}, "position": position})
        data += request(20 + i, "textDocument/completion", {"textDocument": {"uri": uri}, "position": position})
        data += notification("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2 + i}, "contentChanges": [
            {"range": {"start": position, "end": {"line": 0, "character": 0}}, "text": "# edge\n"}]})
    messages, status = run(data + request(2, "shutdown") + notification("exit"))
    for i in range(5):
        assert "error" not in response(messages, 10 + i)
        assert "error" not in response(messages, 20 + i)
    assert status == 0


def test_mutated_sessions_never_crash():
    """A real session, its bytes mutated at random (seeded): every run ends with 0 or 1, never a
    signal, and standard output is still nothing but messages (`run` checks)."""
    import random
    rng = random.Random(20251130)
    uri = "file:///tmp/m.yaml"
    text = canonical("mutated", ("cap: 8s", "cap: 8 sec"), ("description: Ticket", "description: é😀 Ticket"))
    session = (INITIALIZE + notification("initialized")
               + notification("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
               + notification("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
                   {"range": {"start": {"line": 8, "character": 18}, "end": {"line": 8, "character": 19}}, "text": "4😀\n"}]})
               + request(2, "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 8, "character": 8}})
               + request(3, "textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": 9, "character": 6}})
               + request(4, "textDocument/codeAction", {"textDocument": {"uri": uri}, "range": {
                   "start": {"line": 0, "character": 0}, "end": {"line": 40, "character": 0}}, "context": {"diagnostics": []}})
               + request(5, "shutdown") + notification("exit"))
    for _ in range(150):
        data = bytearray(session)
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(data))
            choice = rng.random()
            if choice < 0.4:
                data[i] = rng.randrange(256)
            elif choice < 0.7:
                del data[i:i + rng.randint(1, 40)]
            else:
                data[i:i] = rng.choice([b"{", b"}", b"[", b"\"", b"\\u", b"\r\n\r\n", b"Content-Length: 3\r\n", b"9" * 20, b"\xf0\x9f"])
        messages, status = run(bytes(data))
        assert status in (0, 1), status
