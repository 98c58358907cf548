"""
report.py - MUTATION.md from the judged mutants (run.py) and the written
explanations of the survivors (equivalent.yaml: mutant id -> why no case can
tell it from the reference).

Depends on: Python 3 and Debian's python3-yaml.

Score = killed / (killed + survived - survivors explained as equivalent),
the issue's definition; the raw killed / (killed + survived) beside it.
Not counted: mutants equivalent by
object code (gcc -O2 compiles them to the original's bytes), duplicates
(the same bytes as an earlier mutant), stillborn ones (they do not compile
or link) and those the time box left unrun.  Each reason starts with its
class: "equivalent:" (no caller of the ABI can observe the change),
"message:" (only the last_error() text changes, which the contract leaves
free; counted with the equivalent ones),
"unreachable:" (observable only through calls the harness never makes,
such as NULL pointers or strides of its own choosing) or "harness:" (the
harness's policy lets it pass); only the first two are left out of the
score.
"""
import collections
import datetime
import os
import platform
import subprocess

import yaml


def load_explanations(path):
    """The mapping id -> reason of `path`; {} when it does not exist.
    Raises SystemExit with file:line on a malformed file."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        try:
            data = yaml.safe_load(f) or {}
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None)
            where = "%s:%d" % (path, mark.line + 1) if mark else path
            raise SystemExit("mutation: %s: %s" % (where, e))
    if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, str)
            for k, v in data.items()):
        raise SystemExit("mutation: %s: must map mutant ids to reasons"
                         % path)
    return data


def _machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s, %d online cores, Linux %s" % (cpu, os.cpu_count() or 0,
                                               platform.release())


def _commit(root):
    p = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"],
                       capture_output=True, text=True)
    return p.stdout.strip() or "unknown"


def _cell(s):
    return s.replace("|", "\\|").replace("\n", " ").replace("`", "'")


def _change(m):
    old = " ".join(m["old"].split())
    new = " ".join(m["new"].split())
    if len(old) > 50:
        old = old[:47] + "..."
    if len(new) > 50:
        new = new[:47] + "..."
    return "`%s` -> `%s`" % (_cell(old), _cell(new) or "(removed)")


def run_facts(root, jobs, kept):
    """What MUTATION.md says of the run that judged the mutants, taken when
    it runs and kept in the results file: the commit, machine and date, the
    mutants judged at a time, the verdicts kept from an earlier run."""
    return {"commit": _commit(root), "machine": _machine(), "jobs": jobs,
            "kept": kept,
            "date": datetime.datetime.now(datetime.timezone.utc)
            .strftime("%Y-%m-%d %H:%M UTC")}


def render(ms, explanations, elapsed, facts):
    """(MUTATION.md's text, the number of survivors without a reason);
    `facts` are run_facts() of the run that judged them."""
    st = collections.Counter(m["status"] for m in ms)
    by = collections.Counter(m.get("killed_by") for m in ms
                             if m["status"] == "killed")
    judged = st["killed"] + st["survived"]
    score = 100.0 * st["killed"] / judged if judged else 0.0
    default_score = 100.0 * by["default"] / judged if judged else 0.0
    survivors = [m for m in ms if m["status"] == "survived"]
    cls = collections.Counter(
        explanations.get(m["id"], "none:").split(":", 1)[0]
        for m in survivors)
    def pct(n, d):
        return 100.0 * n / d if d else 0.0
    unexplained = [m for m in survivors if m["id"] not in explanations]
    out = []
    w = out.append
    w("# Mutation score of the suite over reference/\n")
    w("Written by `make mutation` (`tools/mutation/run.py`); do not edit: "
      "explain a survivor in `tools/mutation/equivalent.yaml`, or add the "
      "case that kills it, and run again.\n")
    cls["equivalent"] += cls["message"]
    w("**Score: %.1f%%** (%d killed of the %d judged mutants that are not "
      "survivors explained as equivalent: the issue's definition).\n" % (
          pct(st["killed"], judged - cls["equivalent"]), st["killed"],
          judged - cls["equivalent"]))
    w("Raw: %.1f%% (%d of %d judged mutants killed; %.1f%% by the default "
      "run alone).  Survivors: %d equivalent (%d of them changing only "
      "last_error() text), %d `unreachable` (only calls the harness never "
      "makes could show them), %d `harness` (the harness's policy lets "
      "them pass), %d unexplained; only the equivalent ones are left out "
      "of the score.\n" % (
          score, st["killed"], judged, default_score, cls["equivalent"],
          cls["message"], cls["unreachable"], cls["harness"],
          len(unexplained)))
    w("| | |\n| --- | --- |")
    w("| command | `make mutation` (time box `MUTATION_SECONDS`, default "
      "3600 s; a run cut short goes on with `tools/mutation/run.py "
      "--resume`); %d mutants at a time, each judged by "
      "`build/reshape-conform --candidate MUTANT.so --quiet --jobs 1 "
      "--verbose --timeout-ms 2000`, stopped at its first failing line |" %
      facts["jobs"])
    w("| commit | %s (the suite and the reference it was run on) |"
      % facts["commit"])
    w("| machine | %s |" % facts["machine"])
    w("| date | %s |" % facts["date"])
    w("| time | %.0f s of judging in all%s |" % (
        elapsed, "" if not facts["kept"] else " (this run kept %d verdicts "
        "of the ones before it)" % facts["kept"]))
    w("| mutants | %d: %d killed, %d survived, %d equivalent by object code, "
      "%d duplicates, %d stillborn, %d not run |\n"
      % (len(ms), st["killed"], st["survived"], st["equivalent"],
         st["duplicate"], st["stillborn"], st["not_run"]))
    w("A mutant is one change to one `reference/*.c` file, found on clang's "
      "tokens and syntax tree (comments and strings are never changed): "
      "`ror` a relational operator (boundary or negated), `aor` an "
      "arithmetic, bitwise or shift operator, `lcr` `&&`/`||`, `asg` a "
      "compound assignment, `uoi` `++`/`--`, `cst` an integer constant "
      "+1 or -1, `neg` a condition negated, `not` a `!` removed, `del` a "
      "statement or a guarding `if` removed.  It is killed when the harness "
      "exits non-zero over the whole suite: first as `make run` runs it "
      "(`default`), else with `RESHAPE_REF_PLAIN=1` (`plain`: the plain copy "
      "path, which the fast paths skip), else with `--strict-errors` "
      "(`strict`).  Not counted in the score: mutants whose object code "
      "(gcc -O2) equals the original's or an earlier mutant's, those that "
      "do not compile, and those the time box left unrun.\n")
    w("## By file\n")
    w("| file | killed | survived | equivalent | duplicate | stillborn "
      "| not run |\n| --- | --- | --- | --- | --- | --- | --- |")
    for f in sorted({m["file"] for m in ms}):
        c = collections.Counter(m["status"] for m in ms if m["file"] == f)
        w("| `%s` | %d | %d | %d | %d | %d | %d |" % (
            f, c["killed"], c["survived"], c["equivalent"], c["duplicate"],
            c["stillborn"], c["not_run"]))
    w("\nKilled by run: %s.\n" % ", ".join(
        "%s %d" % (k, by[k]) for k in ("default", "plain", "strict")))
    w("## Survivors\n")
    if not survivors:
        w("None.\n")
    else:
        w("Each survivor is explained: why no case can tell it from the "
          "reference.\n")
        w("| mutant | change | in | why it survives |\n| --- | --- | --- "
          "| --- |")
        for m in survivors:
            w("| %s `%s` | %s | `%s` | %s |" % (
                m["num"], m["id"], _change(m), m["func"] or "-",
                _cell(explanations.get(m["id"], "**UNEXPLAINED**"))))
        w("")
    stale = sorted(set(explanations) - {m["id"] for m in survivors})
    if stale:
        w("Explanations in `tools/mutation/equivalent.yaml` for no current "
          "survivor (the mutant was killed, or the code moved): %s.\n"
          % ", ".join("`%s`" % s for s in stale))
    rest = [m for m in ms if m["status"] == "stillborn"]
    unrun = [m for m in ms if m["status"] == "not_run"]
    if rest or unrun:
        w("## Not judged\n")
    if rest:
        w("| mutant | change | why |\n| --- | --- | --- |")
        for m in rest:
            w("| %s `%s` | %s | %s |" % (m["num"], m["id"], _change(m),
                                         _cell(m.get("evidence", ""))))
        w("")
    if unrun:
        w("Left unrun by the time box (%d; `tools/mutation/run.py --resume` "
          "judges them): %s.\n" % (len(unrun), ", ".join(
              m["num"] for m in unrun)))
    return "\n".join(out), len(unexplained)
