"""Shared pieces of the language server's tests.

The server is the built `policyc lsp`: the binary named by $POLICYC, else the debug build's
(`swift build --show-bin-path`). Expected findings come from `policyc lint --format json` run on
the same bytes, and their positions are converted to the editor's by `lsp_position` below, written
independently of the server (code points in Python are Unicode scalars).
"""

import json
import os
import subprocess
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = Path(__file__).resolve().parents[2]
CANONICAL = (ROOT / "Policies" / "playback.yaml").read_text(encoding="utf-8")


def _binary():
    if os.environ.get("POLICYC"):
        return os.environ["POLICYC"]
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True)
    return os.path.join(out.stdout.strip(), "policyc")


POLICYC = _binary()
if not os.access(POLICYC, os.X_OK):
    raise pytest.UsageError(f"no policyc binary at {POLICYC}: run `swift build` or set POLICYC")

# The clients whose capabilities the tests use (pytest-lsp's presets): Neovim offers UTF-8
# positions, VS Code 1.65 does not (so UTF-16).
CLIENTS = ["neovim", "visual-studio-code"]


def canonical(policy, *edits):
    """The canonical policy named `policy`, with each (old, new) edit made once."""
    text = CANONICAL.replace("policy: playback", f"policy: {policy}", 1)
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


# -- positions, as libyaml and the protocol count them ------------------------------------------------

LINE_BREAKS = {"\n", "\r"}


def _line_starts(text):
    """Code-point indexes where lint's lines start: LF, CR and CRLF break lines, as the protocol
    and editors count them (U+2028, U+2029 and NEL do not), and line 1 starts after a byte order
    mark."""
    starts = [1 if text.startswith("\ufeff") else 0]
    i = starts[0]
    while i < len(text):
        c = text[i]
        if c == "\r" and i + 1 < len(text) and text[i + 1] == "\n":
            i += 1
        elif c not in LINE_BREAKS:
            i += 1
            continue
        i += 1
        starts.append(i)
    return starts


def mark_index(text, line, column):
    """The code-point index of a 1-based line and column (in Unicode scalars) as lint reports it."""
    starts = _line_starts(text)
    if line > len(starts):
        return len(text)
    i = starts[line - 1]
    end = starts[line] if line < len(starts) else len(text)
    while end > i and (text[end - 1] in LINE_BREAKS):
        end -= 1
    return min(i + column - 1, end)


def lsp_position(text, index, encoding):
    """The protocol's position of a code-point index: lines end at LF, CRLF and CR; characters are
    UTF-8 bytes or UTF-16 code units of the line before it."""
    line, start, i = 0, 0, 0
    while i < index:
        if text[i] == "\n" or (text[i] == "\r" and not (i + 1 < len(text) and text[i + 1] == "\n")):
            line += 1
            start = i + 1
        i += 1
    before = text[start:index]
    if encoding == "utf-8":
        return line, len(before.encode("utf-8"))
    return line, len(before.encode("utf-16-le")) // 2


def position_of(text, needle, encoding, offset=0, occurrence=1):
    """The protocol's position of the `occurrence`-th `needle` in `text`, plus `offset` code points."""
    index = -1
    for _ in range(occurrence):
        index = text.index(needle, index + 1)
    return lsp_position(text, index + offset, encoding)


def lint_json(folder):
    """`policyc lint --format json .` in `folder`: the findings by file (relative path)."""
    run = subprocess.run([POLICYC, "lint", "--format", "json", "."], cwd=folder, capture_output=True)
    assert run.returncode in (0, 1), run.stderr.decode()
    by_file = {}
    for d in json.loads(run.stdout)["diagnostics"]:
        by_file.setdefault(d["file"], []).append(d)
    return by_file


# -- a client on a workspace ---------------------------------------------------------------------------

