"""The benchmark driver; `Benchmarks/run` builds everything and calls this (see its usage).

Times subprocesses only (the driver's own start-up does not count): each command runs under
Benchmarks/measure.c, which takes wall time around fork + wait4 and CPU time and peak RSS from
wait4's rusage of that one child. The fast commands
run interleaved, one of each per round, so a busy machine slows every command of a round alike
and the ratios, taken between medians of the same run, stay meaningful.
"""

import argparse
import atexit
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from review_bench import review_section

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WORK = os.path.join(HERE, ".work")
# lint of any hostile 1 MiB shape: at most this many times libyaml's parse of it (wall time).
HOSTILE_RATIO = 5.0


class Sample:
    def __init__(self, wall, cpu, rss_kib, rc, stderr, sys_time=0.0):
        self.wall, self.cpu, self.rss_kib, self.rc, self.stderr = wall, cpu, rss_kib, rc, stderr
        self.sys = sys_time


MEASURE = None  # Benchmarks/measure.c, built by `run`; set from --measure


def spawn(cmd, env=None, stdout_path=None):
    """Runs cmd once under `measure` (see measure.c for why not straight from Python); stdout to
    a file (or nowhere), stderr kept for messages."""
    full_env = dict(os.environ)
    full_env.pop("POLICYC_THREADS", None)
    if env:
        full_env.update(env)
    out_fd = os.open(stdout_path or os.devnull, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    result = os.path.join(WORK, "measure.out")
    with tempfile.TemporaryFile() as err:
        actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                   (os.POSIX_SPAWN_DUP2, out_fd, 1),
                   (os.POSIX_SPAWN_DUP2, err.fileno(), 2)]
        pid = os.posix_spawn(MEASURE, [MEASURE, result] + cmd, full_env, file_actions=actions)
        _, status = os.waitpid(pid, 0)
        os.close(out_fd)
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"measure failed for {' '.join(cmd)}: {text[-500:]}")
    wall, cpu, rss, rc, sys_time = open(result).read().split()
    return Sample(float(wall), float(cpu), int(rss), int(rc), text, float(sys_time))


class Bench:
    def __init__(self, name, cmd, env=None, ok=(0,), setup=None, teardown=None):
        self.name, self.cmd, self.env, self.ok = name, cmd, env, ok
        self.setup, self.teardown = setup, teardown
        self.samples = []
        self.skipped = None  # why, when the command cannot run on this branch

    def run_once(self):
        if self.setup:
            self.setup()
        s = spawn(self.cmd() if callable(self.cmd) else self.cmd, self.env)
        if self.teardown:
            self.teardown()
        if s.rc not in self.ok:
            raise RuntimeError(f"{self.name}: exit {s.rc} (expected {self.ok}): {self.name}\n{s.stderr[-2000:]}")
        self.samples.append(s)
        return s

    @property
    def median(self):
        return statistics.median(s.wall for s in self.samples) if self.samples else None

    @property
    def minimum(self):
        return min(s.wall for s in self.samples) if self.samples else None

    @property
    def cpu(self):
        return statistics.median(s.cpu for s in self.samples) if self.samples else None

    @property
    def sys(self):
        return statistics.median(s.sys for s in self.samples) if self.samples else None

    @property
    def rss_mib(self):
        return max(s.rss_kib for s in self.samples) / 1024 if self.samples else None


def fmt_time(seconds):
    if seconds is None:
        return "-"
    return f"{seconds * 1000:.1f} ms" if seconds < 10 else f"{seconds:.2f} s"


def files_of(folder):
    found = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        found += [os.path.join(dirpath, f) for f in sorted(filenames) if f.endswith((".yaml", ".yml"))]
    return found


SIMULATE_SCENARIO = """version: 1
scenario: outage-10m
description: Ten minutes at peak time (each client calls every two minutes, capacity a fifth over demand) with a 3-minute outage answering 503.
duration: 10m
seed: 1
fleet: {{clients: {clients}, callsPerMinute: 0.5}}
server: {{capacity: {capacity}, mode: shed, latency: 50ms, busy: {{status: 503, retryAfter: 1s}}}}
faults:
  - {{kind: outage, from: 2m, to: 5m, status: 503}}
"""


