"""Deterministic benchmark corpus for policyc (fixed seed: the same bytes on every machine).

    python3 Benchmarks/corpus.py OUT_DIR            # writes the corpora below, prints a summary
    python3 Benchmarks/corpus.py --shapes OUT_DIR   # only OUT_DIR/shapes (the memory test's input)

Layout under OUT_DIR:
    clean-1/         1 policy of about 1 KB
    clean-100/       100 policies
    clean-2000/      2000 policies (the main corpus; every file lint-clean)
    findings-2000/   the same 2000 with about 10% of the files broken in one of several ways
                     (for the 1-thread versus many-threads comparison)
    big/profiles.yaml     a valid policy just under 1 MiB: thousands of commented profiles
    big/description.yaml  a valid policy just under 1 MiB: mostly one literal-block description
    shapes/*.yaml    one file just under 1 MiB for each shape an attacker or a generator would
                     make (see SHAPES): ~7 500 full profiles, 60 000 empty profiles, a long
                     description, long retryOn and neverRetry lists, thousands of unknown keys at
                     one level, nesting to the depth limit, one long flow collection, thousands of
                     duplicate keys, thousands of anchors and aliases

Every clean policy keeps to every limit of SPEC section 2 (the rules are mostly not written yet
on the benchmark's branch, so validity is by construction; the benchmark reports any finding on
a clean corpus). Policy names are unique across files (else `name-collision` fires across files).
"""

import os
import random
import re
import sys

SEED = 20251129
MAX_BYTES = 1 << 20

WORDS = ["ios", "android", "tv", "web", "player", "catalog", "search", "sync", "download",
         "live", "trailer", "kids", "sports", "music", "offline", "cast", "car", "watch",
         "tablet", "smart", "home", "promo", "upnext", "resume", "gateway", "edge"]

# Profile names that never collide with each other once converted (no `a-b` next to `aB`), and
# that are neither keywords nor generated members in Swift or Kotlin.
PROFILE_NAMES = ["interactive", "background", "ticketPlay", "prefetch-next", "warmup", "startup",
                 "catalogSync", "search-hint", "downloadQueue", "live-edge", "trailerAutoplay",
                 "castHandoff", "offline-refresh", "kidsMode", "upNext"]

COMMENTS = ["a viewer is waiting", "a sync job", "retries after the first attempt",
            "first backoff step", "largest backoff step", "per attempt",
            "the whole call, retries included", "see the integration guide",
            "agreed with the playback team", "do not raise without a review",
            "measured on the 2024 load test", "keeps the servers breathing",
            "TODO: revisit after the next release", "matches the Android client",
            "CDN edge answers fast here", "Rückfrage beim Backend-Team", "日本のチーム向け"]

DESCRIPTIONS = ["Ticket requests made by the {w} players.",
                "Retries of the {w} client when the ticket service is busy.",
                "Playback tickets for {w}: keep the viewer watching, spare the servers.",
                "{w} — prefetches the next episodes and honors Retry-After.",
                "Owned by the {w} team; changes need a review by playback.",
                "Policy für {w}: höchstens drei Wiederholungen."]


def comment(rng, p=0.35):
    return f"  # {rng.choice(COMMENTS)}" if rng.random() < p else ""


def quoted(rng, text, p=0.2):
    """A string value, sometimes quoted (durations, percents and enums may be quoted)."""
    r = rng.random()
    if r < p / 2:
        return f'"{text}"'
    if r < p:
        return f"'{text}'"
    return text


def policy_name(rng, index):
    parts = [rng.choice(WORDS) for _ in range(rng.randint(1, 2))]
    style = rng.random()
    if style < 0.5:
        return "-".join(parts) + f"-{index}"
    head = parts[0] + "".join(p.capitalize() for p in parts[1:])
    return f"{head}{index}" if style < 0.8 else f"{head}-v{index}"


def description(rng, name):
    text = rng.choice(DESCRIPTIONS).format(w=name)
    r = rng.random()
    if r < 0.1:
        return []
    if r < 0.5:
        return [f"description: {text}"] if ":" not in text and "#" not in text else [f'description: "{text}"']
    if r < 0.65:
        return [f"description: '{text}'"]
    if r < 0.8:
        return [f'description: "{text} \\u00e9\\t(escaped)"']
    style = "|" if r < 0.9 else ">"
    return [f"description: {style}", f"  {text}", "  Second line of the description,", "  kept as written."]


def duration_spelling(rng, ms):
    options = [f"{ms}ms"]
    if ms % 1000 == 0:
        options += [f"{ms // 1000}s"] * 3
    elif ms % 100 == 0:
        options.append(f"{ms / 1000:g}s")
    if ms % 60000 == 0:
        options += [f"{ms // 60000}m"] * 2
    return rng.choice(options)


def profile(rng, name, kind, indent="    "):
    if kind == "interactive":
        retries = rng.randint(0, 3)
        base = rng.choice([100, 250, 500, 500, 1000])
        cap = rng.choice([2000, 4000, 8000, 8000])
        timeout = rng.choice([5000, 6000, 7500, 8000])
        deadline = rng.choice([max(timeout, 10000), 12000, 15000, 15000])
    else:
        retries = rng.randint(0, 8)
        base = rng.choice([500, 1000, 2000])
        cap = rng.choice([30000, 60000, 120000])
        timeout = rng.choice([10000, 15000, 30000])
        deadline = rng.choice([60000, 120000, 300000])
    lines = [f"{indent}{name}:{comment(rng, 0.15)}",
             f"{indent}  kind: {quoted(rng, kind)}{comment(rng)}",
             f"{indent}  maxRetries: {retries}{comment(rng)}"]
    values = [("base", base), ("cap", cap), ("timeout", timeout), ("deadline", deadline)]
    if rng.random() < 0.2:
        rng.shuffle(values)
    for key, ms in values:
        lines.append(f"{indent}  {key}: {quoted(rng, duration_spelling(rng, ms))}{comment(rng)}")
    return lines


