"""Code actions end to end: for real findings, the quick fix the server offers is applied here, in
Python, as an editor applies it (positions in the negotiated encoding), and the text must be what
`policyc lint --fix` (safe fixes) or `--unsafe-fixes` makes of the same file, byte for byte; after
the edit is sent back, the finding is gone and the findings are lint's. With multibyte text before
the edit, CRLF line ends and a byte order mark, for the clients of Neovim (UTF-8) and VS Code
(UTF-16)."""

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from conftest import (apply_edits, canonical, change, edits_of, encoding_of, lint_fixed, lint_json, lsp_position,
                      mark_index, open_policy)

NOT_READY = "  neverRetry:\n    - status: 503\n      code: not_ready\n"

# name: (text, rule of the one fixable finding, safety of its fix)
SINGLE = {
    "unit": (canonical("unit", ("cap: 8s", "cap: 8 sec")), "type-mismatch", "safe"),
    "boolean": (canonical("boolean", ("honor: true", "honor: yes")), "type-mismatch", "safe"),
    "retries": (canonical("retries", ("maxRetries: 3", "maxRetries: 7")), "interactive-retries-max", "unsafe"),
    "misspelt": (canonical("misspelt", ("retryOn:", "retryOnn:")), "unknown-key", "unsafe"),
    "not-ready": (canonical("not-ready", (NOT_READY, "")), "not-ready-never-retried", "unsafe"),
}


def variant(text, how):
    """The same policy written otherwise: multibyte text on the lines before, CRLF line ends, a BOM."""
    if how == "lf":
        return text
    text = text.replace("description: Ticket requests", "description: 🎬 Tickets für 視聴者 é", 1)
    if how == "multibyte":
        return text
    if how == "crlf":
        return text.replace("\n", "\r\n")
    assert how == "bom"
    return "\ufeff" + text.replace("\n", "\r\n")


CASES = {f"{name}-{how}": (variant(text, how), rule, safety)
         for name, (text, rule, safety) in SINGLE.items() for how in ("lf", "multibyte", "crlf", "bom")}
# Multibyte text before the edit on its own line: in UTF-16 and UTF-8 the character differs.
CASES["same-line-safe"] = (canonical("same-line-safe", ("  retryAfter:\n    honor: true\n    maxJitter: 1s\n",
                                                        "  retryAfter: {maxJitter: 1s, \"é😀\": 1, honor: yes}\n")),
                           "type-mismatch", "safe")
CASES["same-line-unsafe"] = (canonical("same-line-unsafe", ("      maxRetries: 3         # retries after the first attempt\n",
                                                            "      \"é😀\": 1\n      maxRetries: 7\n"),
                                       ("cap: 8s               # largest", "cap: 8s               # 🎬🎬 largest")),
                             "interactive-retries-max", "unsafe")


def whole(text, encoding):
    line, character = lsp_position(text, len(text), encoding)
    return types.Range(start=types.Position(line=0, character=0), end=types.Position(line=line, character=character))


async def code_actions(client, uri, range, diagnostics, only=None):
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=range,
        context=types.CodeActionContext(diagnostics=diagnostics, only=only)))
    assert actions is not None
    for action in actions:
        assert isinstance(action, types.CodeAction)
    return list(actions)


def check_action(action, safety):
    assert action.kind == types.CodeActionKind.QuickFix
    assert action.is_preferred == (safety == "safe")
    assert action.title.endswith(" (unsafe)") == (safety == "unsafe")
    assert len(action.diagnostics) == 1


async def send_edits(client, uri, edits):
    """The edits as the editor sends them after applying: incremental changes, the last in the text
    first so that each range still means what it meant."""
    ordered = sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True)
    await change(client, uri, [types.TextDocumentContentChangePartial(range=e.range, text=e.new_text) for e in ordered])


def lint_findings(client, name, text):
    """lint's findings of Policies/`name` (whose bytes are `text`), as (rule, line, character) in
    the client's encoding."""
    encoding = encoding_of(client)
    return sorted((d["rule"], *lsp_position(text, mark_index(text, d["line"], d["column"]), encoding))
                  for d in lint_json(client.t_folder).get(f"Policies/{name}", []))


