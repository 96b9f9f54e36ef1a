"""Which files the rules across files see, and the YAML files that are not policies.

The server checks names across the policies `policyc lint` checks when run in the workspace folder
without a PATH: the `policies` of its project file, else `Policies/`, else every policy file under
the folder. Other YAML in the workspace folder (a CI workflow, a compose file, a copy of a policy
outside the set) gets no findings and no fixes. The project file gets the project file's findings,
a scenario file the scenario loader's; neither is ever a policy."""

import re
import subprocess

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from conftest import (CLIENTS, POLICYC, ROOT, canonical, change, encoding_of, lsp_position, mark_index, open_document,
                      position_of, settled)


def lint(folder, *paths):
    """`policyc lint --format json [PATH ...]` run in `folder`: findings by file as lint names it."""
    run = subprocess.run([POLICYC, "lint", "--format", "json", *paths], cwd=folder, capture_output=True)
    assert run.returncode in (0, 1), run.stderr.decode()
    import json
    by_file = {}
    for d in json.loads(run.stdout)["diagnostics"]:
        by_file.setdefault(d["file"], []).append(d)
    return by_file


def expected(client, text, findings):
    """Findings of lint (or the text reporter) as (rule, severity, line, character) and message."""
    encoding = encoding_of(client)
    out = []
    for d in findings:
        line, character = lsp_position(text, mark_index(text, d["line"], d["column"]), encoding)
        out.append(((d["rule"], 1 if d["severity"] == "error" else 2, line, character), d["message"]))
    return sorted(out)


def assert_same(client, uri, text, findings):
    want = expected(client, text, findings)
    have = sorted(((d.code, d.severity.value, d.range.start.line, d.range.start.character), d.message)
                  for d in client.diagnostics[uri])
    assert [w[0] for w in want] == [h[0] for h in have], f"want: {want}\nhave: {have}"
    for (_, message), (_, shown) in zip(want, have):
        assert shown.startswith(message), (message, shown)


TEXT_FINDING = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): (?P<severity>error|warning): "
                          r"(?P<message>.*) \[(?P<rule>[a-z-]+)\]$")


def text_findings(stderr):
    """The findings of a text report (the project file's, a scenario's), as lint's JSON has them."""
    out = []
    for line in stderr.splitlines():
        m = TEXT_FINDING.match(line)
        if m:
            out.append({"file": m["file"], "line": int(m["line"]), "column": int(m["column"]),
                        "severity": m["severity"], "rule": m["rule"], "message": m["message"]})
    return out


def write(folder, relative, text):
    path = folder / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


async def saved(client, uri):
    """didSave: the server reads the disk again (a project file saved changes the set)."""
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    await settled(client, uri)


# -- this repository --------------------------------------------------------------------------------------

@pytest_lsp.fixture(config=ClientServerConfig(server_command=[POLICYC, "lsp"]), params=CLIENTS)
async def repository(lsp_client: LanguageClient, request):
    uri = ROOT.as_uri()
    result = await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities(request.param), root_uri=uri,
        workspace_folders=[types.WorkspaceFolder(uri=uri, name="policyc")]))
    lsp_client.t_folder = ROOT
    lsp_client.t_encoding = result.capabilities.position_encoding
    lsp_client.t_versions = {}
    yield
    await lsp_client.shutdown_session()


async def test_this_repository(repository: LanguageClient):
    """Policies/playback.yaml has the findings of `policyc lint` run here (none): the consumer
    example's copy of the policy, outside Policies/, is no name collision; opened, that copy gets
    no findings (it is not one of the project's policies)."""
    client = repository
    policy = ROOT / "Policies" / "playback.yaml"
    text = policy.read_bytes().decode("utf-8")
    uri = await open_document(client, policy, text)
    assert_same(client, uri, text, lint(ROOT).get("Policies/playback.yaml", []))
    assert list(client.diagnostics[uri]) == []
    copy = ROOT / "Examples" / "SwiftConsumer" / "Sources" / "Player" / "playback.yaml"
    copy_text = copy.read_bytes().decode("utf-8")
    copy_uri = await open_document(client, copy, copy_text)
    relative = str(copy.relative_to(ROOT))
    assert_same(client, copy_uri, copy_text, lint(ROOT, relative).get(relative, []))
    assert "name-collision" not in {d.code for d in client.diagnostics[copy_uri]}
    assert list(client.diagnostics[uri]) == []


# -- the project file's set --------------------------------------------------------------------------------

