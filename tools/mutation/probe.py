"""
probe.py - the equivalence probe over mutants: before a survivor may be
called equivalent, build/mutation-probe (probe.c) makes a few thousand
random valid calls on it and on the original build/libreshape_ref.so, each
in a forked child, and compares status, dst bytes and the bytes around dst.
A survivor the probe separates is not equivalent (report.py).

Depends on: Python 3, gcc, and a built tree (`make`: build/mutation-probe,
build/libreshape_ref.so, build/obj/reference/*.o); build_run.py builds
each mutant.  Usage, from the top of the repository:

  /usr/bin/python3 tools/mutation/probe.py [--results FILE] [--only GLOB]
      [--calls N] [--seed S] [--work DIR] [--out FILE]

Probes the survivors of the results file (default
tools/mutation/results.json), or the mutants --only names (fnmatch globs on
ids, several may be given), and writes {id: probe result} as JSON to --out
(default WORK/probe.json; WORK defaults to build/mutation-probe-work), a line
per mutant on stdout.  run.py probes every survivor of a `make mutation`
run itself, into the results file.  Exits 0 when every mutant was probed
(separated or not), 2 on bad usage or a tree that is not built.
"""
import argparse
import fnmatch
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import build_run  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CALLS = 3000
SEED = 1


# What a probe answer depends on: the probe's calls and comparisons, and the
# original build it compares a mutant with.
SOURCES = ("tools/mutation/probe.c", "tools/mutation/probe_draw.c",
           "tools/mutation/probe.h", "harness/suite/fill.c",
           "harness/suite/fill.h", "include/reshape_candidate.h")


def source_sha(root):
    """sha256 over the paths and bytes of SOURCES and reference/*.c: a probe
    answer kept from a run whose sha differs is stale (run.py --resume
    probes again)."""
    h = hashlib.sha256()
    paths = list(SOURCES) + sorted(
        os.path.relpath(p, root)
        for p in glob.glob(os.path.join(root, "reference", "*.c")))
    for rel in paths:
        with open(os.path.join(root, rel), "rb") as f:
            h.update(rel.encode() + b"\0" + hashlib.sha256(f.read())
                     .hexdigest().encode())
    return h.hexdigest()


def binaries(root):
    """(probe, original .so); SystemExit when either is missing."""
    probe = os.path.join(root, "build", "mutation-probe")
    original = os.path.join(root, "build", "libreshape_ref.so")
    for path in (probe, original):
        if not os.path.exists(path):
            sys.exit("probe: %s is missing: run `make` first" % path)
    return probe, original


def run_probe(root, so, calls=CALLS, seed=SEED):
    """The probe's answer for mutant library `so`: a dict with "calls",
    "run", "separated" (calls not near the 2^63-bit limit that told the
    builds apart), "separated_far" (those near it), "first" and "first_far"
    (the first such call of each kind, described) and "stopped"; or
    {"error": text} when the probe could not run."""
    probe, original = binaries(root)
    p = subprocess.run([probe, original, so, "--calls", str(calls),
                        "--seed", str(seed)], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        return {"error": (p.stderr.strip() or "exit %d" % p.returncode)[:240]}
    try:
        return json.loads(p.stdout)
    except ValueError:
        return {"error": "unreadable probe output: %r" % p.stdout[:200]}


def separated(result):
    """Whether a probe result tells the mutant from the original: True,
    False, or None when there is no result (not probed, or it failed)."""
    if not result or "error" in result:
        return None
    return result["separated"] + result["separated_far"] > 0


def summary(result):
    """One line for MUTATION.md: what the probe found."""
    if not result:
        return "not probed"
    if "error" in result:
        return "probe failed: %s" % result["error"]
    if not separated(result):
        return "probe: the same on %d calls" % result["run"]
    parts = []
    if result["separated"]:
        parts.append("%d of %d calls differ, first %s" % (
            result["separated"], result["run"], result["first"]))
    if result["separated_far"]:
        parts.append("%d calls near the 2^63-bit limit differ, first %s" % (
            result["separated_far"], result["first_far"]))
    return "probe: " + "; ".join(parts)


def probe_mutant(root, m, texts, work, calls=CALLS, seed=SEED):
    """Builds mutant `m` (a dict of mutants.py, numbered) in WORK/NUM,
    probes it and removes the build; returns the probe result."""
    build_run.compile_mutant(root, m, texts, work)
    if m["object"] is None:
        return {"error": "does not compile: %s" % m["hash"]}
    so = os.path.join(work, m["num"], "libreshape_ref.so")
    ok, err = build_run.link(root, m["object"], os.path.basename(m["file"]), so)
    result = run_probe(root, so, calls, seed) if ok else {"error": err}
    shutil.rmtree(os.path.join(work, m["num"]), ignore_errors=True)
    return result


def main(argv):
    import run  # the mutants, numbered as `make mutation` numbers them
    ap = argparse.ArgumentParser(prog="probe.py",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--results", default=os.path.join(
        ROOT, "tools", "mutation", "results.json"))
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--calls", type=int, default=CALLS)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--work", default=os.path.join(ROOT, "build",
                                                   "mutation-probe-work"))
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    binaries(ROOT)
    ms, texts = run.all_mutants(ROOT)
    if args.only:
        want = {m["id"] for m in ms
                if any(fnmatch.fnmatchcase(m["id"], g) for g in args.only)}
    else:
        with open(args.results) as f:
            want = {m["id"] for m in json.load(f)["mutants"]
                    if m.get("status") == "survived"}
    todo = [m for m in ms if m["id"] in want]
    if not todo:
        ap.error("no mutant to probe")
    os.makedirs(args.work, exist_ok=True)
    out = {}
    for m in todo:
        out[m["id"]] = probe_mutant(ROOT, m, texts, args.work, args.calls,
                                    args.seed)
        print("%s %s %s" % (m["num"], m["id"], summary(out[m["id"]])),
              flush=True)
    path = args.out or os.path.join(args.work, "probe.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print("probe: %d mutants, %d separated; %s written" % (
        len(out), sum(1 for r in out.values() if separated(r)),
        os.path.relpath(path)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
