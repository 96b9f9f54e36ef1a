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

YAML_BREAKS = {"\n", "\r", "\x85", "\u2028", "\u2029"}


def _yaml_line_starts(text):
    """Code-point indexes where libyaml's lines start: LF, CR, CRLF, NEL, LS and PS break lines, and
    line 1 starts after a byte order mark."""
    starts = [1 if text.startswith("\ufeff") else 0]
    i = starts[0]
    while i < len(text):
        c = text[i]
        if c == "\r" and i + 1 < len(text) and text[i + 1] == "\n":
            i += 1
        elif c not in YAML_BREAKS:
            i += 1
            continue
        i += 1
        starts.append(i)
    return starts


def mark_index(text, line, column):
    """The code-point index of a 1-based line and column (in Unicode scalars) as lint reports it."""
    starts = _yaml_line_starts(text)
    if line > len(starts):
        return len(text)
    i = starts[line - 1]
    end = starts[line] if line < len(starts) else len(text)
    while end > i and (text[end - 1] in YAML_BREAKS):
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
