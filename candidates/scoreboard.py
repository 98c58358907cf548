"""scoreboard.py - runs the harness on every built library adapter and writes
reports/SCOREBOARD.md: a table of candidate x operation with counts per
verdict, and for each library what it gets wrong, in plain words, with the
case ids that show it.

Usage: /usr/bin/python3 candidates/scoreboard.py [--harness PATH]
           [--adapters DIR] [--reports DIR] [--render-only | --only LIB,...]

For each library in LIBRARIES whose adapter DIR/<library>.so exists it runs
  HARNESS --candidate DIR/<library>.so --report-dir REPORTS/<library> --quiet
(with OMP_NUM_THREADS=1: oneDNN and libtorch then use one OpenMP thread, as the
harness runs its own threads and forks workers) and reads the JSON it
writes, then profiles it (scoreboard_perf.py) and certifies it and reruns
the bundle (scoreboard_certify.py).  A library that is not built is listed as
such.  --render-only reads the existing reports without running anything;
--only LIB,... runs those libraries (not the reference's profile) and reads
the others' existing reports, so that one library can be run again.

Exit status: 0 the scoreboard was written (whatever the libraries' verdicts:
the harness's exit 1, nonconformant, or a bundle that does not reproduce is a
result, not a failure); 2 bad usage; 3 the harness failed (exit 2 or 3, or no
report or bundle written) for some library, after writing the scoreboard.

Findings are reported as measured: the harness groups the failing entries
into findings (reports/SCHEMA.md, "Findings"); nothing here hides or
re-judges a verdict, it only attaches a note to a finding's signature
(scoreboard_notes.py).
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import time

import scoreboard_certify
from scoreboard_notes import LIBRARY_TEXT, note_for
import scoreboard_layouts
import scoreboard_perf
import scoreboard_record

LIBRARIES = ["onednn", "onednn3", "onednn_graph", "onednn_graph313", "onnxruntime",
             "onnx_reference", "onnx_reference_latest", "libtorch", "numpy", "xnnpack",
             "xtensor", "eigen", "opencv", "armnn", "openvino_core", "openvino_cpu"]
OPS = ["openvino_reshape_1", "onednn_static_reshape_1",
       "onednn_dynamic_reshape_1", "onnx_reshape_14"]
# Libraries whose adapter is a second build of another's sources:
# library -> the folder below candidates/ that holds them (and the README).
SOURCE_FOLDER = {"onnx_reference_latest": "onnx_reference", "onednn_graph313": "onednn_graph",
                 "openvino_core": "openvino", "openvino_cpu": "openvino"}
# Verdict columns, in reports/SCHEMA.md order.
VERDICTS = ["PASS", "FAIL", "ACCEPTED_INVALID", "CRASH", "TIMEOUT",
            "MEMORY_VIOLATION", "LEAK", "FLOOD", "NOT_SUPPORTED", "WAIVED",
            "UNEXPECTED_PASS"]
COUNTS_AGAINST = {"FAIL", "ACCEPTED_INVALID", "CRASH", "TIMEOUT",
                  "MEMORY_VIOLATION", "LEAK", "FLOOD", "UNEXPECTED_PASS"}

# Libraries compared run by run on one operation: (library, other, op).
COMPARE = [("onednn3", "onednn", "onednn_static_reshape_1"),
           ("onednn_graph", "onednn", "onednn_static_reshape_1"),
           ("onnx_reference", "onnxruntime", "onnx_reshape_14")]
# How many runs a comparison line names as examples.
EXAMPLES_PER_FINDING = 3


def compare(report, other, op):
    """Lines comparing two reports on `op`, over the (case, variant) runs
    that neither answered NOT_SUPPORTED."""
    theirs = {(e["id"], e["variant"]): e["verdict"] for e in other["cases"]
              if e["op"] == op}
    groups = collections.OrderedDict((k, []) for k in
                                     ("both pass", "both fail", "only this one fails",
                                      "only the other fails"))
    for e in report["cases"]:
        key = (e["id"], e["variant"])
        if e["op"] != op or key not in theirs:
            continue
        mine, their = e["verdict"], theirs[key]
        if "NOT_SUPPORTED" in (mine, their):
            continue
        bad, their_bad = mine in COUNTS_AGAINST, their in COUNTS_AGAINST
        name = ("both fail" if bad and their_bad else "only this one fails" if bad
                else "only the other fails" if their_bad else "both pass")
        groups[name].append("`%s` (%s: %s vs %s)" % (e["id"], e["variant"], mine, their))
    return ["- %s: %d runs%s" % (name, len(runs),
                                 (", e.g. " + "; ".join(runs[:EXAMPLES_PER_FINDING]))
                                 if runs and name != "both pass" else "")
            for name, runs in groups.items()]


def run_harness(harness, adapter, report_dir):
    """Runs the harness on one adapter; returns (exit status, seconds)."""
    env = dict(os.environ, OMP_NUM_THREADS="1")
    start = time.monotonic()
    proc = subprocess.run([harness, "--candidate", adapter, "--report-dir",
                           report_dir, "--quiet"], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, check=False)
    elapsed = time.monotonic() - start
    tail = proc.stdout.strip().splitlines()[-1:] if proc.stdout.strip() else []
    print("scoreboard: %s: exit %d in %.1f s%s" %
          (os.path.basename(adapter), proc.returncode, elapsed,
           (": " + tail[0]) if tail else ""))
    return proc.returncode, elapsed


def op_table(report):
    """{op: Counter of verdicts} over every entry of the report (or the
    counts a dated record keeps)."""
    table = {op: collections.Counter() for op in OPS}
    if scoreboard_record.is_record(report):
        table.update(scoreboard_record.op_counts(report))
        return table
    for entry in report["cases"]:
        table.setdefault(entry["op"], collections.Counter())[entry["verdict"]] += 1
    return table


def op_verdict(counts):
    total = sum(counts.values())
    if total == 0 or counts["NOT_SUPPORTED"] + counts["WAIVED"] == total:
        return "not supported"
    if any(counts[v] for v in COUNTS_AGAINST):
        return "**nonconformant**"
    return "conformant"


def findings(report):
    """The report's findings (the harness groups them, reports/SCHEMA.md),
    most runs first."""
    return report.get("findings") or []


def cell(text):
    """`text` inside one Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def render(results, out_path, perf_rows, cert_rows):
    lines = ["# Scoreboard: real libraries against the reshape specs", "",
             "Written by `make scoreboard` (`candidates/scoreboard.py`): the harness run on "
             "each library adapter in `build/candidates/` (`make candidates` builds them), "
             "every case and every variant; the full reports are in `reports/<library>/` "
             "(`report.md` is kept in git; `report.json`, `report.xml` and `report.html` are "
             "written beside it). Counts are (case, variant) runs. An operation is \"not "
             "supported\" when the adapter answered NOT_SUPPORTED for all of it. What each "
             "adapter can and cannot express is in `candidates/<library>/README.md`.", ""]
    header = ["candidate", "operation", "verdict"] + VERDICTS
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---|" * len(header))
    for lib, res in results:
        if res.get("report") is None:
            lines.append("| %s | (all) | %s |%s" % (lib, res["status"], " |" * len(VERDICTS)))
            continue
        cand = res["report"]["candidate"]
        name = "%s %s" % (cand["name"], cand["version"])
        if scoreboard_record.is_record(res["report"]):
            name += " (record of %s)" % res["report"]["record"]["measured"]
        for op, counts in sorted(op_table(res["report"]).items(),
                                 key=lambda kv: OPS.index(kv[0]) if kv[0] in OPS else 99):
            lines.append("| %s | %s | %s | %s |" %
                         (name, op, op_verdict(counts),
                          " | ".join(str(counts[v]) if counts[v] else "" for v in VERDICTS)))
    lines += ["", "## What each library gets wrong", ""]
    reports = {lib: res.get("report") for lib, res in results}
    for lib, res in results:
        report = res.get("report")
        extra = [LIBRARY_TEXT[lib], ""] if lib in LIBRARY_TEXT else []
        if report is None:
            lines += ["### %s" % lib, "", res["status"] + "."] + [""] + extra
            continue
        cand, suite = report["candidate"], report["suite"]
        lines += ["### %s %s" % (cand["name"], cand["version"]), "",
                  "Adapter `%s` (sha256 `%s`), suite %s at commit `%s`, %d cases loaded; "
                  "run in %.1f s. Overall: **%s**. Error status names: %d agree with the "
                  "expected status, %d do not (any error status satisfies an error case)." %
                  (cand["path"], cand["sha256"][:12], suite["version"],
                   suite["git_commit"][:12], suite["cases_loaded"], res["seconds"],
                   report["verdict"], report["status_agreement"]["agree"],
                   report["status_agreement"]["disagree"]), ""]
        lines += extra
        if scoreboard_record.is_record(report):
            lines += scoreboard_record.lines(report)
        found = findings(report)
        if not found:
            lines += ["Nothing: every run it supports passes.", ""]
        else:
            lines += ["| finding (harness signature) | what the library does | runs | cases "
                      "| ops | variants | smallest example |",
                      "|---|---|---|---|---|---|---|"]
        for f in found:
            note = note_for(lib, f["signature"])
            ex = f["example"]
            lines.append("| `%s` | %s | %d | %d | %s | %s | `%s/%s`: expected %s, got %s |" %
                         (cell(f["signature"]), cell(note) if note else "",
                          f["runs"], f["cases"], ", ".join(f["ops"]), ", ".join(f["variants"]),
                          ex["id"], ex["variant"], cell(ex["expected"]), cell(ex["got"])))
        for mine, other, op in COMPARE:
            if mine == lib and scoreboard_record.is_record(report):
                lines += ["", report.get("compare_heading", "Against %s on %s:" % (other, op)), ""]
                lines += report.get("compare_lines", [])
            elif mine == lib and reports.get(other) is not None \
                    and not scoreboard_record.is_record(reports[other]):
                ocand = reports[other]["candidate"]
                lines += ["", "Against %s %s on %s, run by run (runs neither answered "
                          "NOT_SUPPORTED):" % (ocand["name"], ocand["version"], op), ""]
                lines += compare(report, reports[other], op)
        skipped = report["summary"].get("NOT_SUPPORTED", 0)
        lines += ["", "Skipped: %d of %d runs are NOT_SUPPORTED, configurations the "
                  "library cannot express through its API (`candidates/%s/README.md`)." %
                  (skipped, report["summary"]["total"], SOURCE_FOLDER.get(lib, lib)), ""]
    lines += scoreboard_layouts.section(results)
    lines += scoreboard_certify.section(cert_rows) + scoreboard_perf.section(perf_rows)
    with open(out_path, "w") as f:
        f.write("\n".join(lines))