def flow_or_block(rng, key, items, indent):
    if rng.random() < 0.6:
        return [f"{indent}{key}: [{', '.join(items)}]{comment(rng, 0.2)}"]
    return [f"{indent}{key}:"] + [f"{indent}  - {i}" for i in items]


def policy(rng, index):
    name = policy_name(rng, index)
    head = [f"version: 1{comment(rng, 0.1)}", f"policy: {quoted(rng, name, 0.15)}"] + description(rng, name)
    if rng.random() < 0.3:
        head.insert(0, f"# {rng.choice(COMMENTS)}")

    count = rng.choice([1, 2, 2, 2, 3, 4])
    names = ["interactive", "background"][:count] if rng.random() < 0.5 else rng.sample(PROFILE_NAMES, count)
    retry = ["retry:", "  profiles:"]
    for i, pname in enumerate(names):
        kind = "interactive" if pname == "interactive" or (pname != "background" and i % 2 == 0) else "background"
        retry += profile(rng, pname, kind)
    statuses = ["429", "503"] + rng.sample(["500", "502"], rng.randint(0, 2))
    rng.shuffle(statuses)
    if rng.random() < 0.8:
        statuses.insert(0, "network")
    retry += flow_or_block(rng, "retryOn", statuses, "  ")
    never = [("503", "not_ready")] + ([("429", quoted(rng, "quota_exhausted"))] if rng.random() < 0.3 else [])
    if rng.random() < 0.7:
        retry.append("  neverRetry:")
        for status, code in never:
            retry += [f"    - status: {status}", f"      code: {code}"]
    else:
        retry.append("  neverRetry: [" + ", ".join(f"{{status: {s}, code: {c}}}" for s, c in never) + "]")
    retry.append(f"  backoff: {quoted(rng, 'full-jitter')}{comment(rng)}")
    retry += ["  retryAfter:", f"    honor: true{comment(rng)}",
              f"    maxJitter: {quoted(rng, rng.choice(['1s', '500ms', '1000ms', '0.25s', '750ms']))}"]
    ratio = rng.choice(["10%", "5%", "2.5%", "7.5%", "1%"])
    retry += ["  budget:", f"    ratio: {quoted(rng, ratio)}{comment(rng)}",
              f"    minPerMinute: {rng.randint(0, 10)}"]

    prefetch = ["prefetch:", f"  ahead: {rng.randint(0, 2)}{comment(rng)}", "  onlyUnlocked: true",
                f"  retryRefused: false{comment(rng)}"]
    keys = ["viewer", "device", "episode", "intent"]
    rng.shuffle(keys)
    tickets = (["tickets:"] + flow_or_block(rng, "reuseKey", keys, "  ")
               + [f"  stopReuseBefore: {quoted(rng, rng.choice(['5m', '5m', '10m', '300s', '1h']))}{comment(rng)}",
                  f"  viewerRef: {quoted(rng, 'per-viewer-device')}"])

    sections = [retry, prefetch, tickets]
    if rng.random() < 0.25:
        rng.shuffle(sections)
    lines = list(head)
    for s in sections:
        lines += [""] + s
    text = "\n".join(lines) + "\n"
    # About 1 KB: pad short files with a comment block, as real files carry notes.
    while len(text.encode()) < 850:
        text += f"# {rng.choice(COMMENTS)}; {rng.choice(COMMENTS)}\n"
    return text


def break_policy(text, index):
    """Returns the text with one mistake, and a word naming the mistake."""
    choices = [
        ("unknown-key", lambda t: t.replace("  onlyUnlocked:", "  onlyUnlockd:", 1)),
        ("missing-key", lambda t: "\n".join(l for l in t.split("\n") if not l.startswith("  viewerRef:"))),
        ("type-mismatch", lambda t: t.replace("  onlyUnlocked: true", "  onlyUnlocked: yes", 1)),
        ("type-mismatch", lambda t: t.replace("    minPerMinute: ", "    minPerMinute: 0x", 1)),
        ("full-jitter", lambda t: t.replace("full-jitter", "exponential", 1)),
        ("prefetch-ahead-max", lambda t: t.replace("  ahead: ", "  ahead: 1", 1)),
        ("retry-after-honored", lambda t: t.replace("honor: true", "honor: false", 1)),
        ("unsupported-version", lambda t: t.replace("version: 1", "version: 2", 1)),
        ("yaml-duplicate-key", lambda t: t.replace("  onlyUnlocked: true", "  onlyUnlocked: true\n  onlyUnlocked: true", 1)),
        ("yaml-syntax", lambda t: t.replace("  budget:", "  budget: [", 1)),
        ("yaml-unsupported", lambda t: t.replace("  onlyUnlocked: true", "  onlyUnlocked: &u true", 1)),
        ("timeout-min", lambda t: re.sub(r"(?m)^      timeout: .*$", "      timeout: 2s", t, count=1)),
    ]
    kind, change = choices[index % len(choices)]
    broken = change(text)
    assert broken != text, kind
    return broken, kind


def big_profiles(rng):
    """A valid policy just under 1 MiB: one profile after another, commented."""
    base = policy(random.Random(SEED + 7), 0).split("\n")
    start = base.index("  profiles:") + 1
    end = start
    while end < len(base) and base[end].startswith("    "):
        end += 1
    head = "\n".join(base[:start]) + "\n"
    tail = "\n".join(base[end:])
    budget = MAX_BYTES - 256 - len(head.encode()) - len(tail.encode())
    chunks, used, i = [], 0, 0
    while True:
        kind = "interactive" if i % 2 == 0 else "background"
        block = "\n".join(profile(rng, f"profile{i}", kind)) + "\n"
        size = len(block.encode())
        if used + size > budget:
            break
        chunks.append(block)
        used += size
        i += 1
    return head + "".join(chunks) + tail, i


