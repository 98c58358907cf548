"""
report.py - MUTATION.md from the judged mutants (run.py), the written
explanations of the survivors (equivalent.yaml: mutant id -> why no case can
tell it from the reference) and what the equivalence probe found of each
survivor (probe.py; a mutant's "probe" in the results file).

Depends on: Python 3 and Debian's python3-yaml.

Score = killed / (killed + survived - equivalent survivors), the project's
definition; the raw killed / (killed + survived) beside it.  Not counted:
mutants equivalent by object code (gcc -O2 compiles them to the original's
bytes), duplicates (the same bytes as an earlier mutant), stillborn ones
(they do not compile or link) and those the time box left unrun.  Each
reason starts with its class: "equivalent:" (no caller of the ABI can
observe the change), "message:" (only the last_error() text changes, which
the contract leaves free; counted with the equivalent ones),
"unreachable:" (observable only through calls no process can make: tensors
reaching past 2^59 bytes, which no process holds) or "harness:" (the
harness cannot show it: its policy lets it pass, or it shows only out of
memory, on a dst larger than the loader stages, or as undefined behaviour
the harness meets only by chance; equivalent.yaml's header).  A survivor
is left out of the score only when its reason is "equivalent:" or
"message:" and the probe ran on it, began its changed statement (reach.py;
a change at file scope is in effect from the unit's load) and told it from
the original on no call: a survivor the probe separated, one it did not
run on, and one whose changed statement no call of the probe began ("not
probed") count against the score whatever its reason says.
An "unreachable:" reason is contradicted when the probe separated the
mutant on a call that stays far from the 2^63-bit limit.
"""
import collections
import datetime
import os
import platform
import subprocess

import yaml

import probe


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


def standing(m, explanations):
    """Where survivor `m` stands: (class, left out of the score).

    The class is its reason's ("equivalent", "message", "unreachable",
    "harness"; "none" without a reason), except that an equivalent or
    message reason becomes "separated" when the probe told the mutant from
    the original and "unprobed" when the probe did not run on it, and an
    unreachable one "contradicted" when the probe separated it on a call
    that stays far from the 2^63-bit limit.  Only an equivalent or message
    survivor the probe could not separate is left out."""
    cls = explanations.get(m["id"], "none:").split(":", 1)[0]
    result = m.get("probe")
    if cls in ("equivalent", "message"):
        seen = probe.separated(result)
        if seen is None or (not seen and probe.reached(result) is False):
            return "unprobed", False
        return ("separated", False) if seen else (cls, True)
    if cls == "unreachable" and probe.separated(result) and \
            result["separated"] > 0:
        return "contradicted", False
    return cls, False


def probe_line(survivors):
    """What the probe's calls reached, over every survivor it ran on."""
    rs = [m["probe"] for m in survivors
          if m.get("probe") and "error" not in m["probe"]]
    if not rs or "enumerated" not in rs[0]:
        return "The equivalence probe ran on no survivor.\n"
    counted = [r for r in rs if r.get("counted")]
    return (
        "The equivalence probe (`tools/mutation/probe.py`, each survivor "
        "with a seed of its own, both builds under ASan with allocations "
        "above %d MiB refused) ran on %d survivors, %d calls each with the "
        "supports() sweep; its calls reached the overlap test's enumeration "
        "%d times in all (%d with a bitmap of more than one word, the "
        "largest %d words) and asked for a bitmap the allocator refuses %d "
        "times.  Of the %d survivors changed inside a function, the probe "
        "began the changed statement of %d.\n" % (
            probe.ALLOC_LIMIT_MB, len(rs), rs[0]["run"],
            sum(r["enumerated"] for r in rs),
            sum(r["enumerated_multiword"] for r in rs),
            max(r["bitmap_words_max"] for r in rs),
            sum(r["enumerated_refused_bitmap"] for r in rs), len(counted),
            sum(1 for r in counted if r["reached"])))


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
    cls = collections.Counter(standing(m, explanations)[0] for m in survivors)
    left_out = sum(1 for m in survivors if standing(m, explanations)[1])
    def pct(n, d):
        return 100.0 * n / d if d else 0.0
    unexplained = [m for m in survivors if m["id"] not in explanations]
    out = []
    w = out.append
    w("# Mutation score of the suite over reference/\n")
    w("Written by `make mutation` (`tools/mutation/run.py`); do not edit: "
      "explain a survivor in `tools/mutation/equivalent.yaml`, or add the "
      "case that kills it, and run again.\n")
    w("**Score: %.1f%%** (%d killed of the %d judged mutants that are not "
      "equivalent survivors: survivors explained as equivalent that the "
      "equivalence probe ran on and could not tell from the original).\n" % (
          pct(st["killed"], judged - left_out), st["killed"],
          judged - left_out))
    w("Raw: %.1f%% (%d of %d judged mutants killed; %.1f%% by the default "
      "run alone).  Survivors: %d equivalent (%d of them changing only "
      "last_error() text), each the same as the original on every call the "
      "probe made, which began the changed statement; %d explained as "
      "equivalent but separated by the probe; %d explained as equivalent "
      "but not probed (the probe never began the changed statement, or "
      "could not run); %d `unreachable` (only "
      "tensors no process holds could show them), %d more whose "
      "`unreachable` the probe contradicted; %d `harness` (the harness "
      "cannot show them: its policy lets them pass, or they show only out "
      "of memory, on a dst larger than it stages, or as undefined "
      "behaviour it meets only by chance); %d unexplained.  Only the equivalent ones "
      "are left out of the score.\n" % (
          score, st["killed"], judged, default_score,
          cls["equivalent"] + cls["message"], cls["message"],
          cls["separated"], cls["unprobed"], cls["unreachable"],
          cls["contradicted"], cls["harness"], len(unexplained)))
    w(probe_line(survivors))
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
        w("Each survivor with the reason it was given and what the "
          "equivalence probe (`tools/mutation/probe.py`: random valid calls "
          "on the mutant and the original, compared) found of it; a reason "
          "the probe contradicts is marked.\n")
        w("| mutant | change | in | why it survives | probe |\n| --- | --- "
          "| --- | --- | --- |")
        for m in survivors:
            mark = {"separated": "**NOT EQUIVALENT** ",
                    "unprobed": "**NOT PROBED** ",
                    "contradicted": "**REACHABLE** "}.get(
                        standing(m, explanations)[0], "")
            w("| %s `%s` | %s | `%s` | %s%s | %s |" % (
                m["num"], m["id"], _change(m), m["func"] or "-", mark,
                _cell(explanations.get(m["id"], "**UNEXPLAINED**")),
                _cell(probe.summary(m.get("probe")))))
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
