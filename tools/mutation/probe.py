"""
probe.py - the equivalence probe over mutants: before a survivor may be
called equivalent, build/mutation-probe (probe.c) sweeps supports() and
makes a few thousand random calls (valid ones, misuse, dsts the overlap
test enumerates, wide ranks, partial overlaps) on it and on the original,
each in a forked child, and compares statuses, dims, dst bytes and the
bytes around dst (last_error() texts apart).  Both are built here with
ASan (ASAN_OPTIONS below: an allocation above ALLOC_LIMIT_MB fails, as it
would on any machine short of memory, the same everywhere), the mutant
with a counter beside its change (reach.py); the seed is the mutant's own
(seed_of).  A survivor the probe separates is not equivalent, and one
whose changed statement no call began is not probed (report.py).

Depends on: Python 3, gcc with libasan, and a built tree (`make`:
build/mutation-probe); build_run.py compiles, reach.py instruments.  Usage, from the top of the repository:

  /usr/bin/python3 tools/mutation/probe.py [--results FILE] [--only GLOB]
      [--calls N] [--seed S] [--work DIR] [--out FILE]

--seed: one seed for every mutant instead of each mutant's own.

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
import reach  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CALLS = 3000
# The largest allocation the probed builds get (MiB): the overlap test's
# bitmap for a dst of 2^31 offsets and more is refused (INTERNAL), the same
# on every machine, whatever its memory.
ALLOC_LIMIT_MB = 256
ASAN_OPTIONS = ("allocator_may_return_null=1:max_allocation_size_mb=%d:"
                "detect_leaks=0:exitcode=99:halt_on_error=1:"
                "handle_segv=0:handle_sigbus=0:handle_abort=0:symbolize=0"
                % ALLOC_LIMIT_MB)
ASAN_CFLAGS = ["-fsanitize=address", "-fno-omit-frame-pointer", "-g"]


# What a probe answer depends on: the probe's calls and comparisons, and the
# original build it compares a mutant with.
SOURCES = ("tools/mutation/probe.c", "tools/mutation/probe_draw.c",
           "tools/mutation/probe_kinds.c", "tools/mutation/probe_call.c",
           "tools/mutation/probe_supports.c", "tools/mutation/probe_run.h",
           "tools/mutation/probe.h", "tools/mutation/probe.py",
           "tools/mutation/reach.py", "harness/suite/fill.c",
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


def seed_of(mid):
    """The probe's seed for mutant id `mid`: its own, so that no two
    mutants are probed with the same calls, and the same on every run."""
    return int(hashlib.sha256(mid.encode()).hexdigest()[:15], 16)


def asan_objects(root, work):
    """Every reference unit compiled with ASan into WORK/asan (once per
    work folder and reference): {name: object path}."""
    out = os.path.join(work, "asan")
    objs = {}
    for path in sorted(glob.glob(os.path.join(root, "reference", "*.c"))):
        name = os.path.basename(path)
        obj = os.path.join(out, name[:-2] + ".o")
        if not os.path.exists(obj) or \
                os.path.getmtime(obj) < os.path.getmtime(path):
            with open(path, "rb") as f:
                got, err = build_run.compile_unit(root, f.read(), name, out,
                                                  ASAN_CFLAGS)
            if got is None:
                sys.exit("probe: %s does not compile with ASan: %s"
                         % (path, err))
        objs[name] = obj
    return objs


def asan_original(root, work):
    """The original reference as an ASan libreshape_ref.so in WORK/asan."""
    objs = asan_objects(root, work)
    so = os.path.join(work, "asan", "libreshape_ref.so")
    if not os.path.exists(so) or any(
            os.path.getmtime(o) > os.path.getmtime(so) for o in objs.values()):
        ok, err = build_run.link_objects(sorted(objs.values()), so,
                                          asan=True)
        if not ok:
            sys.exit("probe: cannot link the ASan original: %s" % err)
    return so


def binaries(root):
    """The probe; SystemExit when it is missing."""
    probe = os.path.join(root, "build", "mutation-probe")
    if not os.path.exists(probe):
        sys.exit("probe: %s is missing: run `make` first" % probe)
    return probe


def run_probe(root, so, original, calls=CALLS, seed=1):
    """The probe's answer for mutant library `so` beside `original` (both
    ASan builds): probe.c's JSON object ("calls", "run", "separated" (calls
    not near the 2^63-bit limit that told the builds apart),
    "separated_far" (those near it), "first", "first_far", "stopped",
    "counted", "reached", "hits", "messages", "enumerated", ...) and the
    "seed"; or {"error": text} when the probe could not run."""
    probe = binaries(root)
    env = dict(os.environ, ASAN_OPTIONS=ASAN_OPTIONS)
    env.pop("RESHAPE_REF_PLAIN", None)
    p = subprocess.run([probe, original, so, "--calls", str(calls),
                        "--seed", str(seed)], capture_output=True, text=True,
                       env=env)
    if p.returncode not in (0, 1):
        return {"error": (p.stderr.strip() or "exit %d" % p.returncode)[:240]}
    try:
        return dict(json.loads(p.stdout), seed=seed)
    except ValueError:
        return {"error": "unreadable probe output: %r" % p.stdout[:200]}


def reached(result):
    """Whether the probe began the mutated statement: True, False, or None
    when the change is at file scope (in effect from the unit's load, no
    counter) or there is no result."""
    if not result or "error" in result or not result.get("counted"):
        return None
    return result["reached"] > 0


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
    where = "" if result.get("counted") else " (a change at file scope)"
    if result.get("counted"):
        where = "; the changed statement began on %d of them (%d times)" % (
            result["reached"], result["hits"])
    if result.get("messages"):
        where += "; last_error() text differs on %d" % result["messages"]
    if not separated(result):
        if result.get("counted") and not result["reached"]:
            return "not probed: the changed statement began on none of " \
                "%d calls" % result["run"]
        return "probe: the same on %d calls%s" % (result["run"], where)
    parts = []
    if result["separated"]:
        parts.append("%d of %d calls differ, first %s" % (
            result["separated"], result["run"], result["first"]))
    if result["separated_far"]:
        parts.append("%d calls near the 2^63-bit limit differ, first %s" % (
            result["separated_far"], result["first_far"]))
    return "probe: " + "; ".join(parts)


def probe_mutant(root, m, texts, work, calls=CALLS, seed=None):
    """Builds mutant `m` (a dict of mutants.py, numbered) with ASan and its
    counter in WORK/NUM-probe, probes it (with its own seed unless `seed`)
    and removes the build; returns the probe result."""
    original = asan_original(root, work)
    objs = asan_objects(root, work)
    name = os.path.basename(m["file"])
    text, _ = reach.instrument(texts[m["file"]], m, m["file"])
    out = os.path.join(work, m["num"] + "-probe")
    obj, err = build_run.compile_unit(root, text, name, out, ASAN_CFLAGS)
    if obj is None:
        shutil.rmtree(out, ignore_errors=True)
        return {"error": "does not compile with its counter: %s" % err}
    so = os.path.join(out, "libreshape_ref.so")
    ok, err = build_run.link_objects(
        sorted(o for n, o in objs.items() if n != name) + [obj], so,
        asan=True)
    result = run_probe(root, so, original, calls,
                       seed_of(m["id"]) if seed is None else seed) \
        if ok else {"error": err}
    shutil.rmtree(out, ignore_errors=True)
    return result


def main(argv):
    import run  # the mutants, numbered as `make mutation` numbers them
    ap = argparse.ArgumentParser(prog="probe.py",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--results", default=os.path.join(
        ROOT, "tools", "mutation", "results.json"))
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--calls", type=int, default=CALLS)
    ap.add_argument("--seed", type=int)
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