def big_description(rng):
    """A valid policy just under 1 MiB, almost all of it one literal-block description."""
    base = policy(random.Random(SEED + 11), 0)
    # Drop any description the generator wrote, then add a long one.
    text_lines, skipping = [], False
    for l in base.split("\n"):
        if l.startswith("description:"):
            skipping = l.endswith("|") or l.endswith(">")
            continue
        if skipping and l.startswith("  ") and not l.startswith("  profiles") and not l.startswith("    "):
            continue
        skipping = False
        text_lines.append(l)
    body = "\n".join(text_lines)
    budget = MAX_BYTES - 256 - len(body.encode()) - len("description: |\n")
    desc, used = [], 0
    while True:
        line = f"  {rng.choice(DESCRIPTIONS).format(w=rng.choice(WORDS))} {rng.choice(COMMENTS)}.\n"
        if used + len(line.encode()) > budget:
            break
        desc.append(line)
        used += len(line.encode())
    head, rest = body.split("\n", 1)
    return head + "\n" + "description: |\n" + "".join(desc) + rest


def fill(head, item, tail="", limit=MAX_BYTES - 64):
    """head + item(0) + item(1) + ... + tail, as many items as fit under `limit` bytes."""
    size = len(head.encode()) + len(tail.encode())
    parts, i = [head], 0
    while True:
        piece = item(i)
        if size + len(piece.encode()) > limit:
            break
        parts.append(piece)
        size += len(piece.encode())
        i += 1
    parts.append(tail)
    return "".join(parts), i


def canonical_parts():
    """The canonical policy around its profiles: (before the profiles' entries, after them)."""
    text = policy(random.Random(SEED + 13), 0)
    lines = text.split("\n")
    start = lines.index("  profiles:") + 1
    end = start
    while end < len(lines) and lines[end].startswith("    "):
        end += 1
    return "\n".join(lines[:start]) + "\n", "\n".join(lines[end:])


def shape_profiles_full(rng):
    """~7 500 full profiles, block style, no comments: valid, every value checked by every rule."""
    head, tail = canonical_parts()
    def item(i):
        kind = "interactive" if i % 2 == 0 else "background"
        return (f"    p{i}:\n      kind: {kind}\n      maxRetries: {i % 4}\n      base: 500ms\n"
                f"      cap: 8s\n      timeout: {5 + i % 3}s\n      deadline: 15s\n")
    return fill(head, item, tail)


def shape_profiles_empty(rng):
    """60 000 profiles without a value (`p1:`): a finding each up to the cap, one node each."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    p{i}:\n", tail)


def shape_retry_on(rng):
    """A block retryOn list of 100 000 statuses (repeats past the first few)."""
    head, tail = canonical_parts()
    body = tail.replace("  retryOn:", "  retryOnOld:", 1)
    return fill(head + "    one:\n      kind: interactive\n      maxRetries: 3\n      base: 500ms\n"
                "      cap: 8s\n      timeout: 8s\n      deadline: 15s\n  retryOn:\n",
                lambda i: f"    - {[429, 503, 500, 502][i % 4] if i < 4 else 100 + i % 500}\n", body)


def shape_never_retry(rng):
    """A neverRetry list of ~30 000 distinct {status, code} pairs: valid, all compared."""
    text = policy(random.Random(SEED + 17), 0)
    lines = [l for l in text.split("\n") if not l.startswith("  neverRetry") and not l.startswith("    - status")
             and not l.startswith("      code")]
    text = "\n".join(lines)
    head, rest = text.split("\nretry:\n", 1)
    return fill(head + "\nretry:\n  neverRetry:\n    - {status: 503, code: not_ready}\n",
                lambda i: f"    - {{status: {400 + i % 200}, code: c{i}}}\n", rest)


def shape_unknown_keys(rng):
    """Tens of thousands of unknown keys at the top level, each with a did-you-mean to make."""
    head, tail = canonical_parts()
    return fill(head + "    one:\n      kind: background\n      maxRetries: 1\n      base: 1s\n"
                "      cap: 30s\n      timeout: 15s\n      deadline: 60s\n" + tail, lambda i: f"unknownKey{i}: {i}\n")


def shape_deep(rng):
    """Mappings nested to depth 32 (the limit), thousands of times over, under unknown keys."""
    def item(i):
        out = [f"deep{i}:"]
        for level in range(1, 31):
            out.append("  " * level + f"k{level}:")
        out.append("  " * 31 + f"leaf: {i}")
        return "\n".join(out) + "\n"
    return fill("version: 1\npolicy: deep\n", item)


def shape_flow(rng):
    """One flow list on one line: retryOn: [429, 503, 100, 101, ...] — a single ~1 MiB line."""
    head, tail = canonical_parts()
    text, n = fill("version: 1\npolicy: flow\nretry:\n  retryOn: [429, 503",
                   lambda i: f", {100 + i % 500}", "]\n")
    return text, n


def shape_duplicate_keys(rng):
    """One mapping that repeats a key tens of thousands of times."""
    return fill("version: 1\npolicy: dup\nprefetch:\n  ahead: 1\n", lambda i: "  ahead: 2\n")


def shape_aliases(rng):
    """Tens of thousands of anchors and aliases (never expanded; one finding for them all)."""
    return fill("version: 1\npolicy: alias\nlist:\n", lambda i: f"  - &a{i} x\n  - *a{i}\n")


# The shapes of Tests/policycTests/LargeInputTests.swift that the ones above do not cover.

def shape_profiles_flow(rng):
    """~11 000 full profiles, each one flow mapping on one line: valid."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    p{i}: {{kind: background, maxRetries: 5, base: 1s, cap: 30s, timeout: 15s, deadline: 120s}}\n", tail)


def shape_profiles_empty_mapping(rng):
    """50 000 profiles written `{}`: every required key missing from each."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    profile{i}: {{}}\n", tail)


def shape_profiles_one_key(rng):
    """~30 000 profiles of one key each (`{kind: interactive}`): five keys missing from each."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    profile{i}: {{kind: interactive}}\n", tail)


def shape_deep_flow(rng):
    """Flow lists nested to the depth limit, thousands of times over: `- [[[...1...]]]`."""
    return fill("version: 1\npolicy: deep\nlist:\n", lambda i: "  - " + "[" * 30 + "1" + "]" * 30 + "\n")


