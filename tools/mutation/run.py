"""
run.py - `make mutation`: the suite's mutation score over reference/.

Every mutant of every reference/*.c (mutants.py) is compiled; one whose
object code equals the original's is equivalent by construction, one whose
object equals an earlier mutant's is a duplicate of it; neither is run.
Each other mutant is linked into its own libreshape_ref.so and judged by
the harness over the whole suite (build_run.py), two at a time, until every
mutant is judged or the time box is spent.  Each survivor then goes to
the equivalence probe (probe.py), whose answer report.py sets beside its
explanation.  Writes the verdicts to
tools/mutation/results.json (committed beside MUTATION.md, so that a run
cut short can be resumed from any clone) and the report (report.py),
MUTATION.md by default.  The work folder (build/mutation) holds each
mutant's build.

Depends on: Python 3, Debian's python3-clang and python3-yaml, gcc, and a
built tree (`make`).  Usage, from the top of the repository:

  /usr/bin/python3 tools/mutation/run.py [--seconds S] [--jobs N]
      [--work DIR] [--results FILE] [--out FILE] [--only GLOB] [--list]
      [--resume] [--report]

--seconds: the time box (default 3600); mutants not started by then are
reported as not run.  --only: ids matching an fnmatch glob (several may be
given); such a run writes WORK/results.json and WORK/MUTATION.md unless
--results and --out say otherwise.  --list: print the mutants and exit.
--report: only write the report again from the results file (after editing
the explanations).  --resume: keep the verdicts of the results file for
mutants whose file has not changed since (killed stays killed: cases are
only ever added; a survivor stays one while no case file changed), judge
the rest again, the last run's survivors first.  Exits 0 when the report is
written, 2 on bad usage or a tree that is not built.
"""
import argparse
import concurrent.futures as cf
import fnmatch
import hashlib
import glob
import json
import os
import shutil
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import build_run  # noqa: E402
import mutants as mut  # noqa: E402
import probe  # noqa: E402
import report  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def all_mutants(root):
    """Every mutant of reference/*.c in a fixed order, numbered M0001...;
    and the text of each source."""
    sources = sorted(glob.glob(os.path.join(root, "reference", "*.c")))
    found, texts = [], {}
    for path in sources:
        rel = os.path.relpath(path, root)
        with open(path, "rb") as f:
            texts[rel] = f.read()
        cwd = os.getcwd()
        os.chdir(root)
        try:
            found += mut.mutants(rel, ["include", "reference"])
        finally:
            os.chdir(cwd)
    for i, m in enumerate(found, 1):
        m["num"] = "M%04d" % i
    return found, texts


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="run.py", description=__doc__.split(
        "\n\n")[0])
    ap.add_argument("--seconds", type=float,
                    default=float(os.environ.get("MUTATION_SECONDS", 3600)))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "mutation"))
    ap.add_argument("--results")
    ap.add_argument("--out")
    ap.add_argument("--explanations", default=os.path.join(
        ROOT, "tools", "mutation", "equivalent.yaml"))
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--run-limit", type=float, default=120.0,
                    help="seconds one harness run may take (a hang is a kill)")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--report", action="store_true")
    args = ap.parse_args(argv)
    if args.jobs < 1 or args.seconds <= 0:
        ap.error("--jobs and --seconds must be positive")
    # the committed results and report are the whole set's: a run of some
    # mutants (--only) keeps its own in the work folder
    if args.results is None:
        args.results = os.path.join(args.work, "results.json") if args.only \
            else os.path.join(ROOT, "tools", "mutation", "results.json")
    if args.out is None:
        args.out = os.path.join(args.work, "MUTATION.md") if args.only \
            else os.path.join(ROOT, "MUTATION.md")
    return args


def check_tree(root):
    need = [os.path.join(root, "build", f) for f in (
        "reshape-conform", "mutation-probe", "libreshape_ref.so")]
    need += [os.path.join(root, "build", "obj", "reference",
                          os.path.basename(p)[:-2] + ".o")
             for p in glob.glob(os.path.join(root, "reference", "*.c"))]
    missing = [p for p in need if not os.path.exists(p)]
    if missing:
        sys.exit("mutation: %s is missing: run `make` first" % missing[0])