async def test_project_file_names_the_set(client: LanguageClient):
    folder = client.t_folder
    shared = canonical("shared")
    write(folder, "policyc.yaml", "version: 1\npolicies: [./defs/, extra/one.yaml]\n")
    write(folder, "defs/a.yaml", shared)
    write(folder, "extra/one.yaml", shared)
    write(folder, "Policies/p.yaml", shared)   # not in the set: the project file names others
    write(folder, "other/b.yaml", shared)
    findings = lint(folder)
    assert set(findings) == {"extra/one.yaml"}, "lint's own view of the set"

    one = await open_document(client, folder / "extra" / "one.yaml", shared)
    assert_same(client, one, shared, findings["extra/one.yaml"])
    [collision] = client.diagnostics[one]
    assert "./defs/a.yaml" in collision.message
    if collision.related_information:
        [related] = collision.related_information
        assert related.location.uri == (folder / "defs" / "a.yaml").as_uri()
    a = await open_document(client, folder / "defs" / "a.yaml", shared)
    assert list(client.diagnostics[a]) == []
    # Outside the set: not one of the project's policies, no findings.
    for relative in ("Policies/p.yaml", "other/b.yaml"):
        uri = await open_document(client, folder / relative, shared)
        assert_same(client, uri, shared, lint(folder, relative).get(relative, []))
        assert list(client.diagnostics[uri]) == []

    # The project file saved with another set: other/ first, so defs/a.yaml is now the second.
    project = write(folder, "policyc.yaml", "version: 1\npolicies: [other, defs]\n")
    project_uri = await open_document(client, project, project.read_text())
    await saved(client, project_uri)
    findings = lint(folder)
    assert set(findings) == {"defs/a.yaml"}
    a_findings = [d for d in client.diagnostics[a]]
    assert [d.code for d in a_findings] == ["name-collision"] and "other/b.yaml" in a_findings[0].message
    assert list(client.diagnostics[one]) == []


async def test_policies_folder_else_whole_folder(client: LanguageClient):
    """Without a project file: Policies/ when there is one, else every policy under the folder (as
    `lint .` there)."""
    folder = client.t_folder
    shared = canonical("shared")
    write(folder, "Policies/a.yaml", shared)
    write(folder, "Examples/b.yaml", shared)
    b = await open_document(client, folder / "Examples" / "b.yaml", shared)
    a = await open_document(client, folder / "Policies" / "a.yaml", shared)
    assert list(client.diagnostics[a]) == [] and list(client.diagnostics[b]) == []
    # Policies/ gone: the whole folder, in lint's order (Examples/b.yaml before a.yaml).
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=a)))
    await settled(client, b)
    (folder / "Policies" / "a.yaml").rename(folder / "a.yaml")
    (folder / "Policies").rmdir()
    findings = lint(folder, ".")
    assert set(findings) == {"a.yaml"}
    moved = await open_document(client, folder / "a.yaml", shared)
    assert_same(client, moved, shared, findings["a.yaml"])
    assert [d.code for d in client.diagnostics[moved]] == ["name-collision"]
    assert list(client.diagnostics[b]) == []


# -- the project file in the editor ----------------------------------------------------------------------

async def test_project_file_gets_its_own_findings(client: LanguageClient):
    folder = client.t_folder
    text = "version: 1\npolicies: [Policies, nope]\ntargets: [swift, rust]\nextra: 1   # 🎬\n"
    path = write(folder, "policyc.yaml", text)
    run = subprocess.run([POLICYC, "lint"], cwd=folder, capture_output=True)
    assert run.returncode == 2
    reported = text_findings(run.stderr.decode())
    assert {d["rule"] for d in reported} == {"type-mismatch", "unknown-key"}
    uri = await open_document(client, path, text)
    # The reader's findings, and the entry lint cannot read (it stops there once the others are fixed).
    line, character = position_of(text, "nope", encoding_of(client))
    missing = [d for d in client.diagnostics[uri] if d.code == "unreadable-input"]
    assert [(d.range.start.line, d.range.start.character) for d in missing] == [(line, character)]
    assert_same_without(client, uri, text, reported, "unreadable-input")
    # Never a policy's findings.
    assert not {d.code for d in client.diagnostics[uri]} & {"missing-key", "name-collision"}

    # Completion and hover from the project file's own keys.
    fixed = "version: 1\n\n"
    await change(client, uri, [types.TextDocumentContentChangeWholeDocument(text=fixed)])
    assert list(client.diagnostics[uri]) == []
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=1, character=0)))
    items = result.items if isinstance(result, types.CompletionList) else result
    labels = {i.label for i in items}
    # The project file's own keys (more come with new project settings), never a policy's.
    assert {"kotlinPackage", "out", "policies", "targets", "guide", "limits"} <= labels, labels
    assert not labels & {"version", "policy", "retry", "prefetch", "tickets", "waivers"}, labels
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=2)))
    assert "version" in hover.contents.value.lower() and "project file" in hover.contents.value.lower()


