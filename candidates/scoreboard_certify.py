"""scoreboard_certify - the certificate section of the scoreboard: certifies
an adapter and checks that its bundle reproduces, by running

  HARNESS certify --candidate SO --out TMP --quiet
  HARNESS verify TMP/<name>-<version>.tar.gz --rerun SO

both with OMP_NUM_THREADS=1 (as the scoreboard's own runs have), TMP a temporary
folder that is removed afterwards.  `verify --rerun` runs the suite again
on the same .so and compares every verdict with the bundle's.

What they said goes into REPORT_DIR/certificate.json (ignored by git, like
report.json), so that `scoreboard.py --render-only` shows it again:
  bundle, bundle_says  the archive's name and certify's "(VERDICT, N results,
                       M members)"
  certify_exit, certify_seconds, verify_exit, verify_seconds
                       verify_exit is null when verify did not run
  rerun                verify's rerun line after the .so and its hash
  problems             verify's `problem: NAME: ...` lines, without "problem: "
  error                the last output line of a step that failed
A verify exit 1 (a problem, e.g. verdicts that differ run to run) is a
result, shown with the first problem lines; certify or verify exiting 2 or 3
(or no bundle written) is a failure of the harness.

Depends on the standard library only.
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

RECORD = "certificate.json"
# How many of verify's problem lines the scoreboard shows per library.
PROBLEMS_SHOWN = 3


def _step(argv):
    """Runs one harness command; returns (exit status, seconds, output lines)."""
    start = time.monotonic()
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
    return proc.returncode, time.monotonic() - start, proc.stdout.splitlines()


def _failed(rec, what, lines):
    rec["error"] = "%s: %s" % (what, lines[-1] if lines else "no output")
    sys.stderr.write("".join(line + "\n" for line in lines))


def run(harness, adapter, report_dir):
    """Certifies `adapter`, verifies the bundle with --rerun and writes
    report_dir/certificate.json; returns 0 reproduced, 1 not reproduced
    (verify's exit 1: a result), else the exit status of the step that
    failed (2 or 3; 3 also when certify wrote no bundle)."""
    rec = {"bundle": None, "bundle_says": None, "certify_exit": None, "certify_seconds": 0.0,
           "verify_exit": None, "verify_seconds": 0.0, "rerun": None, "problems": [],
           "error": None}
    tmp = tempfile.mkdtemp(prefix="scoreboard-certify.")
    try:
        code, rec["certify_seconds"], lines = _step([harness, "certify", "--candidate", adapter,
                                                     "--out", tmp, "--quiet"])
        rec["certify_exit"] = code
        for line in lines:
            m = re.match(r"certify: wrote '.*' \((.*)\)$", line)
            if m:
                rec["bundle_says"] = m.group(1)
        bundles = glob.glob(os.path.join(tmp, "*.tar.gz"))
        if code not in (0, 1) or len(bundles) != 1:
            _failed(rec, "certify exit %d%s" % (code, "" if code not in (0, 1) else
                                                 ", %d bundles written" % len(bundles)), lines)
            code = code if code not in (0, 1) else 3
        else:
            rec["bundle"] = os.path.basename(bundles[0])
            code, rec["verify_seconds"], lines = _step([harness, "verify", bundles[0],
                                                        "--rerun", adapter])
            rec["verify_exit"] = code
            rec["problems"] = [line[len("problem: "):] for line in lines
                               if line.startswith("problem: ")]
            for line in lines:
                m = re.match(r"rerun: '.*' \(sha256 [0-9a-f]+\.\.\.\): (.*)$", line)
                if m:
                    rec["rerun"] = m.group(1)
            if code not in (0, 1):
                _failed(rec, "verify exit %d" % code, lines)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    rec["certify_seconds"] = round(rec["certify_seconds"], 2)
    rec["verify_seconds"] = round(rec["verify_seconds"], 2)
    os.makedirs(report_dir, exist_ok=True)
    with open(os.path.join(report_dir, RECORD), "w") as f:
        json.dump(rec, f, indent=1)
        f.write("\n")
    print("scoreboard: %s: certify exit %d in %.1f s, verify --rerun %s: %s" %
          (os.path.basename(adapter), rec["certify_exit"], rec["certify_seconds"],
           "exit %d in %.1f s" % (rec["verify_exit"], rec["verify_seconds"])
           if rec["verify_exit"] is not None else "not run", outcome(rec)))
    return code


def record(report_dir):
    """report_dir/certificate.json as run() wrote it, or None without one."""
    try:
        with open(os.path.join(report_dir, RECORD)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def outcome(rec):
    """One line: whether the bundle of `rec` was reproduced, and if not why."""
    if rec is None:
        return "not certified (no %s: `make scoreboard` writes it)" % RECORD
    if rec.get("error"):
        return "harness failed: " + rec["error"]
    if rec.get("verify_exit") == 0:
        return "reproduced: " + (rec.get("rerun") or "valid")
    problems = rec.get("problems") or []
    shown = ["`problem: %s`" % p for p in problems[:PROBLEMS_SHOWN]]
    # verify prints a kind's first problems, then "NAME: ... and N more"
    more = sum(int(m.group(1)) if m else 1 for m in
               (re.match(r"[a-z-]+: \.\.\. and (\d+) more$", p)
                for p in problems[PROBLEMS_SHOWN:]))
    if more:
        shown.append("and %d more problem%s" % (more, "s" if more > 1 else ""))
    return "**not reproduced** (verify exit %s%s): %s" % (
        rec.get("verify_exit"), ", rerun: " + rec["rerun"] if rec.get("rerun") else "",
        "; ".join(shown) or "no problem line")


def section(rows):
    """Markdown lines for the scoreboard: `rows` are (name, record or None)."""
    lines = ["## Certificates: `certify` then `verify --rerun`", "",
             "Each adapter certified (`reshape-conform certify --candidate "
             "build/candidates/<library>.so --out TMP --quiet`, into a temporary folder removed "
             "afterwards) and its bundle checked by running the suite on the same .so again "
             "(`reshape-conform verify TMP/<name>-<version>.tar.gz --rerun "
             "build/candidates/<library>.so`), both with `OMP_NUM_THREADS=1`. \"reproduced\" "
             "means the bundle is valid and the rerun gave every (case, variant) the verdict "
             "the bundle records. A difference is a finding, not a failure of the scoreboard: "
             "a library whose verdicts change from run to run cannot be certified by a rerun; "
             "the first of `verify`'s problem lines are shown.", "",
             "| candidate | bundle (`certify`) | `verify --rerun` | seconds (certify + verify) |",
             "|---|---|---|---|"]
    for name, rec in rows:
        says = "`%s`: %s" % (rec["bundle"], rec["bundle_says"]) \
            if rec and rec.get("bundle") else ""
        secs = "%.1f + %.1f" % (rec.get("certify_seconds", 0), rec.get("verify_seconds", 0)) \
            if rec else ""
        lines.append("| %s | %s | %s | %s |" % (name, says, " ".join(outcome(rec).split())
                                                .replace("|", "\\|"), secs))
    return lines + [""]