def shape_flow_mapping(rng):
    """One flow mapping on one line, of tens of thousands of unknown keys: `prefetch: {ahead: 1, k0: 0, ...}`."""
    return fill("version: 1\npolicy: flow\nprefetch: {ahead: 1", lambda i: f", k{i}: {i}", "}\n")


def shape_flow_unterminated(rng):
    """One flow list on one line that never ends: a syntax error at the end of the file."""
    return fill("version: 1\npolicy: flow\nretry:\n  retryOn: [429, 503", lambda i: f", {100 + i % 500}")


def shape_duplicate_profiles(rng):
    """One profile name written tens of thousands of times (`one: {}`)."""
    head, tail = canonical_parts()
    return fill(head + "    one:\n      kind: interactive\n      maxRetries: 3\n      base: 500ms\n"
                "      cap: 8s\n      timeout: 8s\n      deadline: 15s\n", lambda i: "    one: {}\n", tail)


def shape_tiny_lists(rng):
    """A list of 150 000 empty lists (`- []`): a node each, no finding each."""
    return fill("version: 1\npolicy: lists\nlist:\n", lambda i: "  - []\n")


def shape_long_keys(rng):
    """~5 000 profiles with names of 200 characters, each `{}`."""
    head, tail = canonical_parts()
    return fill(head, lambda i: "    " + "k" * 200 + f"{i}: {{}}\n", tail)


# Shapes an attacker would try that none of the above has.

def shape_comments(rng):
    """A valid policy, then 200 000 short comment lines."""
    head, tail = canonical_parts()
    return fill(head + "    one:\n      kind: interactive\n      maxRetries: 3\n      base: 500ms\n"
                "      cap: 8s\n      timeout: 8s\n      deadline: 15s\n" + tail, lambda i: "# c\n")


def shape_bom_crlf_comments(rng):
    """A BOM, CRLF line ends and ~110 000 numbered comment lines: libyaml parses it only once the
    BOM is dropped (as policyc and the floor both do)."""
    return fill("\ufeffversion: 1\r\npolicy: c\r\n", lambda i: f"# c{i}\r\n")


def shape_never_retry_wide_items(rng):
    """~10 000 neverRetry items, each its two keys and ten unknown ones: the decoder once reserved
    room for twelve decoded entries an item (34 MiB at the peak)."""
    head = "version: 1\npolicy: c\nretry:\n  neverRetry:\n"
    extra = "".join(f", x{j}: 1" for j in range(10))
    return fill(head, lambda i: f"    - {{status: 503, code: c{i}{extra}}}\n")


def shape_profiles_many_unknown(rng):
    """~7 000 profiles of a known key and twenty unknown ones, in flow style."""
    head, tail = canonical_parts()
    extra = ", ".join(f"u{j}: {j}" for j in range(20))
    return fill(head, lambda i: f"    p{i}: {{kind: background, {extra}}}\n", tail)


def shape_never_retry_one_key_items(rng):
    """~65 000 neverRetry items of one key (`{code: c1}`, each lacking its status) in one flow
    list: the node tree and the decoded values of every item, held at once, peaked at 35 MiB."""
    head = "version: 1\npolicy: c\nretry:\n  neverRetry: [\n"
    return fill(head, lambda i: f"{{code: c{i}}},\n", "]\n")


def shape_never_retry_flow_pairs(rng):
    """~39 000 valid, distinct neverRetry pairs in one flow list on one line: no finding, so the
    node tree is kept for fixes and held with the decoded values and the document (32.5 MiB
    before a node took 32 bytes)."""
    head = "version: 1\npolicy: c\nretry:\n  neverRetry: ["
    return fill(head, lambda i: f"{{status: {400 + i % 100}, code: {i}}},", "]\n")


def shape_one_letter_items(rng):
    """~520 000 one-letter items in one flow retryOn list (`[a,a,...]`): the most nodes a 1 MiB
    file holds, each refused, none decoded (31.6 MiB before a node took 32 bytes)."""
    return fill("version: 1\npolicy: c\nretry:\n  retryOn: [", lambda i: "a,", "a]\n")


def shape_never_retry_bad(rng):
    """~25 000 neverRetry items, each with a code that is not a string (`code: [x]`) and a status out of range."""
    text = shape_never_retry(rng)[0]
    head, rest = text.split("  neverRetry:\n", 1)
    rest = rest.split("\n", 1)[1]
    while rest.startswith("    - {"):
        rest = rest.split("\n", 1)[1]
    return fill(head + "  neverRetry:\n", lambda i: f"    - {{status: {600 + i % 400}, code: [c{i}]}}\n", rest)


def shape_never_retry_repeated(rng):
    """~30 000 neverRetry items, all the same pair: a repeat each."""
    text = shape_never_retry(rng)[0]
    head, rest = text.split("  neverRetry:\n", 1)
    rest = rest.split("\n", 1)[1]
    while rest.startswith("    - {"):
        rest = rest.split("\n", 1)[1]
    return fill(head + "  neverRetry:\n", lambda i: "    - {status: 503, code: not_ready}\n", rest)


def shape_retry_on_bad(rng):
    """A block retryOn list of 80 000 words that are neither network nor a status (`- netwrk`)."""
    head, tail = canonical_parts()
    body = tail.replace("  retryOn:", "  retryOnOld:", 1)
    return fill(head + "    one:\n      kind: interactive\n      maxRetries: 3\n      base: 500ms\n"
                "      cap: 8s\n      timeout: 8s\n      deadline: 15s\n  retryOn:\n",
                lambda i: "    - netwrk\n", body)


def shape_unknown_keys_flow(rng):
    """The whole policy as one flow mapping, followed by tens of thousands of unknown keys."""
    return fill("{version: 1, policy: flow", lambda i: f", unknownKey{i}: {i}", "}\n")