class Judge:
    """Compiles, classifies and judges mutants, args.jobs at a time, in
    the order of sha256(id) (an unbiased sample if the time box runs out);
    results.json is rewritten after each mutant, so that an interrupted
    run can be resumed.  A mutant whose object equals the original's is
    equivalent, one whose object equals one compiled before it is a
    duplicate; compile failures are stillborn."""

    def __init__(self, args, ms, texts, originals):
        self.args, self.ms, self.texts = args, ms, texts
        self.originals = originals
        self.seen = {}
        self.lock = threading.Lock()
        self.cases = cases_sha()
        self.facts = report.run_facts(ROOT, args.jobs, args.kept)

    def one(self, m):
        if m.get("status") == "survived":  # kept from the last run
            m["probe"] = probe.probe_mutant(ROOT, dict(m), self.texts,
                                            self.args.work)
            return m
        build_run.compile_mutant(ROOT, m, self.texts, self.args.work)
        name = os.path.basename(m["file"])
        with self.lock:
            if m["object"] is None:
                m.update(status="stillborn", evidence=m["hash"])
            elif m["hash"] == self.originals[name]:
                m.update(status="equivalent", evidence="same object code")
            elif (name, m["hash"]) in self.seen:
                m.update(status="duplicate",
                         evidence=self.seen[(name, m["hash"])])
            else:
                self.seen[(name, m["hash"])] = m["num"]
        if "status" not in m:
            build_run.run_mutant(ROOT, m, self.args.work,
                                 self.args.run_limit)
            if m["status"] == "survived":
                m["probe"] = probe.probe_mutant(ROOT, dict(m), self.texts,
                                                self.args.work)
        shutil.rmtree(os.path.join(self.args.work, m["num"]),
                      ignore_errors=True)
        return m

    def save(self, elapsed):
        """The results file: one JSON object, each mutant on a line of its
        own, so that a run's changes read as a diff of whole mutants; the
        object paths and hashes of this run's builds are left out."""
        head = json.dumps({"seconds": elapsed, "cases_sha256": self.cases,
                           "probe_sha256": probe.source_sha(ROOT),
                           "file_sha256": {k: file_sha(v) for k, v in
                                           self.texts.items()},
                           "run": self.facts}, sort_keys=True)
        lines = [json.dumps({k: v for k, v in m.items()
                             if k not in ("object", "hash")}, sort_keys=True)
                 for m in self.ms]
        tmp = self.args.results + ".tmp"
        with open(tmp, "w") as f:
            f.write(head[:-1] + ', "mutants": [\n' + ",\n".join(lines) +
                    "\n]}\n")
        os.replace(tmp, self.args.results)

    def run(self, started, deadline):
        # survivors of the last run first (new cases may kill them), then
        # the rest in an unbiased order
        todo = sorted((m for m in self.ms if "status" not in m or (
            m["status"] == "survived" and "probe" not in m)),
                      key=lambda m: (not m.pop("rejudge", False),
                                     hashlib.sha256(m["id"].encode())
                                     .hexdigest()))
        with cf.ThreadPoolExecutor(max_workers=self.args.jobs) as pool:
            pending = set()
            while todo or pending:
                while todo and len(pending) < self.args.jobs and \
                        time.monotonic() < deadline:
                    pending.add(pool.submit(self.one, todo.pop(0)))
                if not pending:
                    break
                finished, pending = cf.wait(
                    pending, return_when=cf.FIRST_COMPLETED)
                for f in finished:
                    m = f.result()
                    print("%s %-10s %s" % (m["num"], m["status"], m["id"]),
                          flush=True)
                self.save(self.prev_seconds + time.monotonic() - started)
        for m in todo:
            if "status" not in m:
                m.update(status="not_run", evidence="the time box ran out")


