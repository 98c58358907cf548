"""scoreboard_record.py - dated records: the last results of a library that
this repository can no longer build, kept on the scoreboard instead of
dropped.

A record is REPORTS/<library>/record.json, committed beside the library's
report.md.  It holds what the scoreboard shows of a report (candidate, suite,
verdict, counts per operation and verdict, findings, the comparison, layout
and certificate lines, the profile's headline, and "perf_folder" where its
perf.md is not in REPORTS/<library>/) plus "record": when it was
measured, from which build, why it cannot be rebuilt, and which version the
findings were reported against.  The scoreboard uses it only when the
library has no report of its own (its adapter is not built and no
report.json is there): a fresh run always supersedes it.
"""
import collections
import json
import os

RECORD = "record.json"


def load(report_dir):
    """REPORT_DIR/record.json, or None where there is none.  A record that is
    not valid JSON, or lacks the fields the scoreboard reads, raises
    ValueError naming the file."""
    path = os.path.join(report_dir, RECORD)
    try:
        with open(path) as f:
            record = json.load(f)
    except FileNotFoundError:
        return None
    except ValueError as e:
        raise ValueError("%s: %s" % (path, e)) from e
    missing = [k for k in ("record", "candidate", "suite", "verdict", "summary",
                           "op_counts", "findings", "status_agreement")
               if k not in record]
    if missing:
        raise ValueError("%s: no '%s' field" % (path, missing[0]))
    return record


def is_record(report):
    """True for a dated record, False for a report a run wrote."""
    return "record" in report and "cases" not in report


def op_counts(record):
    """{op: Counter of verdicts}, as scoreboard.op_table gives of a report."""
    return {op: collections.Counter(counts) for op, counts in record["op_counts"].items()}


def lines(record):
    """The Markdown paragraph that says what the record is."""
    r = record["record"]
    return ["**Dated record, measured %s; not rerun here.** Build: %s. %s The findings below "
            "were reported against %s." % (r["measured"], r["build"], r["rebuild"],
                                           r["findings_against"]), ""]