def shape_unknown_profile_keys(rng):
    """~25 000 profiles of one misspelt key (`{kindd: interactive}`): a did-you-mean and five missing keys each."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    p{i}: {{kindd: interactive}}\n", tail)


def shape_long_unknown_keys(rng):
    """~5 000 unknown top-level keys of 200 characters, each weighed for a did-you-mean."""
    head, tail = canonical_parts()
    return fill(head + "    one:\n      kind: background\n      maxRetries: 1\n      base: 1s\n"
                "      cap: 30s\n      timeout: 15s\n      deadline: 60s\n" + tail,
                lambda i: "maxRetries" * 20 + f"{i}: 1\n")


def shape_block_scalars(rng):
    """Thousands of unknown keys, each with a literal block scalar of a few lines."""
    head, tail = canonical_parts()
    return fill(head + "    one:\n      kind: background\n      maxRetries: 1\n      base: 1s\n"
                "      cap: 30s\n      timeout: 15s\n      deadline: 60s\n" + tail,
                lambda i: f"note{i}: |\n  a line of text\n  another line of text\n  and a third one\n")


def shape_plain_line(rng):
    """A description of one plain scalar on one line of ~1 MiB: valid."""
    head, tail = canonical_parts()
    head = head.split("description:", 1)[0] + "description: start"
    retry = "\nretry:\n  profiles:\n    one:\n      kind: background\n      maxRetries: 1\n      base: 1s\n" \
            "      cap: 30s\n      timeout: 15s\n      deadline: 60s\n" + tail
    return fill(head, lambda i: f" word{i % 1000}", retry)


def shape_quoted_escapes(rng):
    """A double-quoted description of ~1 MiB, full of escapes (`\\u00e9\\t`): valid."""
    head, tail = canonical_parts()
    head = head.split("description:", 1)[0] + 'description: "'
    retry = '"\nretry:\n  profiles:\n    one:\n      kind: background\n      maxRetries: 1\n      base: 1s\n' \
            "      cap: 30s\n      timeout: 15s\n      deadline: 60s\n" + tail
    return fill(head, lambda i: "\\u00e9\\t\\\"x ", retry)


def shape_deep_wide(rng):
    """Mappings nested six deep under unknown keys, with 40 keys at every level: wide at every depth."""
    def item(i):
        out = [f"wide{i}:"]
        for level in range(1, 6):
            out += ["  " * level + f"k{j}: {j}" for j in range(40)]
            out.append("  " * level + "next:")
        out.append("  " * 6 + "leaf: 1")
        return "\n".join(out) + "\n"
    return fill("version: 1\npolicy: wide\n", item)


def shape_wide_below_kept(rng):
    """One mapping at depth 12 holding tens of thousands of keys (kept without contents, keys still compared)."""
    head = "version: 1\npolicy: wide\n" + "".join("  " * level + f"k{level}:\n" for level in range(12))
    return fill(head, lambda i: "  " * 12 + f"key{i}: {i}\n")


def shape_profiles_rules(rng):
    """~11 000 interactive profiles that break several rules each (retries, timeout, backoff order, deadline)."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    p{i}: {{kind: interactive, maxRetries: 9, base: 9s, cap: 8s, timeout: 1s, deadline: 60s}}\n", tail)


def shape_profiles_bad_values(rng):
    """~10 000 profiles whose every value is mistyped (a did-you-mean or a unit to guess for each)."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    p{i}: {{kind: interactiv, maxRetries: '3', base: 500, cap: 8 sec, timeout: 5, deadline: x}}\n", tail)


def shape_profiles_null_values(rng):
    """~12 000 profiles whose every key has no value (`kind:` ...)."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    p{i}: {{kind: , maxRetries: , base: , cap: , timeout: , deadline: }}\n", tail)


def shape_name_collisions(rng):
    """~40 000 profile names that collide in pairs once made identifiers (`a-b1` and `aB1`)."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    a-b{i // 2}: {{}}\n" if i % 2 == 0 else f"    aB{i // 2}: {{}}\n", tail)


def shape_unicode_names(rng):
    """~40 000 profiles with non-ASCII names (`pé1`): a bad name each."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    pé日{i}: {{}}\n", tail)


def shape_profiles_crlf(rng):
    """The full profiles of `profiles-full` with CRLF line ends: valid."""
    text, n = shape_profiles_full(rng)
    text = text.replace("\n", "\r\n")
    while len(text.encode()) > MAX_BYTES - 64:
        text = text[:text.rindex("    p", 0, text.index("  retryOn:"))] + text[text.index("  retryOn:"):]
        n -= 1
    return text, n


def shape_scalar_profiles(rng):
    """~80 000 profiles whose value is a scalar (`p1: 1`): a mismatch each."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    p{i}: {i}\n", tail)


def shape_tags(rng):
    """Tens of thousands of tagged scalars (`!!str x`): one finding for them all."""
    return fill("version: 1\npolicy: tags\nlist:\n", lambda i: f"  - !!str x{i}\n")


def shape_late_nulls(rng):
    """~1 000 profiles without a value after ~7 000 valid ones: each finding's help is a canonical profile."""
    head, tail = canonical_parts()
    def item(i):
        if i < 7000:
            return (f"    p{i}:\n      kind: background\n      maxRetries: 2\n      base: 1s\n"
                    f"      cap: 8s\n      timeout: 10s\n      deadline: 60s\n")
        return f"    late{i}:\n"
    return fill(head, item, tail)


def shape_misplaced_then_empty(rng):
    """One key in the wrong mapping (a budget inside a profile), then 50 000 profiles written `{}`."""
    head, tail = canonical_parts()
    head += "    first:\n      budget: {ratio: 10%, minPerMinute: 10}\n"
    return fill(head, lambda i: f"    p{i}: {{}}\n", tail)


def shape_comments_inline(rng):
    """~20 000 profiles written `{}`, each followed by a comment: little for libyaml, a profile for policyc."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    p{i}: {{}}  # profile {i}, to be filled in {'.' * 30}\n", tail)


def shape_unicode_values(rng):
    """~18 000 profiles whose values are accented words (`kind: backgröund`, `maxRetries: zwei`, `base: 1 séc`)."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    p{i}:\n      kind: backgröund\n      maxRetries: zwei\n      base: 1 séc\n", tail)


