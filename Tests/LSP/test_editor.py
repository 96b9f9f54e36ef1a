"""`policyc lsp` driven by a real LSP client (pytest-lsp), with the capabilities of Neovim and of
VS Code: findings equal to `policyc lint --format json`, hover and completion (code actions: test_fixes.py).
pytest-lsp checks every answer against the client's capabilities; its warnings fail the test."""


import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from conftest import canonical, change, encoding_of, lint_json, lsp_position, mark_index, open_policy, position_of



def expected(client, name, text):
    """lint's findings for Policies/`name`, as (rule, severity, line, character) in the client's
    encoding, with lint's message."""
    encoding = encoding_of(client)
    out = []
    for d in lint_json(client.t_folder).get(f"Policies/{name}", []):
        line, character = lsp_position(text, mark_index(text, d["line"], d["column"]), encoding)
        out.append(((d["rule"], 1 if d["severity"] == "error" else 2, line, character), d["message"]))
    return sorted(out)


def got(client, uri):
    out = []
    for d in client.diagnostics[uri]:
        assert d.source == "policyc"
        assert (d.range.end.line, d.range.end.character) >= (d.range.start.line, d.range.start.character)
        out.append(((d.code, d.severity.value, d.range.start.line, d.range.start.character), d.message))
    return sorted(out)


def assert_same_as_lint(client, uri, name, text):
    want, have = expected(client, name, text), got(client, uri)
    assert [w[0] for w in want] == [h[0] for h in have], f"lint: {want}\nlsp: {have}"
    for (_, message), (_, shown) in zip(want, have):
        assert shown.startswith(message), (message, shown)
    assert want, "the policy was meant to have findings"


POLICIES = {
    "errors.yaml": canonical("errors", ("maxRetries: 3", "maxRetries: 4"), ("cap: 8s", "cap: 8 sec"),
                             ("ratio: 10%", "ratio: 15"), ("viewerRef: per-viewer-device", "viewerRef: per-session")),
    "astral.yaml": canonical(
        "astral",
        ("description: Ticket requests made by the iOS and Android players.", "description: Tickets für 視聴者 🎬🎬 é"),
        ("retryOn: [network, 429, 500, 502, 503]", "retryOn: [\"😀\", network, 429, 500, 502, 503, 404]"),
        ("  neverRetry:\n    - status: 503\n      code: not_ready\n", "  neverRetry: [{code: \"é😀\", status: 5x3}]\n"),
        ("    interactive:", "    😀interactive:")),
    "crlf.yaml": canonical("crlf", ("maxRetries: 3", "maxRetries: 4"), ("deadline: 15s", "deadline: 20s"),
                           ("  ahead: 2", "  ahead: 🎬")).replace("\n", "\r\n"),
    "bom.yaml": "\ufeff" + canonical("bom", ("timeout: 8s", "timeout: 1s"), ("honor: true", "honor: yes"),
                                     ("code: not_ready", "code: \"😀\"\n      code: again")).replace("\n", "\r\n"),
    "separators.yaml": canonical("separators", ("description: Ticket requests made by the iOS and Android players.",
                                                "description: \"one\u2028two\u0085three\""),
                                 ("maxRetries: 3", "maxRetries: 9")),
    "syntax.yaml": canonical("syntax", ("backoff: full-jitter", "backoff: [full-jitter 🎬")),
    "cr.yaml": canonical("cr", ("cap: 8s", "cap: 8 sec"), ("description: Ticket", "description: é😀 Ticket")).replace("\n", "\r"),
}


@pytest.mark.parametrize("name", sorted(POLICIES))
async def test_diagnostics_equal_lint(client: LanguageClient, name):
    text = POLICIES[name]
    uri = await open_policy(client, name, text)
    assert_same_as_lint(client, uri, name, text)


async def test_edits_keep_diagnostics_equal_to_lint(client: LanguageClient):
    name = "edited.yaml"
    text = canonical("edited")
    uri = await open_policy(client, name, text)
    assert list(client.diagnostics[uri]) == []
    encoding = encoding_of(client)
    # Incremental: an emoji into the description, then a retry count after it on another line.
    line, character = position_of(text, "Ticket", encoding)
    await change(client, uri, [types.TextDocumentContentChangePartial(
        range=types.Range(start=types.Position(line=line, character=character),
                          end=types.Position(line=line, character=character)),
        text="🎬 ")])
    text = text.replace("Ticket", "🎬 Ticket", 1)
    line, character = position_of(text, "maxRetries: 3", encoding, offset=len("maxRetries: "))
    await change(client, uri, [types.TextDocumentContentChangePartial(
        range=types.Range(start=types.Position(line=line, character=character),
                          end=types.Position(line=line, character=character + 1)),
        text="5")])
    text = text.replace("maxRetries: 3", "maxRetries: 5", 1)
    (client.t_folder / "Policies" / name).write_bytes(text.encode("utf-8"))
    assert_same_as_lint(client, uri, name, text)
    # The whole text at once.
    text = canonical("edited", ("retryOn: [network, 429, 500, 502, 503]", "retryOn: [network, 429, 😀]"))
    await change(client, uri, [types.TextDocumentContentChangeWholeDocument(text=text)])
    (client.t_folder / "Policies" / name).write_bytes(text.encode("utf-8"))
    assert_same_as_lint(client, uri, name, text)