def keep_record(lib, report_dir, json_path, res):
    """Where `lib` has no report.json, its dated record (scoreboard_record.py)
    becomes res["report"]; says so on stdout.  False (said on stderr) for a
    record that cannot be read."""
    if os.path.exists(json_path):
        return True
    try:
        record = scoreboard_record.load(report_dir)
    except ValueError as e:
        print("scoreboard: bad dated record: %s" % e, file=sys.stderr)
        return False
    if record is not None:
        res["report"] = record
        print("scoreboard: kept %s's dated record of %s (%s)" %
              (lib, record["record"]["measured"], os.path.join(report_dir, scoreboard_record.RECORD)))
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--harness", default="build/reshape-conform")
    ap.add_argument("--adapters", default="build/candidates")
    ap.add_argument("--reports", default="reports")
    ap.add_argument("--reference", default="build/libreshape_ref.so")
    ap.add_argument("--render-only", action="store_true")
    ap.add_argument("--only", default="",
                    help="comma-separated libraries to run; the others are rendered from "
                         "their reports as --render-only does")
    args = ap.parse_args()
    only = [lib for lib in args.only.split(",") if lib]
    unknown = [lib for lib in only if lib not in LIBRARIES]
    if unknown:
        ap.error("--only: unknown library '%s' (one of %s)" % (unknown[0], ", ".join(LIBRARIES)))

    failed = False
    results = []
    for lib in LIBRARIES:
        adapter = os.path.join(args.adapters, lib + ".so")
        report_dir = os.path.join(args.reports, lib)
        json_path = os.path.join(report_dir, "report.json")
        res = {"seconds": 0.0}
        render_only = args.render_only or (only and lib not in only)
        if not render_only:
            if not os.path.exists(adapter):
                print("scoreboard: skipped %s: %s not built (run `make candidates`)" %
                      (lib, adapter))
                res["status"] = "not built"
                failed = not keep_record(lib, report_dir, json_path, res) or failed
                results.append((lib, res))
                continue
            rc, res["seconds"] = run_harness(args.harness, adapter, report_dir)
            if rc in (0, 1) and scoreboard_perf.run(args.harness, adapter, report_dir) not in (0, 1):
                rc = 3
            if rc in (0, 1) and scoreboard_certify.run(args.harness, adapter,
                                                       report_dir) not in (0, 1):
                failed = True
            if rc not in (0, 1):
                print("scoreboard: the harness failed on '%s' with exit %d" % (lib, rc),
                      file=sys.stderr)
                failed = True
                res["status"] = "harness failed (exit %d)" % rc
                results.append((lib, res))
                continue
        try:
            with open(json_path) as f:
                res["report"] = json.load(f)
            res["seconds"] = res["seconds"] or res["report"].get("duration_s", 0.0)
        except (OSError, ValueError) as e:
            if render_only:
                failed = not keep_record(lib, report_dir, json_path, res) or failed
            if res.get("report") is None:
                failed = failed or not render_only
                print("scoreboard: no report for '%s': %s" % (lib, e), file=sys.stderr)
                res["status"] = "no report"
        results.append((lib, res))
    ref_dir = os.path.join(args.reports, "reference")
    if not args.render_only and not only and \
            scoreboard_perf.run(args.harness, args.reference, ref_dir) not in (0, 1):
        failed = True
    perf_rows, cert_rows = [("reference", "reference", scoreboard_perf.headline(ref_dir))], []
    for lib, res in results:
        if res.get("report") is not None:
            report = res["report"]
            cand, folder = report["candidate"], os.path.join(args.reports, lib)
            name = "%s %s" % (cand["name"], cand["version"])
            if scoreboard_record.is_record(report):
                # a record's perf.md may have moved beside its report.md
                perf_rows.append((name, report.get("perf_folder", lib),
                                  report.get("perf_headline")))
                cert_rows.append((name, report.get("certificate")))
                continue
            perf_rows.append((name, lib, scoreboard_perf.headline(folder)))
            cert_rows.append((name, scoreboard_certify.record(folder)))
    out = os.path.join(args.reports, "SCOREBOARD.md")
    render(results, out, perf_rows, cert_rows)
    print("scoreboard: wrote %s" % out)
    return 3 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