@pytest.mark.parametrize("case", sorted(CASES))
async def test_quick_fix_is_lints_fix(client: LanguageClient, case, tmp_path):
    text, rule, safety = CASES[case]
    encoding = encoding_of(client)
    name = f"{case}.yaml"
    uri = await open_policy(client, name, text)
    [finding] = [d for d in client.diagnostics[uri] if d.code == rule]
    actions = await code_actions(client, uri, finding.range, [finding])
    [action] = [a for a in actions if a.diagnostics[0].code == rule]
    check_action(action, safety)
    assert action.diagnostics[0].range == finding.range
    edits = edits_of(action, uri)
    fixed = apply_edits(text, edits, encoding)
    assert fixed != text
    assert fixed == lint_fixed(text, tmp_path, unsafe=safety == "unsafe")
    # The safe fix alone: an unsafe one is not among what --fix applies.
    if safety == "unsafe":
        assert lint_fixed(text, tmp_path, unsafe=False) == text

    # Sent back as the editor sends it: the finding is gone, and the findings are lint's.
    await send_edits(client, uri, edits)
    (client.t_folder / "Policies" / name).write_bytes(fixed.encode("utf-8"))
    assert rule not in {d.code for d in client.diagnostics[uri]}
    got = sorted((d.code, d.range.start.line, d.range.start.character) for d in client.diagnostics[uri])
    assert got == lint_findings(client, name, fixed)
    # Nothing more to fix there.
    assert [a for a in await code_actions(client, uri, whole(fixed, encoding), list(client.diagnostics[uri]))
            if a.diagnostics[0].code == rule] == []


MANY = canonical("many", ("cap: 8s", "cap: 8 sec"), ("honor: true", "honor: yes"), ("maxRetries: 3", "maxRetries: 7"),
                 ("ratio: 10%", "ratio: 10 %"), ("base: 1s", "base: 1000"), ("description: Ticket", "description: 😀 Ticket"))


@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
@pytest.mark.parametrize("crlf", [False, True], ids=["lf", "crlf"])
async def test_fixing_one_by_one_is_lint_fix(client: LanguageClient, tmp_path, unsafe, crlf):
    """Quick fix after quick fix (the preferred ones only, unless unsafe) until none is left: the
    text `lint --fix` / `--unsafe-fixes` gives."""
    text = MANY.replace("\n", "\r\n") if crlf else MANY
    encoding = encoding_of(client)
    uri = await open_policy(client, "many.yaml", text)
    applied = 0
    for _ in range(20):
        actions = await code_actions(client, uri, whole(text, encoding), list(client.diagnostics[uri]))
        actions = [a for a in actions if unsafe or a.is_preferred]
        if not actions:
            break
        edits = edits_of(actions[0], uri)
        text = apply_edits(text, edits, encoding)
        await send_edits(client, uri, edits)
        applied += 1
    assert applied >= (5 if unsafe else 3)
    assert text == lint_fixed(MANY.replace("\n", "\r\n") if crlf else MANY, tmp_path, unsafe=unsafe)


async def test_fix_all_is_lint_fix(client: LanguageClient, tmp_path):
    """`source.fixAll.policyc` applies every safe fix at once, as `lint --fix`; asked for only."""
    text = MANY.replace("\n", "\r\n")
    encoding = encoding_of(client)
    uri = await open_policy(client, "all.yaml", text)
    plain = await code_actions(client, uri, whole(text, encoding), list(client.diagnostics[uri]))
    assert all(a.kind == types.CodeActionKind.QuickFix for a in plain)
    for only in (["source"], ["source.fixAll"]):
        actions = await code_actions(client, uri, whole(text, encoding), [], only=only)
        [action] = actions
        assert action.kind == "source.fixAll.policyc"
        fixed = apply_edits(text, edits_of(action, uri), encoding)
        assert fixed == lint_fixed(text, tmp_path, unsafe=False)
    assert await code_actions(client, uri, whole(text, encoding), [], only=["refactor"]) == []
    # Once fixed, nothing more to do.
    await send_edits(client, uri, edits_of(action, uri))
    assert await code_actions(client, uri, whole(fixed, encoding), [], only=["source.fixAll"]) == []
