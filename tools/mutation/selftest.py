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
Exits 0 when every check holds, 1 otherwise (each failure on a line).
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import build_run  # noqa: E402
import mutants as mut  # noqa: E402
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


CHECKS = 5  # fixture, determinism, unique ids, the killed, the survivor


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
                m["old"] == old and m["new"] == new:
            return m
    return None


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
    for f in failures:
        print("test-mutation: " + f, file=sys.stderr)
    print("test-mutation: %d checks, %d failed" % (CHECKS, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