def shape_quoted_names(rng):
    """~40 000 profiles with double-quoted names full of escapes (`"p\\u00e91\\t": {}`)."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f'    "p\\u00e9{i}\\t": {{}}\n', tail)


def shape_unknown_tiny_lists(rng):
    """One flow list of ~200 000 one-item lists under a key the language lacks: `x: [[1], [1], ...]`."""
    return fill("version: 1\npolicy: lists\nx: [", lambda i: "[1], ", "[]]\n")


def shape_unknown_nested_lists(rng):
    """~130 000 block lists three deep (`- - - 1`) under a key the language lacks."""
    return fill("version: 1\npolicy: lists\nx:\n", lambda i: "- - - 1\n")


def shape_profiles_nested_values(rng):
    """~23 000 profiles whose one value nests five flow mappings: `p1: {kind: {a: {b: {c: {d: x}}}}}`."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    p{i}: {{kind: {{a: {{b: {{c: {{d: x}}}}}}}}}}\n", tail)


def shape_overlong_values(rng):
    """~7 000 profiles whose every value is far too long or too large (`base: 99999999999999999999s`, `cap: 1e400s`)."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    p{i}: {{kind: background, maxRetries: 123456789012345678901234567890, "
                                f"base: 99999999999999999999s, cap: 1e400s, timeout: -0, deadline: .inf}}\n", tail)


def shape_tab_indented(rng):
    """Lines indented by tabs from the fourth on: a syntax error near the start of 1 MiB."""
    return fill("version: 1\npolicy: tabs\nretry:\n", lambda i: f"\tp{i}: {{}}\n")


def shape_long_policy_name(rng):
    """One policy name of ~1 MiB (`policy: aaaa...`): a bad name, shown cut."""
    retry = "\nretry:\n  profiles:\n    one:\n      kind: background\n      maxRetries: 1\n      base: 1s\n" \
            "      cap: 30s\n      timeout: 15s\n      deadline: 60s\n"
    return fill("version: 1\npolicy: ", lambda i: "a", retry)


def shape_never_retry_quoted_statuses(rng):
    """~30 000 neverRetry items whose status is quoted and code a number (`{status: "503", code: 7}`)."""
    return fill("version: 1\npolicy: c\nretry:\n  neverRetry:\n", lambda i: f'    - {{status: "503", code: {i}}}\n')


def shape_anchored_profiles(rng):
    """~27 000 one-key profiles, each with an anchor (`p1: &a1 {kind: background}`)."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    p{i}: &a{i} {{kind: background}}\n", tail)


def shape_documents(rng):
    """~35 000 small documents (`---` before each): the first is linted, the second refused."""
    return fill("", lambda i: f"---\nversion: 1\npolicy: p{i}\n")


def shape_duration_spellings(rng):
    """~10 000 interactive profiles whose durations are spelt four ways (`0.5s`, `500 ms`, `8000ms`, `1m`)."""
    head, tail = canonical_parts()
    spell = [("0.5s", "8s", "5s", "15s"), ("500 ms", "8000ms", "6s", "20s"), ("1s", "1m", "7.5s", "1m"), ("250ms", "8 s", "10s", "30s")]
    return fill(head, lambda i: "    p%d: {kind: interactive, maxRetries: 3, base: %s, cap: %s, timeout: %s, deadline: %s}\n"
                % ((i,) + spell[i % 4]), tail)



def shape_retry_on_decimals(rng):
    """A block retryOn list of ~66 000 decimal numbers (`- 503.5`): neither network nor a status."""
    return fill("version: 1\npolicy: w\nretry:\n  retryOn:\n", lambda i: f"    - 503.{i}\n")


def shape_long_duration(rng):
    """One duration of ~1 MiB (`base: 1111...s`): refused, and shown cut."""
    head = "version: 1\npolicy: long\nretry:\n  profiles:\n    one:\n      kind: background\n      maxRetries: 1\n      base: "
    tail = "s\n      cap: 30s\n      timeout: 15s\n      deadline: 60s\n"
    return fill(head, lambda i: "1", tail)


def shape_folded_description(rng):
    """A folded description of ~260 000 short lines, then a retry section that lacks keys: findings on its last lines."""
    retry = "retry:\n  profiles:\n    one: {kind: background, maxRetries: 1, base: 1s, cap: 8s, timeout: 10s, deadline: 60s}\n"
    return fill("version: 1\npolicy: folded\ndescription: >-\n", lambda i: "  w\n\n", retry)


def shape_case_variants(rng):
    """~37 000 profile names that differ only in where their capitals are (`aBcD…`): one fold, so one
    group for name-collision to sort out, and no two alike."""
    head, tail = canonical_parts()
    word = "abcdefghijklmnopqrst"

    def name(i):
        return "".join(c.upper() if k > 0 and (i >> k) & 1 else c for k, c in enumerate(word))
    return fill(head, lambda i: f"    {name(2 * i)}: {{}}\n", tail)


def shape_repeated_flow_item(rng):
    """One flow `retryOn` of ~340 000 items, all `9`: each a finding, and every one after the first a
    repeat, so the list keeps one item (a reader that kept every item before dropping repeats peaked
    17 MiB higher)."""
    return fill("version: 1\npolicy: repeated\nretry:\n  retryOn: [9", lambda i: ", 9", "]\n")


def shape_blank_lines(rng):
    """Two keys, then 1 MiB of empty lines: libyaml skips them fast, and the fixes of the missing
    keys need the map of every line."""
    return fill("version: 1\npolicy: blank\n", lambda i: "\n")


def shape_member_case_variants(rng):
    """~36 000 profile names that differ only in their capitals, all of them variants of a member
    every generated policy declares (`prefetchRetryRefused`): one fold, whose names are all looked
    up among the taken words."""
    head, tail = canonical_parts()
    word = "prefetchretryrefused"

    def name(i):
        return "".join(c.upper() if k > 0 and (i >> (k - 1)) & 1 else c for k, c in enumerate(word))
    return fill(head, lambda i: f"    {name(i)}: {{}}\n", tail)


