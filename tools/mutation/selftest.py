"""
selftest.py - `make test-mutation`: the mutation driver on a handful of
mutants, each check able to fail.

Depends on: Python 3, Debian's python3-clang, gcc, and a built tree
(build/reshape-conform, build/obj/reference/*.o).

  1. selftest_fixture.c: exactly the expected mutants, none in a comment
     or a string literal.
  2. The mutants of reference/*.c come out the same, ids and order, twice.
  3. A mutant the suite must kill is killed by the default run: infer.c's
     rule 5 test `dims[i] < -1` turned into `dims[i] <= -1` (every -1 in a
     shape becomes BELOW_MINUS_ONE), and its evidence is the harness's
     first failing line (the run was stopped there, not at its end).
  4. A mutant no case can tell apart survives all three runs: error.c's
     message buffer of 257 bytes instead of 256 (no message is that long);
     its reason is in equivalent.yaml.
  5. The equivalence probe (probe.py) separates four mutants that are not
     equivalent: copy.c's run test `ss == 1` turned into `ss == 0` (a
     broadcast src, inner stride 0, is then read as a dense run), the
     rule-5 mutant of check 3, overlap.c without `nested = 0` (a dst whose
     elements overlap is then written: the probe draws such dsts) and
     execute.c's in-place test `src->strides != NULL || dst->strides !=
     NULL` with `&&` (an in-place call with a strided dst is then made).
     Also candidate.c's supports() without its check (M0119 of the
     brief: supports(..., RESHAPE_LAYOUT_DEVICE) is then OK, a valid call
     the supports() sweep makes) and overlap.c's step 4 `volume - 1 >
     reach` with `+` (the original asks for a bitmap the probe's allocator
     refuses, INTERNAL; the mutant answers INVALID_ARGUMENT).
  6. The probe separates neither error.c's 257-byte buffer, nor copy.c's
     `j < 0` turned into `j <= 0` in walk_row_left (rank-1 runs of one
     element each: the same bytes), nor overlap.c's enumeration without its
     own `*overlaps = 0` (the caller has set it), so it does not call an
     equivalent mutant different.
  7. report.py leaves out of the score only the equivalent survivors the
     probe could not separate and whose changed statement it began: of a
     killed mutant and three survivors explained as equivalent, one
     separated by the probe and one whose statement it never began, the
     score is 1 of 3, the separated one is marked NOT EQUIVALENT and the
     other NOT PROBED.
 10. A mutant the probe does not reach is not probed: copy.c's
     reshape_ref_set_plain() (no entry point of the ABI calls it) with its
     constant changed; the probe runs, finds nothing, and says that the
     changed statement began on none of its calls.
  8. run.py --resume keeps a survivor's probe answer only while the probe
     and the reference are the ones that gave it (probe.source_sha).
  9. overlap_search.py, whose searches equivalent.yaml cites, finds what
     it says.
Exits 0 when every check holds, 1 otherwise (each failure on a line).
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import build_run  # noqa: E402
import mutants as mut  # noqa: E402
import overlap_search  # noqa: E402
import probe  # noqa: E402
import report  # noqa: E402
import run  # noqa: E402

ROOT = run.ROOT
FIXTURE = "tools/mutation/selftest_fixture.c"
FIXTURE_IDS = [
    "selftest_fixture.c:13:5:del:;",
    "selftest_fixture.c:13:9:neg:!(a < b)",
    "selftest_fixture.c:13:11:ror:<=",
    "selftest_fixture.c:13:11:ror:>=",
    "selftest_fixture.c:14:30:aor:-",
    "selftest_fixture.c:14:32:cst:6",
    "selftest_fixture.c:14:32:cst:8",
]
# (file, a line's text, old, new): found by text, not by line number, so
# that edits elsewhere in the file do not break the test.
KILLED = ("reference/infer.c", "if (dims[i] < -1)", "<", "<=")
SURVIVOR = ("reference/error.c", "static _Thread_local char message[256];",
            "256", "257")
# (spec, whether the probe must separate it)
PROBED = [(("reference/copy.c", "if (ss == 1 && ds == 1)", "1", "0"), True),
          (KILLED, True),
          (("reference/overlap.c", "nested = 0;", "nested = 0", ""), True),
          (("reference/execute.c",
            "(src->strides != NULL || dst->strides != NULL))", "||", "&&"),
           True),
          (("reference/candidate.c", "if (reshape_op_name(op) == NULL", None,
            ";"), True),
          (("reference/overlap.c", "if (volume - 1 > reach)", "-", "+"),
           True),
          (SURVIVOR, False),
          (("reference/copy.c", "return j < 0 ? 1 : w->dims[j] - w->index[j];",
            "<", "<="), False),
          (("reference/overlap.c", "    *overlaps = 0;\n    for (;;) {",
            "*overlaps = 0", ""), False)]

# Calls of each probe here: each mutant above is told apart, or not, in its
# first 400 calls (its own seed) as in make mutation's 3000, at a seventh
# of the CPU (13 s for the ten, against 69 s, on the 2-core VM).
SELFTEST_CALLS = 400

# A mutant no call of the probe reaches (check 10).
UNREACHED = ("reference/copy.c", "atomic_store(&plain_mode, on != 0);",
             "0", "1")

# fixture, determinism, unique ids, the killed, the survivor, the nine
# probed mutants, the score, the probe answers resume keeps, the searches,
# the unreached mutant
CHECKS = 18


def find(ms, spec):
    """The mutant of `ms` described by `spec`; None when absent."""
    path, line_text, old, new = spec
    with open(os.path.join(ROOT, path), "rb") as f:
        text = f.read()
    at = text.find(line_text.encode())
    if at < 0:
        return None
    end = at + len(line_text)
    for m in ms:
        if m["file"] == path and at <= m["start"] < end and \
                old in (None, m["old"]) and m["new"] == new:
            return m
    return None


def check_probe(ms, texts, work, failures):
    """Checks 5 and 6: the probe on the PROBED mutants."""
    for spec, want in PROBED:
        m = find(ms, spec)
        if m is None:
            failures.append("no mutant %r in %s" % (spec[1:], spec[0]))
            continue
        result = probe.probe_mutant(ROOT, m, texts, work,
                                   calls=SELFTEST_CALLS)
        print("%s %s %s" % (m["num"], m["id"], probe.summary(result)[:100]))
        if probe.separated(result) is not want:
            failures.append("probe on %s: %s, expected %s" % (
                m["id"], probe.summary(result),
                "separated" if want else "the same"))


def check_unreached(ms, texts, work, failures):
    """Check 10: a mutant whose statement no call begins is not probed."""
    m = find(ms, UNREACHED)
    if m is None:
        failures.append("no mutant %r in %s" % (UNREACHED[1:], UNREACHED[0]))
        return
    result = probe.probe_mutant(ROOT, m, texts, work,
                                   calls=SELFTEST_CALLS)
    print("%s %s %s" % (m["num"], m["id"], probe.summary(result)[:100]))
    if probe.reached(result) is not False or \
            not probe.summary(result).startswith("not probed"):
        failures.append("probe on %s (never called): %s, expected not "
                        "probed" % (m["id"], probe.summary(result)))


def check_score(failures):
    """Check 7: a separated 'equivalent' survivor counts against the
    score."""
    same = {"calls": 10, "run": 10, "separated": 0, "separated_far": 0,
            "first": "", "first_far": "", "stopped": False}
    ms = [{"num": "M1", "id": "a", "status": "killed", "killed_by":
           "default", "file": "f.c", "func": "", "old": "<", "new": "<="},
          {"num": "M2", "id": "b", "status": "survived", "file": "f.c",
           "func": "", "old": "1", "new": "2", "probe": same},
          {"num": "M3", "id": "c", "status": "survived", "file": "f.c",
           "func": "", "old": "1", "new": "0",
           "probe": dict(same, separated=1, first="call 3: ...")},
          {"num": "M4", "id": "d", "status": "survived", "file": "f.c",
           "func": "g", "old": "1", "new": "0",
           "probe": dict(same, counted=1, reached=0, hits=0)}]
    why = {"b": "equivalent: x", "c": "equivalent: y", "d": "equivalent: z"}
    facts = {"commit": "-", "machine": "-", "date": "-", "jobs": 1,
             "kept": 0}
    text, _ = report.render(ms, why, 1.0, facts)
    if "**Score: 33.3%** (1 killed of the 3 judged" not in text or \
            "**NOT EQUIVALENT** equivalent: y" not in text or \
            "**NOT PROBED** equivalent: z" not in text:
        failures.append("report.py does not count a survivor the probe "
                        "separated, or one whose changed statement it never "
                        "began, against the score")


def check_resume(ms, texts, work, failures):
    """Check 8: a probe answer survives --resume only with the same probe
    and reference."""
    m = ms[0]
    old = {"id": m["id"], "file": m["file"], "old": m["old"],
           "new": m["new"], "status": "survived", "probe": {"run": 1}}
    shas = {f: run.file_sha(t) for f, t in texts.items()}
    path = os.path.join(work, "resume.json")
    for probe_sha, want in ((probe.source_sha(ROOT), True), ("stale", False)):
        with open(path, "w") as f:
            json.dump({"cases_sha256": run.cases_sha(), "file_sha256": shas,
                       "probe_sha256": probe_sha, "mutants": [old]}, f)
        fresh = [{k: v for k, v in m.items() if k not in ("status", "probe")}]
        run.resume(fresh, texts, path)
        if fresh[0].get("status") != "survived" or \
                ("probe" in fresh[0]) is not want:
            failures.append("resume with %s probe: %r" % (
                "the same" if want else "another", fresh[0].get("probe")))


def main():
    failures = []
    os.chdir(ROOT)
    ids = [m["id"] for m in mut.mutants(FIXTURE, [])]
    if ids != FIXTURE_IDS:
        failures.append("fixture mutants %r, expected %r" % (ids,
                                                            FIXTURE_IDS))
    first, texts = run.all_mutants(ROOT)
    second, _ = run.all_mutants(ROOT)
    if [(m["num"], m["id"]) for m in first] != \
            [(m["num"], m["id"]) for m in second]:
        failures.append("two enumerations of reference/*.c differ")
    if len({m["id"] for m in first}) != len(first):
        failures.append("mutant ids are not unique")
    run.check_tree(ROOT)
    with tempfile.TemporaryDirectory() as work:
        for spec, want in ((KILLED, "killed"), (SURVIVOR, "survived")):
            m = find(first, spec)
            if m is None:
                failures.append("no mutant %r in %s" % (spec[1:], spec[0]))
                continue
            build_run.compile_mutant(ROOT, m, texts, work)
            if m["object"] is None:
                failures.append("%s does not compile: %s" % (m["id"],
                                                             m["hash"]))
                continue
            build_run.run_mutant(ROOT, m, work, 120)
            print("%s %s %s %s" % (m["num"], m["id"], m["status"],
                                   m["evidence"][:100]))
            if m["status"] != want:
                failures.append("%s: %s, expected %s" % (m["id"],
                                                         m["status"], want))
            elif want == "killed" and m["killed_by"] != "default":
                failures.append("%s killed only by the %s run" % (
                    m["id"], m["killed_by"]))
            elif want == "killed" and not build_run.VERDICT_LINE.match(
                    m["evidence"]):
                # the run must be stopped at its first failing line, which
                # is also the evidence MUTATION.md shows
                failures.append("%s: evidence %r is not a failing line" % (
                    m["id"], m["evidence"]))
        check_probe(first, texts, work, failures)
        check_unreached(first, texts, work, failures)
        check_resume(first, texts, work, failures)
    check_score(failures)
    if overlap_search.main() != 0:
        failures.append("overlap_search.py contradicts equivalent.yaml")
    for f in failures:
        print("test-mutation: " + f, file=sys.stderr)
    print("test-mutation: %d checks, %d failed" % (CHECKS, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