@pytest_lsp.fixture(config=ClientServerConfig(server_command=[POLICYC, "lsp"]), params=CLIENTS)
async def client(lsp_client: LanguageClient, request, tmp_path):
    """The server with one workspace folder (holding an empty Policies/), initialized by the
    client `request.param`."""
    workspace = tmp_path / "workspace"
    (workspace / "Policies").mkdir(parents=True)
    uri = workspace.as_uri()
    result = await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities(request.param),
        root_uri=uri,
        workspace_folders=[types.WorkspaceFolder(uri=uri, name="workspace")],
    ))
    lsp_client.t_folder = workspace
    lsp_client.t_encoding = result.capabilities.position_encoding
    lsp_client.t_versions = {}
    yield
    await lsp_client.shutdown_session()


def encoding_of(client):
    return "utf-8" if client.t_encoding == types.PositionEncodingKind.Utf8 else "utf-16"


async def settled(client, uri):
    """Waits until the server has sent every finding of the changes before: it answers a request
    only after them (and after reading the disk again when a change asked for it)."""
    await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=0)))


async def open_document(client, path, text):
    """Opens the file at `path` with `text` (the file is not written) and waits for the findings."""
    uri = path.as_uri()
    client.t_versions[uri] = 1
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
    await settled(client, uri)
    assert uri in client.diagnostics
    return uri


async def open_policy(client, name, text, write=True):
    """Writes the policy under the workspace's Policies/ (so lint sees the same bytes), opens it,
    and waits for its findings."""
    path = client.t_folder / "Policies" / name
    if write:
        path.write_bytes(text.encode("utf-8"))
    return await open_document(client, path, text)


async def change(client, uri, changes):
    client.t_versions[uri] += 1
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=client.t_versions[uri]),
        content_changes=changes))
    await settled(client, uri)


# -- edits, applied as an editor applies them ------------------------------------------------------------

def lsp_index(text, line, character, encoding):
    """The code-point index of a protocol position (lines end at LF, CRLF and CR; characters are
    UTF-8 bytes or UTF-16 code units). A position inside a character, or past its line, fails."""
    starts, i = [0], 0
    while i < len(text):
        if text[i] == "\r" and i + 1 < len(text) and text[i + 1] == "\n":
            i += 1
        if text[i] in "\r\n":
            starts.append(i + 1)
        i += 1
    assert 0 <= line < len(starts), (line, len(starts))
    j, end = starts[line], (starts[line + 1] if line + 1 < len(starts) else len(text))
    while end > j and text[end - 1] in "\r\n":
        end -= 1
    units = 0
    while units < character:
        assert j < end, f"character {character} is past line {line}"
        units += len(text[j].encode("utf-8")) if encoding == "utf-8" else len(text[j].encode("utf-16-le")) // 2
        j += 1
    assert units == character, f"character {character} of line {line} is inside a character"
    return j


def apply_edits(text, edits, encoding):
    """`text` with the protocol's TextEdits made, each range relative to `text` as the protocol says."""
    placed = sorted(((lsp_index(text, e.range.start.line, e.range.start.character, encoding),
                      lsp_index(text, e.range.end.line, e.range.end.character, encoding), e.new_text) for e in edits),
                    reverse=True)
    for (a, b, _), (c, _, _) in zip(placed[1:], placed):
        assert b <= c, "edits overlap"
    for a, b, new in placed:
        assert a <= b
        text = text[:a] + new + text[b:]
    return text


def edits_of(action, uri):
    """The TextEdits of a code action's WorkspaceEdit for `uri`, in either of its two shapes."""
    edit = action.edit
    if edit.document_changes:
        [change] = edit.document_changes
        assert change.text_document.uri == uri
        return list(change.edits)
    assert set(edit.changes) == {uri}
    return list(edit.changes[uri])


def lint_fixed(text, tmp_path, unsafe):
    """What `policyc lint --fix` (`--unsafe-fixes` when `unsafe`) makes of `text`, byte for byte."""
    path = tmp_path / "lint-fix" / "policy.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    run = subprocess.run([POLICYC, "lint", "--unsafe-fixes" if unsafe else "--fix", str(path)], capture_output=True)
    assert run.returncode in (0, 1), run.stderr.decode()
    return path.read_bytes().decode("utf-8")