def shape_deep_indentation(rng):
    """~690 profiles whose keys stand 600 columns in and whose one value 900 (`kind: background`):
    each lacks five keys, and each fix indents its lines that far (written a space at a time, the
    fixes took three quarters of lint's time)."""
    return fill("version: 1\npolicy: indented\nretry:\n" + " " * 300 + "profiles:\n",
                lambda i: " " * 600 + f"q{i}:\n" + " " * 900 + "kind: background\n")


def shape_long_choice(rng):
    """One `kind:` of ~1 MiB of accented capitals (`ÉÉÉ…`): not a choice, and no typo of one
    (lowered whole, then squashed whole for each choice, it took 31 times libyaml's parse)."""
    head = "version: 1\npolicy: choice\nretry:\n  profiles:\n    a:\n      kind: "
    return fill(head, lambda i: "É", "\n")


def shape_long_explicit_key(rng):
    """One explicit key (`? ÉÉÉ…`) of ~1 MiB in a profile: an unknown key, looked up where it may
    belong and taken apart for known keys (hashed as Unicode and lowered whole, it took 96 times
    libyaml's parse)."""
    head = "version: 1\npolicy: key\nretry:\n  profiles:\n    a:\n      ? "
    return fill(head, lambda i: "É", "\n      : 1\n")


def shape_accented_lines(rng):
    """~1 260 profiles, each a flow mapping with 400 accented letters before a bad `kind`: a
    thousand findings to show on lines past ASCII (each line decoded whole and each letter's width
    asked of Unicode's tables took a third of lint)."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f'    p{i}: {{x: "{"é" * 400}", kind: bad}}\n', tail)


def shape_cr_breaks(rng):
    """The full profiles of `profiles-full` with lone CR line breaks (old Mac text, which YAML
    accepts): valid, each line's column counted from a break the map of lines must find."""
    text, n = shape_profiles_full(rng)
    text = text.replace("\n", "\r")
    return text, n


def shape_line_separators(rng):
    """~28 000 profiles whose lines end in U+2028 LINE SEPARATOR, a YAML line break of three
    bytes, one line in two: positions past breaks that are not bytes of their own."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    p{i}:\u2028      kind: interactive\n", tail)


def shape_merge_keys(rng):
    """~25 000 profiles that each merge one anchored profile (`<<: *base`): merge keys and aliases
    by the thousand, never expanded."""
    head, tail = canonical_parts()
    head += "    base: &base\n      kind: interactive\n      maxRetries: 3\n"
    return fill(head, lambda i: f"    p{i}:\n      <<: *base\n      cap: 8s\n", tail)


def shape_numeric_names(rng):
    """~30 000 profiles named by numbers (`1234:`): names that are not identifiers, each a bad
    name and a profile without its keys."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    {i}:\n      kind: interactive\n", tail)


def shape_profiles_as_lists(rng):
    """~18 000 profiles written as lists of one-key mappings (`- kind: interactive`), a common
    slip: a mapping expected, a list found, for each."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    p{i}:\n      - kind: interactive\n      - maxRetries: 3\n", tail)


def shape_complex_keys(rng):
    """~48 000 explicit keys that are flow lists (`? [a1, b]`) in one mapping: keys that are not
    text, one finding for them all with their count."""
    return fill("version: 1\npolicy: keys\nretry:\n", lambda i: f"  ? [a{i}, b]\n  : c\n")


def shape_top_level_list(rng):
    """~35 000 policies as the items of one top-level list: the document is not a mapping, so
    one finding, and nothing of the list is read."""
    return fill("", lambda i: f"- version: 1\n  policy: p{i}\n")


def shape_profile_duplicate_keys(rng):
    """~9 500 profiles that each repeat their keys (`kind` three times, `cap` twice): duplicate
    keys found in every mapping, not in one."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    p{i}:\n      kind: interactive\n      kind: background\n      kind: interactive\n"
                                f"      cap: 8s\n      cap: 9s\n", tail)


def shape_long_reuse_key(rng):
    """A `reuseKey` list of ~80 000 items, known ones and unknown ones (`viewr`) in turn: unknown
    choices and repeated items in one list."""
    words = ["viewer", "device", "episode", "intent", "viewr", "session"]
    return fill("version: 1\npolicy: reuse\ntickets:\n  reuseKey:\n", lambda i: f"    - {words[i % 6]}\n")