async def test_policy_name_across_files(client: LanguageClient):
    """A file on disk in the workspace and an open buffer with one policy name: the later file gets
    name-collision, related to the other; the open buffer, not the disk, counts."""
    (client.t_folder / "Policies" / "a.yaml").write_text(canonical("shared"), encoding="utf-8")
    text = canonical("shared")
    uri = await open_policy(client, "b.yaml", text)
    assert_same_as_lint(client, uri, "b.yaml", text)
    [finding] = client.diagnostics[uri]
    assert finding.code == "name-collision"
    [related] = finding.related_information
    assert related.location.uri.endswith("/Policies/a.yaml")
    assert (related.location.range.start.line, related.location.range.start.character) == (1, 8)
    # Renamed in the buffer only (the file on disk still says 'shared'): no collision.
    line, character = position_of(text, "shared", encoding_of(client))
    await change(client, uri, [types.TextDocumentContentChangePartial(
        range=types.Range(start=types.Position(line=line, character=character),
                          end=types.Position(line=line, character=character + len("shared"))),
        text="other")])
    assert list(client.diagnostics[uri]) == []


async def test_document_over_one_mib(client: LanguageClient):
    text = canonical("big") + "# " + "x" * (1 << 20) + "\n"
    uri = await open_policy(client, "big.yaml", text, write=False)
    [finding] = client.diagnostics[uri]
    assert finding.code == "input-limit"
    assert (finding.range.start.line, finding.range.start.character) == (0, 0)


# -- hover ---------------------------------------------------------------------------------------------

async def hover(client, uri, text, needle, offset=1, occurrence=1):
    line, character = position_of(text, needle, encoding_of(client), offset=offset, occurrence=occurrence)
    result = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=character)))
    assert result is not None, needle
    return result.contents.value


async def test_hover(client: LanguageClient):
    text = canonical("hovered", ("description: Ticket requests", "description: 🎬 Ticket requests"))
    uri = await open_policy(client, "hovered.yaml", text)
    key = await hover(client, uri, text, "maxRetries")
    assert "Retries after the first attempt" in key and "interactive-retries-max" in key
    assert "At most 3 retries per interactive request" in key
    assert "8000 ms" in await hover(client, uri, text, "8s")
    assert "ratio 0.1" in await hover(client, uri, text, "10%")
    assert "300000 ms" in await hover(client, uri, text, "5m ")
    profile = await hover(client, uri, text, "interactive:")
    assert "attemptsMax" in profile and "4" in profile and "worstCaseWaitMs" in profile
    assert "Too Many Requests" in await hover(client, uri, text, "429")
    # Nothing to say on a comment.
    line, character = position_of(text, "# a viewer is waiting", encoding_of(client), offset=4)
    assert await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=line, character=character))) is None


# -- completion -----------------------------------------------------------------------------------------

async def complete(client, uri, text, marker="‸"):
    """Completion labels at `marker` in `text` (the document is changed to the text without it)."""
    index = text.index(marker)
    plain = text.replace(marker, "", 1)
    await change(client, uri, [types.TextDocumentContentChangeWholeDocument(text=plain)])
    line, character = lsp_position(plain, index, encoding_of(client))
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=character)))
    items = result.items if isinstance(result, types.CompletionList) else result
    for item in items:
        edit = item.text_edit
        assert edit.range.start.line == line == edit.range.end.line
        assert edit.range.start.character <= character <= edit.range.end.character
    return [item.label for item in items]


async def test_completion(client: LanguageClient):
    uri = await open_policy(client, "completed.yaml", canonical("completed"))
    missing_timeout = canonical("completed", ("      timeout: 8s           # per attempt\n", "      ‸\n"),
                                ("description: Ticket requests", "description: 🎬 Ticket requests"))
    assert await complete(client, uri, missing_timeout) == ["timeout"]
    typing = canonical("completed", ("      timeout: 8s           # per attempt\n", "      tim‸\n"))
    assert await complete(client, uri, typing) == ["timeout"]
    assert await complete(client, uri, canonical("completed", ("kind: interactive", "kind: ‸"))) == ["interactive", "background"]
    backoff = await complete(client, uri, canonical("completed", ("backoff: full-jitter", "backoff: ‸")))
    assert sorted(backoff) == ["constant", "equal-jitter", "exponential", "full-jitter"]
    statuses = canonical("completed", ("retryOn: [network, 429, 500, 502, 503]", "retryOn: [\"🎬\", network, 429, ‸]"))
    assert await complete(client, uri, statuses) == ["500", "502", "503"]
    reuse = canonical("completed", ("reuseKey: [viewer, device, episode, intent]", "reuseKey: [viewer, ‸]"))
    assert await complete(client, uri, reuse) == ["device", "episode", "intent"]
    views = await complete(client, uri, canonical("completed", ("viewerRef: per-viewer-device", "viewerRef: ‸")))
    assert sorted(views) == ["per-session", "per-viewer-device", "user-id"]
    # While the text above does not parse.
    broken = canonical("completed", ("  retryOn: [network, 429, 500, 502, 503]\n", "  retryOn: [network,\n"),
                       ("    minPerMinute: 10\n", "    ‸\n"))
    assert await complete(client, uri, broken) == ["minPerMinute"]
