"""scoreboard_perf - the performance column of the scoreboard: runs
`reshape-conform perf` on an adapter (and on the reference) into its report
folder and sums the profile up in one line (reports/perf_model.headline).

Depends on the standard library and reports/perf_model.py.  The profile
is small on purpose (payloads up to PERF_MAX_SIZE, a short time budget per
point) so that `make scoreboard` stays quick; `reshape-conform perf` with
its defaults goes up to 1 GiB.
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "reports"))
import perf_model  # noqa: E402

PERF_MAX_SIZE = "1M"
POINT_SECONDS = "0.05"


def run(harness, adapter, report_dir):
    """Profiles `adapter` into report_dir/perf.{json,md,html}, with one OpenMP
    thread as the conformance run has; returns the
    harness's exit status (0 measured, 1 some point failed: both are
    results; 2 or 3 are failures of the harness)."""
    os.makedirs(report_dir, exist_ok=True)
    proc = subprocess.run([harness, "perf", "--candidate", adapter, "--max-size", PERF_MAX_SIZE,
                           "--point-seconds", POINT_SECONDS, "--quiet", "--report-dir",
                           report_dir], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
    if proc.returncode not in (0, 1):
        sys.stderr.write(proc.stdout)
    return proc.returncode


def headline(report_dir):
    """The one-line summary of report_dir/perf.json, or None without one."""
    try:
        with open(os.path.join(report_dir, "perf.json")) as f:
            profile = json.load(f)
    except (OSError, ValueError):
        return None
    return perf_model.headline(profile) or "nothing measured (every point failed)"


def section(rows):
    """Markdown lines for the scoreboard: `rows` are (name, report folder,
    headline or None)."""
    lines = ["## Performance beside memcpy", "",
             "`reshape-conform perf` on each adapter, payloads up to %s (the full profile, up "
             "to 1 GiB, is `reshape-conform perf --candidate X.so`): the candidate's execute "
             "bandwidth over memcpy of the same bytes, timed in alternate rounds in one worker "
             "process (1.00x is memcpy's speed), at 1 MiB of f32 in each layout; in place a "
             "kernel that moves nothing beats memcpy. Every point, width and size is in "
             "`reports/<library>/perf.md`. As for the conformance runs, OpenMP gets one "
             "thread (`OMP_NUM_THREADS=1`): with its default team of one thread per core, "
             "oneDNN 2.6's tiny execute costs about 16 ms here instead of 1.3 us, the "
             "parallel region waiting each call for a team thread that the scheduler has put "
             "to sleep; `reshape-conform perf` run by hand keeps the caller's environment. "
             "Each perf.md gives the host's load average while it was measured." % PERF_MAX_SIZE, "",
             "| candidate | profile |", "|---|---|"]
    for name, folder, line in rows:
        lines.append("| %s | %s |" % (name, "[%s](%s/perf.md)" % (line, folder) if line
                                      else "no profile"))
    return lines + [""]