def shape_misplaced_budgets(rng):
    """~14 000 profiles that each hold a `budget` (it belongs under `retry`) with a percent out of
    range and a negative floor: a misplaced key, and missing keys, per profile."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    p{i}:\n      budget:\n        ratio: {i % 100}.{i % 7}%\n"
                                f"        minPerMinute: -{i}\n", tail)


def shape_bool_spellings(rng):
    """`honor` repeated ~72 000 times in one mapping, its values YAML 1.1 booleans (`yes`, `No`,
    `ON`): a duplicate key each."""
    spell = ["yes", "No", "ON", "off", "TRUE", "y"]
    return fill("version: 1\npolicy: bools\nretry:\n  retryAfter:\n", lambda i: f"    honor: {spell[i % 6]}\n")


def shape_snake_names(rng):
    """~22 000 profiles named in snake case with a dot (`my_profile_12.v2`), as a generator from
    another language writes them: a bad name each, with the name to write instead."""
    head, tail = canonical_parts()
    return fill(head, lambda i: f"    my_profile_{i}.v2:\n      kind: interactive\n", tail)


SHAPES = {
    "profiles-full": shape_profiles_full,
    "profiles-empty": shape_profiles_empty,
    "retry-on": shape_retry_on,
    "never-retry": shape_never_retry,
    "unknown-keys": shape_unknown_keys,
    "deep": shape_deep,
    "flow": shape_flow,
    "duplicate-keys": shape_duplicate_keys,
    "aliases": shape_aliases,
    "profiles-flow": shape_profiles_flow,
    "profiles-empty-mapping": shape_profiles_empty_mapping,
    "profiles-one-key": shape_profiles_one_key,
    "deep-flow": shape_deep_flow,
    "flow-mapping": shape_flow_mapping,
    "flow-unterminated": shape_flow_unterminated,
    "duplicate-profiles": shape_duplicate_profiles,
    "tiny-lists": shape_tiny_lists,
    "long-keys": shape_long_keys,
    "comments": shape_comments,
    "never-retry-bad": shape_never_retry_bad,
    "never-retry-repeated": shape_never_retry_repeated,
    "retry-on-bad": shape_retry_on_bad,
    "unknown-keys-flow": shape_unknown_keys_flow,
    "unknown-profile-keys": shape_unknown_profile_keys,
    "long-unknown-keys": shape_long_unknown_keys,
    "block-scalars": shape_block_scalars,
    "plain-line": shape_plain_line,
    "quoted-escapes": shape_quoted_escapes,
    "deep-wide": shape_deep_wide,
    "wide-below-kept": shape_wide_below_kept,
    "profiles-rules": shape_profiles_rules,
    "profiles-bad-values": shape_profiles_bad_values,
    "profiles-null-values": shape_profiles_null_values,
    "name-collisions": shape_name_collisions,
    "unicode-names": shape_unicode_names,
    "profiles-crlf": shape_profiles_crlf,
    "scalar-profiles": shape_scalar_profiles,
    "tags": shape_tags,
    "late-nulls": shape_late_nulls,
    "misplaced-then-empty": shape_misplaced_then_empty,
    "comments-inline": shape_comments_inline,
    "unicode-values": shape_unicode_values,
    "quoted-names": shape_quoted_names,
    "unknown-tiny-lists": shape_unknown_tiny_lists,
    "unknown-nested-lists": shape_unknown_nested_lists,
    "profiles-nested-values": shape_profiles_nested_values,
    "overlong-values": shape_overlong_values,
    "tab-indented": shape_tab_indented,
    "long-policy-name": shape_long_policy_name,
    "never-retry-quoted-statuses": shape_never_retry_quoted_statuses,
    "anchored-profiles": shape_anchored_profiles,
    "documents": shape_documents,
    "duration-spellings": shape_duration_spellings,
    "retry-on-decimals": shape_retry_on_decimals,
    "long-duration": shape_long_duration,
    "folded-description": shape_folded_description,
    "case-variants": shape_case_variants,
    "repeated-flow-item": shape_repeated_flow_item,
    "blank-lines": shape_blank_lines,
    "member-case-variants": shape_member_case_variants,
    "bom-crlf-comments": shape_bom_crlf_comments,
    "never-retry-wide-items": shape_never_retry_wide_items,
    "profiles-many-unknown": shape_profiles_many_unknown,
    "never-retry-one-key-items": shape_never_retry_one_key_items,
    "never-retry-flow-pairs": shape_never_retry_flow_pairs,
    "one-letter-items": shape_one_letter_items,
    "deep-indentation": shape_deep_indentation,
    "long-choice": shape_long_choice,
    "long-explicit-key": shape_long_explicit_key,
    "accented-lines": shape_accented_lines,
    "cr-breaks": shape_cr_breaks,
    "line-separators": shape_line_separators,
    "merge-keys": shape_merge_keys,
    "numeric-names": shape_numeric_names,
    "profiles-as-lists": shape_profiles_as_lists,
    "complex-keys": shape_complex_keys,
    "top-level-list": shape_top_level_list,
    "profile-duplicate-keys": shape_profile_duplicate_keys,
    "long-reuse-key": shape_long_reuse_key,
    "misplaced-budgets": shape_misplaced_budgets,
    "bool-spellings": shape_bool_spellings,
    "snake-names": shape_snake_names,
}


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def generate_shapes(out):
    shapes = {}
    for i, (name, make) in enumerate(SHAPES.items()):
        text, count = make(random.Random(SEED + 100 + i))
        assert len(text.encode()) <= MAX_BYTES, name
        write(os.path.join(out, "shapes", f"{name}.yaml"), text)
        shapes[name] = count
    write(os.path.join(out, "shapes", "description.yaml"), big_description(random.Random(SEED + 3)))
    return shapes


def generate(out):
    rng = random.Random(SEED)
    policies = [policy(rng, i) for i in range(2000)]
    for count in (1, 100, 2000):
        for i in range(count):
            write(os.path.join(out, f"clean-{count}", f"p{i // 100:02d}", f"policy-{i:04d}.yaml"), policies[i])
    broken_rng = random.Random(SEED + 1)
    broken = sorted(broken_rng.sample(range(2000), 200))
    kinds = {}
    for n, i in enumerate(broken):
        text, kind = break_policy(policies[i], n)
        kinds[kind] = kinds.get(kind, 0) + 1
        policies[i] = text
    for i, text in enumerate(policies):
        write(os.path.join(out, "findings-2000", f"p{i // 100:02d}", f"policy-{i:04d}.yaml"), text)
    big, profiles = big_profiles(random.Random(SEED + 2))
    write(os.path.join(out, "big", "profiles.yaml"), big)
    write(os.path.join(out, "big", "description.yaml"), big_description(random.Random(SEED + 3)))
    shapes = generate_shapes(out)
    return {"broken": len(broken), "kinds": kinds, "big_profiles": profiles, "shapes": shapes}


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--shapes":
        shapes = generate_shapes(sys.argv[2])
        print(f"1 MiB shapes: {len(shapes) + 1} files in {os.path.join(sys.argv[2], 'shapes')}")
        sys.exit(0)
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    info = generate(sys.argv[1])
    print(f"corpus: {info['big_profiles']} profiles in big/profiles.yaml; "
          f"{info['broken']} broken files in findings-2000 ({', '.join(f'{k} {v}' for k, v in sorted(info['kinds'].items()))}); "
          f"1 MiB shapes: {', '.join(f'{k} ({v} items)' for k, v in info['shapes'].items())}")
