"""`textDocument/formatting` end to end: the edit the server answers, applied here as an editor
applies it (positions in the negotiated encoding), gives the bytes `policyc fmt` writes; a
formatted document gets no edit. With multibyte text, CRLF line ends and a byte order mark, for
the clients of Neovim (UTF-8) and VS Code (UTF-16)."""

import subprocess

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from conftest import POLICYC, apply_edits, canonical, encoding_of, open_policy

MESSY = canonical("messy", ("version: 1\npolicy: messy\n", "policy: \"messy\"\nversion:    1\n"),
                  ("description: Ticket requests", "description: 🎬 Tickets für 視聴者 é"),
                  ("kind: interactive     # a viewer", "kind: interactive # a viewer"))


def fmt(text, tmp_path):
    """What `policyc fmt` makes of `text`, byte for byte."""
    path = tmp_path / "fmt" / "policy.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    subprocess.run([POLICYC, "fmt", str(path)], capture_output=True, check=True)
    return path.read_bytes().decode("utf-8")


async def formatting(client, uri):
    return await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        options=types.FormattingOptions(tab_size=2, insert_spaces=True)))


@pytest.mark.parametrize("how", ["lf", "crlf", "bom"])
async def test_formatting_is_policyc_fmt(client: LanguageClient, tmp_path, how):
    text = {"lf": MESSY, "crlf": MESSY.replace("\n", "\r\n"), "bom": "\ufeff" + MESSY.replace("\n", "\r\n")}[how]
    uri = await open_policy(client, f"messy-{how}.yaml", text)
    edits = await formatting(client, uri)
    assert len(edits) == 1
    formatted = apply_edits(text, edits, encoding_of(client))
    assert formatted == fmt(text, tmp_path)
    assert formatted != text


async def test_a_formatted_document_gets_no_edit(client: LanguageClient):
    uri = await open_policy(client, "clean.yaml", canonical("clean"))
    assert list(await formatting(client, uri) or []) == []