def simulate_section(policyc, runs, results, problems):
    """`policyc simulate` of Policies/ over ten minutes at peak time with an outage, for 100 000 and
    1 000 000 clients (capacity scaled alike, so the second is the first ten times over): attempts
    simulated per CPU second at both sizes (>= 2 million) and peak RSS of the first (< 64 MiB).
    The CPU time of the second / the first is shown, not held to a bound: the work is ten times
    over, but a million clients' state outgrows the caches, which the simulator does not try to
    hide. Returns how many targets were missed."""
    if runs <= 0:
        print("\nsimulate SKIPPED (--simulate-runs 0)")
        return 0
    sizes = [100_000, 1_000_000]
    cases = []
    for clients in sizes:
        path = os.path.join(WORK, f"simulate-outage-10m-{clients}.yaml")
        with open(path, "w") as f:
            f.write(SIMULATE_SCENARIO.format(clients=clients, capacity=clients // 100))
        out = os.path.join(WORK, f"simulate-{clients}.json")
        cmd = [policyc, "simulate", "--format", "json", "--scenario", path, "Policies/playback.yaml"]
        first = spawn(cmd, stdout_path=out)
        if first.rc != 0:
            problems.append(f"policyc simulate exited {first.rc} for {clients} clients: {first.stderr.strip()[:300]}")
            return 0
        summary = json.load(open(out))["runs"][0]["summary"]
        cases.append((clients, summary, Bench(f"policyc simulate, 10-min outage, {clients} clients", cmd)))
    # Interleaved, as the fast commands are: each round runs the small case ten times (as much
    # work as one large run, and a tenth of a second each, so one slow moment of a noisy machine
    # moves its median little) and then the large one, so both see the same machine.
    small_per_round = 10
    for _ in range(runs):
        for _ in range(small_per_round):
            cases[0][2].run_once()
        cases[1][2].run_once()
    print()
    print(f"simulate: Policies/playback.yaml, 10 minutes at peak time with a 3-minute outage; {runs} rounds "
          f"(100 000 clients {small_per_round} times a round, 1 000 000 once), medians")
    print(f"{'clients':>9} {'calls':>9} {'attempts':>10} {'median':>10} {'cpu':>10} {'max RSS':>10} {'attempts per cpu s':>20}")
    for clients, summary, b in cases:
        rate = summary["attempts"] / b.cpu
        print(f"{clients:>9} {summary['calls']:>9} {summary['attempts']:>10} {fmt_time(b.median):>10} {fmt_time(b.cpu):>10} "
              f"{b.rss_mib:>6.1f} MiB {rate / 1e6:>16.2f} M")
    (small_clients, small, small_b), (_, big, big_b) = cases
    rate = small["attempts"] / small_b.cpu
    ratio = big_b.cpu / small_b.cpu
    work = big["attempts"] / small["attempts"]
    targets = [
        ("attempts per CPU second, 100 000 clients", rate / 1e6, ">=", 2.0, "M"),
        ("attempts per CPU second, 1 000 000 clients", big["attempts"] / big_b.cpu / 1e6, ">=", 2.0, "M"),
        ("peak RSS, 100 000 clients", small_b.rss_mib, "<", 64.0, "MiB"),
    ]
    missed = 0
    results["simulate"] = {"rounds": runs, "small_runs_per_round": small_per_round, "attempts_ratio": round(work, 3)}
    for name, value, op, limit, unit in targets:
        met = value >= limit if op == ">=" else value < limit if op == "<" else value <= limit
        missed += not met
        print(f"{name:<42} {value:>9.2f} {unit:<4} {op} {limit:g} {'met' if met else 'MISSED'}")
        results["simulate"][name] = {"value": round(value, 3), "target": f"{op} {limit:g}", "met": met}
    results["simulate"]["cpu_ratio"] = round(ratio, 3)
    print(f"(1 000 000 clients make {work:.2f} times the attempts of 100 000, in {ratio:.2f} times the CPU time)")
    return missed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--policyc", required=True)
    ap.add_argument("--floor", required=True)
    ap.add_argument("--measure", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--check-jsonschema", dest="cjs", help="path of check-jsonschema; omitted: not timed")
    ap.add_argument("--release-policyc", dest="release", help="the release binary (Scripts/release); omitted: not timed")
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--jsonschema-runs", type=int, default=3)
    ap.add_argument("--results", default=os.path.join(WORK, "results.json"))
    ap.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    ap.add_argument("--simulate-runs", type=int, default=3, help="rounds of `policyc simulate`: 100 000 clients ten times, 1 000 000 once (0: skip)")
    ap.add_argument("--review-runs", type=int, default=5, help="runs of `policyc diff --base` on 1 and 30 changed policies (0: skip)")
    a = ap.parse_args()
    for name in ("policyc", "floor", "measure", "corpus", "cjs", "release", "results"):
        if getattr(a, name):
            setattr(a, name, os.path.abspath(getattr(a, name)))
    os.chdir(ROOT)
    global MEASURE
    MEASURE = a.measure

    C = lambda *p: os.path.join(a.corpus, *p)
    policyc, floor = a.policyc, a.floor
    notes, problems = [], []

    # -- which commands can run on this branch ------------------------------------------------------
    # Each timed `generate` writes into a new folder in the system's temporary folder (TMPDIR or
    # /tmp), and all of them are removed only after the last round. Removing the previous output
    # right before each run would time the kernel rather than policyc: on an ext4 without a journal
    # (this machine's), creating a file steps over every inode freed in the last 1-6 minutes, one
    # block lookup each (find_inode_bit -> recently_deleted), so 4,001 creations after 4,001
    # removals cost seconds of system time instead of ~0.1 s (see Benchmarks/README.md). The same
    # runs into a RAM file system (/dev/shm) are shown for information: policyc's own cost.
    gen_root = tempfile.mkdtemp(prefix="policyc-bench-generate-")
    gen_runs = iter(range(1_000_000))

    def gen_cmd():
        """policyc generate --out $TMPDIR/policyc-bench-generate-*/run-N Benchmarks/.work/corpus/clean-2000"""
        return [policyc, "generate", "--out", os.path.join(gen_root, f"run-{next(gen_runs)}"), C("clean-2000")]

    shm = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    shm_root = tempfile.mkdtemp(prefix="policyc-bench-generate-", dir=shm) if shm else None
    shm_runs = iter(range(1_000_000))

    def shm_cmd():
        """policyc generate --out /dev/shm/policyc-bench-generate-*/run-N Benchmarks/.work/corpus/clean-2000"""
        return [policyc, "generate", "--out", os.path.join(shm_root, f"run-{next(shm_runs)}"), C("clean-2000")]

    gen_kept = os.path.join(gen_root, "up-to-date")
    for root in (gen_root, shm_root):
        if root:
            atexit.register(shutil.rmtree, root, True)  # also when a run fails half-way

    probe_dir = tempfile.mkdtemp(dir=WORK)
    probe = spawn([policyc, "generate", "--out", probe_dir, C("clean-1")])
    shutil.rmtree(probe_dir, ignore_errors=True)
    generate_ok = probe.rc == 0
    if not generate_ok:
        first = probe.stderr.strip().splitlines()[:1]
        notes.append(f"generate SKIPPED: `policyc generate --out DIR` exited {probe.rc} on this branch"
                     f" ({first[0] if first else 'no message'})")

    wired = any("POLICYC_THREADS" in open(os.path.join(dp, f), encoding="utf-8", errors="replace").read()
                for dp, _, fs in os.walk(os.path.join(ROOT, "Sources")) for f in fs if f.endswith(".swift"))
    benches = {
        "version": Bench("policyc --version", [policyc, "--version"]),
        "lint-1": Bench("policyc lint, 1 file", [policyc, "lint", C("clean-1")]),
        "lint-100": Bench("policyc lint, 100 files", [policyc, "lint", C("clean-100")]),
        "lint-2000": Bench("policyc lint, 2000 files", [policyc, "lint", C("clean-2000")]),
        "lint-2000-t1": Bench("policyc lint, 2000 files, POLICYC_THREADS=1" + ("" if wired else " (unread)"),
                              [policyc, "lint", C("clean-2000")],
                              env={"POLICYC_THREADS": "1"}),
        "lint-2000-findings": Bench("policyc lint, 2000 files, 10% broken", [policyc, "lint", C("findings-2000")], ok=(0, 1)),
        "lint-big-profiles": Bench("policyc lint, 1 MiB (5k profiles)", [policyc, "lint", C("big", "profiles.yaml")]),
        "lint-big-description": Bench("policyc lint, 1 MiB (description)", [policyc, "lint", C("big", "description.yaml")]),
        "floor-1": Bench("floor (libyaml events), 1 file", [floor, C("clean-1")]),
        "floor-100": Bench("floor, 100 files", [floor, C("clean-100")]),
        "floor-2000": Bench("floor, 2000 files", [floor, C("clean-2000")]),
        "floor-big-profiles": Bench("floor, 1 MiB (5k profiles)", [floor, C("big", "profiles.yaml")]),
        "floor-big-description": Bench("floor, 1 MiB (description)", [floor, C("big", "description.yaml")]),
    }
    if a.release:
        # The one-file policyc of dist/ (static Swift runtime and libyaml) beside the normal build.
        benches["release-version"] = Bench("release binary: policyc --version", [a.release, "--version"])
        benches["release-lint-2000"] = Bench("release binary: policyc lint, 2000 files", [a.release, "lint", C("clean-2000")])
    else:
        notes.append("release binary SKIPPED (--no-release)")
    # The 1 MiB shapes (corpus.py SHAPES): lint, and libyaml's parse of the same file, in the same rounds.
    shape_names = sorted(f[:-5] for f in os.listdir(C("shapes")) if f.endswith(".yaml")) if os.path.isdir(C("shapes")) else []
    for name in shape_names:
        benches[f"lint-shape-{name}"] = Bench(f"policyc lint, 1 MiB shape: {name}", [policyc, "lint", C("shapes", f"{name}.yaml")], ok=(0, 1))
        benches[f"floor-shape-{name}"] = Bench(f"floor, 1 MiB shape: {name}", [floor, C("shapes", f"{name}.yaml")])
        if a.release:
            # The binary users run (dist/): its static runtime starts in about a millisecond where
            # the normal build's dynamic one takes four, a quarter of libyaml's parse of some shapes.
            benches[f"release-shape-{name}"] = Bench(f"release binary: policyc lint, 1 MiB shape: {name}",
                                                     [a.release, "lint", C("shapes", f"{name}.yaml")], ok=(0, 1))
    if generate_ok:
        benches["generate-2000"] = Bench("policyc generate --out NEW-TMP, 2000 files", gen_cmd)
        # The everyday case in a build: nothing changed, nothing is written.
        spawn([policyc, "generate", "--out", gen_kept, C("clean-2000")])
        if shm_root:
            benches["generate-2000-shm"] = Bench("policyc generate --out NEW-TMP in /dev/shm, 2000 files", shm_cmd)
        benches["generate-2000-unchanged"] = Bench("policyc generate, 2000 files, up to date",
                                                   [policyc, "generate", "--out", gen_kept, C("clean-2000")])

    # -- interleaved rounds: round 0 warms caches and is not kept -------------------------------------
    t0 = time.perf_counter()
    for r in range(a.runs + 1):
        for b in benches.values():
            b.run_once()
        if r == 0:
            for b in benches.values():
                b.samples.clear()
    print(f"timed {len(benches)} commands x {a.runs} runs in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    shutil.rmtree(gen_root, ignore_errors=True)
    if shm_root:
        shutil.rmtree(shm_root, ignore_errors=True)

    # -- check-jsonschema: seconds a run, so fewer runs, after a 1-file warm-up ---------------------------
    schema = os.path.join(ROOT, "Generated", "policy.schema.json")
    if not os.path.exists(schema):
        made = os.path.join(WORK, "policy.schema.json")
        s = spawn([policyc, "schema"], stdout_path=made)
        if s.rc == 0 and os.path.getsize(made) > 0:
            schema = made
            notes.append("Generated/policy.schema.json does not exist: check-jsonschema used the output of `policyc schema`")
        else:
            schema = os.path.join(HERE, "standin.schema.json")
            notes.append("Generated/policy.schema.json does not exist and `policyc schema` is not built: "
                         "check-jsonschema used the hand-written stand-in Benchmarks/standin.schema.json")
    if a.cjs:
        js = {n: Bench(f"check-jsonschema, {n} file{'s' if n > 1 else ''}",
                       [a.cjs, "--schemafile", schema] + files_of(C(f"clean-{n}")))
              for n in (1, 100, 2000)}
        t0 = time.perf_counter()
        js[1].run_once()
        js[1].samples.clear()
        for r in range(a.jsonschema_runs):
            for b in js.values():
                try:
                    b.run_once()
                except RuntimeError as e:
                    problems.append(f"check-jsonschema rejected the clean corpus under {os.path.relpath(schema, ROOT)}: {e}")
                    break
        for n, b in js.items():
            benches[f"jsonschema-{n}"] = b
        print(f"timed check-jsonschema in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    else:
        notes.append("check-jsonschema SKIPPED (--no-jsonschema)")

    # -- the clean corpora must be clean ---------------------------------------------------------------
    for name in ("clean-1", "clean-100", "clean-2000", os.path.join("big", "profiles.yaml"), os.path.join("big", "description.yaml")):
        out = os.path.join(WORK, "clean-findings.txt")
        s = spawn([policyc, "lint", C(name)], stdout_path=out)
        lines = open(out, encoding="utf-8", errors="replace").read().splitlines()
        if s.rc != 0 or lines:
            problems.append(f"lint found {len(lines)} finding(s) in the clean corpus {name} (exit {s.rc}); "
                            f"first: {lines[0] if lines else s.stderr.strip()[:200]}")

    # -- 1 thread versus many: same findings, same exit status ------------------------------------------
    if not wired:
        notes.append("POLICYC_THREADS is not read by Sources/ yet: the thread check compares two default runs")
    threads = []
    for fmt in ("text", "json"):
        outs = []
        for env in ({"POLICYC_THREADS": "1"}, None):
            path = os.path.join(WORK, f"threads-{fmt}-{'1' if env else 'many'}.out")
            s = spawn([policyc, "lint", "--format", fmt, C("findings-2000")], env=env, stdout_path=path)
            outs.append((s.rc, open(path, "rb").read()))
        (rc1, out1), (rcn, outn) = outs
        if fmt != "text" and rc1 == 2 and rcn == 2:
            threads.append(f"--format {fmt}: not available on this branch (exit 2)")
            continue
        lines, lines_n = out1.count(b"\n"), outn.count(b"\n")
        if rc1 == rcn and out1 == outn:
            threads.append(f"--format {fmt}: identical ({lines} lines, exit {rc1})")
        else:
            threads.append(f"--format {fmt}: DIFFERENT (exit {rc1} vs {rcn}, {lines} vs {lines_n} lines)")
            problems.append(f"lint --format {fmt} differs between POLICYC_THREADS=1 and the default")
        if fmt == "text" and lines == 0:
            problems.append("the findings corpus gave no findings: the thread comparison means nothing")

    # -- the release binary gives the same findings as the normal build ---------------------------------
    if a.release:
        for fmt in ("text", "json"):
            outs = []
            for binary in (policyc, a.release):
                path = os.path.join(WORK, f"release-{fmt}-{'release' if binary == a.release else 'normal'}.out")
                s = spawn([binary, "lint", "--format", fmt, C("findings-2000")], stdout_path=path)
                outs.append((s.rc, open(path, "rb").read()))
            if outs[0] != outs[1]:
                problems.append(f"lint --format {fmt} of findings-2000 differs between the release binary and the normal build")

    # -- the language server: didChange to publishDiagnostics, by a scripted client (lsp_client.py) -------
    lsp = None
    if spawn([policyc, "help", "lsp"]).rc != 0:
        notes.append("lsp SKIPPED: `policyc lsp` does not exist on this branch")
    else:
        client = subprocess.run([sys.executable, os.path.join(HERE, "lsp_client.py"), "--policyc", policyc,
                                 "--big", C("big", "profiles.yaml"), "--runs", str(max(100, a.runs * 20))],
                                capture_output=True, text=True, timeout=900)
        if client.returncode == 0:
            lsp = json.loads(client.stdout)
        else:
            problems.append(f"the scripted LSP client failed (exit {client.returncode}): {client.stderr.strip()[-500:]}")

    # -- report ------------------------------------------------------------------------------------------
    print()
    print(f"policyc benchmark — {a.runs} runs each (check-jsonschema: {a.jsonschema_runs}), medians; "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the end")
    print()
    print(f"{'command':<58} {'median':>11} {'min':>11} {'cpu':>11} {'of it sys':>11} {'max RSS':>10}")
    for key, b in benches.items():
        if not b.samples:
            continue
        print(f"{b.name:<58} {fmt_time(b.median):>11} {fmt_time(b.minimum):>11} {fmt_time(b.cpu):>11} "
              f"{fmt_time(b.sys):>11} {b.rss_mib:>7.1f} MiB")

    def per_file(prefix):
        big, one = benches.get(f"{prefix}-2000"), benches.get(f"{prefix}-1")
        if big and one and big.samples and one.samples:
            return (big.median - one.median) / 1999 * 1e6
        return None

    print()
    costs = [(p, per_file(p)) for p in ("lint", "floor", "jsonschema")]
    print("per file (2000-file median minus 1-file median, / 1999): "
          + ", ".join(f"{p} {c:.0f} µs" for p, c in costs if c is not None))

    def ratio(x, y, of="median"):
        bx, by = benches.get(x), benches.get(y)
        if not bx or not by or not bx.samples or not by.samples:
            return None
        return getattr(bx, of) / getattr(by, of)

    def pair(x, y):
        return ratio(x, y), ratio(x, y, "minimum")

    targets = [
        ("lint-2000 / floor-2000", pair("lint-2000", "floor-2000"), "<=", 2.0),
        ("jsonschema-2000 / lint-2000", pair("jsonschema-2000", "lint-2000"), ">=", 50.0),
        ("lint-1 / version", pair("lint-1", "version"), "<=", 1.5),
        ("lint-1MiB / floor-1MiB (5k profiles)", pair("lint-big-profiles", "floor-big-profiles"), "<=", 3.0),
        ("lint-1MiB / floor-1MiB (description)", pair("lint-big-description", "floor-big-description"), "<=", 3.0),
        # generate on an up-to-date project (the build step's usual case) renders every file and
        # writes none: the target. Writing 2000 new files is mostly the file system's work.
        ("generate-2000 up to date / lint-2000", pair("generate-2000-unchanged", "lint-2000"), "<=", 2.5),
        # Both carry the Swift runtime (Package.swift links it into release builds): the release
        # binary must not be slower, within the noise of two equal binaries.
        ("release --version / --version", pair("release-version", "version"), "<=", 1.05),
        ("release lint-2000 / lint-2000", pair("release-lint-2000", "lint-2000"), "<=", 1.05),
    ]
    print()
    print("ratios of medians decide; ratios of minimums (less disturbed by other load) are shown beside them")
    print(f"{'ratio (same run)':<42} {'medians':>9} {'minimums':>9}   {'target':<8} verdict")
    missed = 0
    results = {"runs": a.runs, "commands": {}, "ratios": {}, "notes": notes, "problems": problems}
    for name, (value, of_min), op, limit in targets:
        if value is None:
            print(f"{name:<42} {'-':>9} {'-':>9}   {op} {limit:<5g} SKIPPED")
            continue
        met = value <= limit if op == "<=" else value >= limit
        missed += not met
        print(f"{name:<42} {value:>9.2f} {of_min:>9.2f}   {op} {limit:<5g} {'met' if met else 'MISSED'}")
        results["ratios"][name] = {"value": round(value, 3), "of_minimums": round(of_min, 3),
                                   "target": f"{op} {limit:g}", "met": met}
    info = [("lint-2000, 1 thread / floor-2000", pair("lint-2000-t1", "floor-2000")),
            ("lint-2000, 1 thread / many threads", pair("lint-2000-t1", "lint-2000")),
            ("generate-2000 / lint-2000", pair("generate-2000", "lint-2000")),
            ("generate-2000 into /dev/shm / lint-2000", pair("generate-2000-shm", "lint-2000"))]
    for name, (value, of_min) in info:
        if value is not None:
            print(f"{name:<42} {value:>9.2f} {of_min:>9.2f}   (information)")
    rss = benches["lint-2000"].rss_mib
    met = rss < 40
    missed += not met
    print(f"{'peak RSS, lint-2000':<42} {rss:>5.1f} MiB {'':>9}   < 40 MiB {'met' if met else 'MISSED'}")
    results["ratios"]["peak RSS lint-2000 (MiB)"] = {"value": round(rss, 1), "target": "< 40", "met": met}

    if lsp:
        print()
        print("policyc lsp, didChange -> publishDiagnostics (Benchmarks/lsp_client.py, one change at a time)")
        for key, label, limit in (("canonical", "canonical policy, incremental change", 5.0),
                                  ("big", "~1 MiB policy (5k profiles), incremental change", 100.0),
                                  ("big-full", "~1 MiB policy, whole text sent", None)):
            r = lsp[key]
            verdict = "(information)"
            if limit is not None:
                met = r["p95_ms"] <= limit
                missed += not met
                verdict = f"p95 <= {limit:g} ms {'met' if met else 'MISSED'}"
                results["ratios"][f"lsp {key} p95 (ms)"] = {"value": r["p95_ms"], "target": f"<= {limit:g}", "met": met}
            cpu = f"cpu {r['server_cpu_ms']:>6.2f} ms" if r.get("server_cpu_ms") is not None else ""
            print(f"  {label:<48} p50 {r['p50_ms']:>7.2f} ms  p95 {r['p95_ms']:>7.2f} ms  max {r['max_ms']:>7.2f} ms"
                  f"  {cpu}  ({r['runs']} changes)  {verdict}")
        results["lsp"] = lsp

    missed += simulate_section(policyc, a.simulate_runs, results, problems)
    # Review is timed with the binary users run: the release one when built.
    missed += review_section(a.release or policyc, a.review_runs, WORK, spawn, fmt_time, results, problems)
    # Every 1 MiB shape: within HOSTILE_RATIO of libyaml's parse of it, in at most 32 MiB.
    if shape_names:
        # Both binaries against the floor: the normal build (`swift build -c release`) and, when
        # built, the release binary of dist/, which is what users run; each has its verdict, and
        # a target missed by either counts.
        print()
        # cpu: lint's CPU time over the floor's, for information (less disturbed by other load).
        limit = f"<= {HOSTILE_RATIO:g}"
        print(f"{'1 MiB shape':<24} {'lint':>10} {'floor':>10} {'medians':>8} {'minimums':>9} {limit:>6} "
              f"{'release':>8} {limit:>6} {'cpu':>6} {'peak RSS':>10} {'<= 32 MiB':>10}")
        worst = worst_release = None
        for name in shape_names:
            value, of_min = pair(f"lint-shape-{name}", f"floor-shape-{name}")
            lint_b = benches[f"lint-shape-{name}"]
            shape_rss = lint_b.rss_mib
            ratio_met, rss_met = value <= HOSTILE_RATIO, shape_rss <= 32.0
            missed += (not ratio_met) + (not rss_met)
            worst = value if worst is None or value > worst else worst
            release_text = f"{'-':>8} {'':>6}"
            if a.release:
                release_value, release_of_min = pair(f"release-shape-{name}", f"floor-shape-{name}")
                release_met = release_value <= HOSTILE_RATIO
                missed += not release_met
                worst_release = release_value if worst_release is None or release_value > worst_release else worst_release
                release_text = f"{release_value:>8.2f} {'met' if release_met else 'MISSED':>6}"
                results["ratios"][f"release lint / floor, 1 MiB shape {name}"] = {
                    "value": round(release_value, 3), "of_minimums": round(release_of_min, 3), "target": limit, "met": release_met}
            floor_cpu = benches[f"floor-shape-{name}"].cpu
            cpu_ratio = lint_b.cpu / floor_cpu if floor_cpu else float("nan")
            print(f"{name:<24} {fmt_time(lint_b.median):>10} {fmt_time(benches[f'floor-shape-{name}'].median):>10} "
                  f"{value:>8.2f} {of_min:>9.2f} {'met' if ratio_met else 'MISSED':>6} {release_text} "
                  f"{cpu_ratio:>6.2f} {shape_rss:>6.1f} MiB {'met' if rss_met else 'MISSED':>10}")
            results["ratios"][f"lint / floor, 1 MiB shape {name}"] = {"value": round(value, 3), "of_minimums": round(of_min, 3),
                                                                    "cpu": round(cpu_ratio, 3), "target": limit, "met": ratio_met}
            results["ratios"][f"peak RSS, 1 MiB shape {name} (MiB)"] = {"value": round(shape_rss, 1), "target": "<= 32", "met": rss_met}
        print(f"{'worst shape ratio':<24} {worst:>30.2f}" + (f"   release binary {worst_release:.2f}" if worst_release is not None else ""))

    print()
    print("threads (findings-2000, POLICYC_THREADS=1 vs default): " + "; ".join(threads))
    for n in notes:
        print(f"note: {n}")
    for p in problems:
        print(f"PROBLEM: {p}")

    for key, b in benches.items():
        results["commands"][key] = {"name": b.name, "command": b.cmd.__doc__ if callable(b.cmd) else b.cmd, "env": b.env,
                                    "median_s": b.median, "min_s": b.minimum, "cpu_s": b.cpu, "sys_s": b.sys,
                                    "max_rss_mib": b.rss_mib, "runs": len(b.samples)}
    results["threads"] = threads
    with open(a.results, "w") as f:
        json.dump(results, f, indent=2, sort_keys=True)
    print(f"\nresults: {os.path.relpath(a.results, ROOT)}")
    if problems:
        return 1
    return 1 if (a.strict and missed) else 0


if __name__ == "__main__":
    sys.exit(main())
