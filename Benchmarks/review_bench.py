"""`policyc diff --base` on pull requests as they come: one policy's retry values changed, and 30
policies changed alike (runs of identical retry values are shared). Wall time of the release
binary against absolute targets (issue 46: <= 1 s and <= 10 s on 2 cores)."""

import os
import shutil
import subprocess

CANONICAL = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Policies", "playback.yaml")


def git(repo, *args):
    subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True)


def make_repo(path, policies):
    """A repository with `policies` copies of the canonical policy on main, and a branch `pr`
    that changes interactive maxRetries 3 -> 2 and the budget ratio 10% -> 8% in each."""
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(os.path.join(path, "Policies"))
    text = open(CANONICAL).read()
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.email", "bench@example.com")
    git(path, "config", "user.name", "bench")
    names = [f"team{i:02d}" for i in range(policies)]
    for n in names:
        with open(os.path.join(path, "Policies", f"{n}.yaml"), "w") as f:
            f.write(text.replace("policy: playback", f"policy: {n}"))
    git(path, "add", ".")
    git(path, "commit", "-qm", "base")
    git(path, "checkout", "-qb", "pr")
    for n in names:
        p = os.path.join(path, "Policies", f"{n}.yaml")
        t = open(p).read().replace("maxRetries: 3 ", "maxRetries: 2 ").replace("ratio: 10%", "ratio: 8%")
        with open(p, "w") as f:
            f.write(t)
    git(path, "commit", "-qam", "pr")


def review_section(policyc, runs, work, spawn, fmt_time, results, problems):
    """Returns how many targets were missed."""
    if runs <= 0:
        print("\nreview SKIPPED (--review-runs 0)")
        return 0
    cases = [(1, 1.0), (30, 10.0)]
    print()
    print(f"review: diff --base main on a branch, the release binary, {runs} runs, medians (wall)")
    missed = 0
    results["review"] = {}
    for count, limit in cases:
        repo = os.path.join(work, f"review-{count}")
        make_repo(repo, count)
        # measure.c runs a command where it is: the shell's cd costs about a millisecond.
        cmd = ["/bin/sh", "-c", f'cd "{repo}" && exec "{policyc}" diff --base main --format json']
        spawn(cmd)   # warm-up: git's and the binary's pages in the cache
        walls = []
        for _ in range(runs):
            s = spawn(cmd)
            if s.rc not in (0, 1):
                problems.append(f"policyc diff exited {s.rc} on {count} policies: {s.stderr.strip()[:300]}")
                return missed
            walls.append(s.wall)
        walls.sort()
        median = walls[len(walls) // 2]
        met = median <= limit
        missed += not met
        name = f"diff --base, {count} changed {'policy' if count == 1 else 'policies'}"
        print(f"  {name:<40} {fmt_time(median):>10}  <= {limit:g} s {'met' if met else 'MISSED'}")
        results["review"][name] = {"median_s": round(median, 3), "target": f"<= {limit:g} s", "met": met}
    return missed