KEPT = ("killed", "equivalent", "duplicate", "stillborn")


def resume(ms, texts, results):
    """Takes the verdicts of the results file for every mutant whose file
    is unchanged and whose verdict cannot change by adding cases; a
    survivor's probe answer only when the probe and the reference are
    unchanged too (probe.source_sha), else it is probed again."""
    try:
        with open(results) as f:
            old = json.load(f)
    except (OSError, ValueError):
        return 0, 0.0
    shas = old.get("file_sha256", {})
    prev = {m["id"]: m for m in old.get("mutants", [])}
    keep = KEPT + (("survived",) if old.get("cases_sha256") == cases_sha()
                   else ())
    same_probe = old.get("probe_sha256") == probe.source_sha(ROOT)
    kept = 0
    for m in ms:
        p = prev.get(m["id"])
        if p is not None and p.get("status") == "survived":
            m["rejudge"] = True
        if p is None or p.get("status") not in keep or \
                shas.get(m["file"]) != file_sha(texts[m["file"]]) or \
                (p["old"], p["new"]) != (m["old"], m["new"]):
            continue
        for k in ("status", "killed_by", "evidence") + \
                (("probe",) if same_probe else ()):
            if k in p:
                m[k] = p[k]
        m.pop("rejudge", None)
        kept += 1
    return kept, float(old.get("seconds", 0.0))


def file_sha(text):
    return hashlib.sha256(text).hexdigest()


def cases_sha():
    """sha256 over the paths and bytes of every case file of cases/."""
    h = hashlib.sha256()
    for path in sorted(glob.glob(os.path.join(ROOT, "cases", "**", "*.yaml"),
                                 recursive=True)):
        with open(path, "rb") as f:
            h.update(os.path.relpath(path, ROOT).encode() + b"\0" +
                     file_sha(f.read()).encode())
    return h.hexdigest()


def write_report(args):
    """MUTATION.md from the results file, judging nothing: after a run, and
    alone (--report) after the explanations were edited."""
    try:
        with open(args.results) as f:
            old = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("mutation: cannot read the last results: %s" % e)
    ms = old["mutants"]
    for m in ms:
        m.setdefault("status", "not_run")
    explanations = report.load_explanations(args.explanations)
    text, unexplained = report.render(ms, explanations, old["seconds"],
                                      old["run"])
    with open(args.out, "w") as f:
        f.write(text)
    print("mutation: %s written; %d survivor(s) without an explanation"
          % (os.path.relpath(args.out), unexplained))
    return 0


def main(argv):
    args = parse_args(argv)
    check_tree(ROOT)
    started = time.monotonic()
    deadline = started + args.seconds
    ms, texts = all_mutants(ROOT)
    if args.only:
        ms = [m for m in ms if any(fnmatch.fnmatchcase(m["id"], g)
                                   for g in args.only)]
        if not ms:
            sys.exit("mutation: no mutant matches --only")
    if args.list:
        for m in ms:
            print("%s %s %r -> %r in %s" % (m["num"], m["id"], m["old"],
                                            m["new"], m["func"] or "-"))
        return 0
    if args.report:
        return write_report(args)
    kept, prev_seconds = resume(ms, texts, args.results) if args.resume \
        else (0, 0.0)
    args.kept = kept
    if kept:
        print("mutation: %d verdicts kept from the last run" % kept)
    for f in glob.glob(os.path.join(args.work, "M*")) + \
            [os.path.join(args.work, "original")]:
        shutil.rmtree(f, ignore_errors=True)
    os.makedirs(args.work, exist_ok=True)
    probe.asan_original(ROOT, args.work)  # once, before the workers
    originals = build_run.original_hashes(
        ROOT, sorted({os.path.join(ROOT, m["file"]) for m in ms}), args.work)
    judge = Judge(args, ms, texts, originals)
    judge.prev_seconds = prev_seconds
    judge.run(started, deadline)
    elapsed = prev_seconds + time.monotonic() - started
    judge.save(elapsed)
    return write_report(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