def assert_same_without(client, uri, text, findings, rule):
    want = expected(client, text, findings)
    have = sorted(((d.code, d.severity.value, d.range.start.line, d.range.start.character), d.message)
                  for d in client.diagnostics[uri] if d.code != rule)
    assert [w[0] for w in want] == [h[0] for h in have], f"want: {want}\nhave: {have}"
    for (_, message), (_, shown) in zip(want, have):
        assert shown.startswith(message), (message, shown)


# -- scenario files ----------------------------------------------------------------------------------------

SCENARIO = """version: 1
scenario: outage-30s
description: Ein Ausfall 🎬
duration: 5 min
fleet:
  clients: 100000
  callsPerMinut: 0.5
server:
  capacity: 2000
  mode: shed
  latency: 50ms
faults:
  - {kind: outage, from: 60s, to: 90s, status: 503}
"""


async def test_scenario_file_gets_the_loaders_findings(client: LanguageClient, tmp_path):
    folder = client.t_folder
    write(folder, "Policies/playback.yaml", canonical("playback"))
    # In Policies/ on purpose: lint would take it for a broken policy; the editor knows better.
    path = write(folder, "Policies/outage.yaml", SCENARIO)
    # What simulate says of it (run where Policies/ holds the policy alone).
    elsewhere = tmp_path / "simulated"
    write(elsewhere, "Policies/playback.yaml", canonical("playback"))
    write(elsewhere, "outage.yaml", SCENARIO)
    run = subprocess.run([POLICYC, "simulate", "--scenario", "./outage.yaml"], cwd=elsewhere, capture_output=True)
    assert run.returncode == 1
    reported = text_findings(run.stderr.decode())
    assert {d["rule"] for d in reported} == {"type-mismatch", "unknown-key"}
    uri = await open_document(client, path, SCENARIO)
    assert_same(client, uri, SCENARIO, reported)
    # Keys of the scenario language where the cursor is.
    text = SCENARIO.replace("  mode: shed\n", "  ‸\n")
    index = text.index("‸")
    plain = text.replace("‸", "")
    await change(client, uri, [types.TextDocumentContentChangeWholeDocument(text=plain)])
    line, character = lsp_position(plain, index, encoding_of(client))
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=character)))
    items = result.items if isinstance(result, types.CompletionList) else result
    assert sorted(i.label for i in items) == ["busy", "mode", "queueLimit", "rejectCost"]
    line, character = position_of(plain, "fleet", encoding_of(client), offset=1)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=character)))
    assert "Fleet" in hover.contents.value
    # The policy beside it is untouched by it.
    other = await open_document(client, folder / "Policies" / "playback.yaml", canonical("playback"))
    assert list(client.diagnostics[other]) == []


# -- YAML that is not the project's ---------------------------------------------------------------------

WORKFLOW = """name: CI
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: swift test
"""

COMPOSE = """version: "3.8"
services:
  web:
    image: nginx
    ports: ["8080:80"]
"""


@pytest.mark.parametrize("project", ["version: 1\npolicies: [Policies]\n", None])
async def test_other_yaml_gets_no_findings(client: LanguageClient, project):
    """A CI workflow and a compose file in the workspace folder: empty findings published, no quick
    fix, no fix-all; a policy of the project beside them keeps its findings. With the project file's
    `policies`, and without a project file (Policies/, lint's default)."""
    folder = client.t_folder
    if project:
        write(folder, "policyc.yaml", project)
    bad = canonical("playback", ("maxRetries: 3", "maxRetries: 4"))
    write(folder, "Policies/playback.yaml", bad)
    for relative, text in ((".github/workflows/ci.yml", WORKFLOW), ("docker-compose.yaml", COMPOSE)):
        path = write(folder, relative, text)
        uri = await open_document(client, path, text)
        assert list(client.diagnostics[uri]) == [], relative
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=8, character=0)),
            context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll])))
        assert not actions, relative
    policy = await open_document(client, folder / "Policies" / "playback.yaml", bad)
    assert [d.code for d in client.diagnostics[policy]] == ["interactive-retries-max"]
