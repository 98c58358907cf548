"""report_model - the figures every view of a report shows, computed once.

Depends on the standard library and report_schema only; it reads a report that
report_schema.check() accepted and never touches files.  Both the Markdown and
the HTML renderer take their numbers from here, so the two views cannot
disagree.
"""

import re

from gate_model import Gate
from report_schema import VERDICTS, NOT_COUNTING

# The order the ABI lists operations and dtypes in; anything else a report
# carries is shown after these, sorted by name.
OP_ORDER = ("openvino_reshape_1", "onednn_static_reshape_1",
            "onednn_dynamic_reshape_1", "onnx_reshape_14")
DTYPE_ORDER = ("f64", "f32", "f16", "bf16", "f8e4m3", "f8e5m2", "s64", "s32", "s16",
               "s8", "u64", "u32", "u16", "u8", "s4", "u4", "u1", "boolean")

# Worst first: how non-passing verdicts are ordered in every list of cases.  A
# crash or a write outside dst matters more than a wrong byte, and a skip or a
# waiver matters least.
SEVERITY = ("CRASH", "MEMORY_VIOLATION", "TIMEOUT", "LEAK", "FLOOD",
            "ACCEPTED_INVALID", "FAIL", "UNEXPECTED_PASS", "WAIVED",
            "NOT_SUPPORTED", "PASS")

# Verdicts that are skips rather than results: they leave a cell's pass rate
# alone.
SKIPS = frozenset(("NOT_SUPPORTED", "WAIVED"))


def ordered(names, preferred):
    """Returns the distinct `names`, those in `preferred` first in its order,
    then the rest sorted."""
    seen = set(names)
    head = [n for n in preferred if n in seen]
    tail = sorted(seen.difference(preferred))
    return head + tail


def natural_key(text):
    """Sorts "Example 10" after "Example 9": digit runs compare as numbers."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p)
            for p in re.split(r"(\d+)", text) if p]


def severity_rank(verdict):
    return SEVERITY.index(verdict) if verdict in SEVERITY else len(SEVERITY)


def counts_against(verdict):
    """True for the verdicts SCHEMA.md says count against conformance."""
    return verdict not in NOT_COUNTING


class Cell:
    """The counts behind one heat-map cell, or one row of a per-op table.

    `counts` maps each verdict to its number of (case, variant) entries.
    `counted` leaves out skips (NOT_SUPPORTED, WAIVED); `rate` is
    PASS / counted in 0..1, or None when every entry was a skip (nothing was
    judged, so there is no rate to colour by)."""

    def __init__(self, counts, total=None):
        self.counts = {v: int(counts.get(v, 0)) for v in VERDICTS}
        self.total = sum(self.counts.values()) if total is None else int(total)
        skipped = sum(self.counts[v] for v in SKIPS)
        self.skipped = skipped
        self.counted = max(self.total - skipped, 0)
        self.passed = self.counts["PASS"]
        self.bad = sum(n for v, n in self.counts.items() if counts_against(v))
        self.rate = self.passed / self.counted if self.counted else None

    @property
    def rate_text(self):
        if self.rate is None:
            return "skipped"
        if self.rate == 1:
            return "100%"
        # Never round a failing cell up to 100%.
        return "%d%%" % min(int(self.rate * 100), 99)

    @property
    def colour(self):
        """A light background for black text: green only when every judged
        entry passed; red (0%) through orange to yellow (99%) otherwise, so a
        single failure never looks like a pass; grey when nothing was judged."""
        if self.rate is None:
            return "#e3e6ea"
        if self.bad == 0 and self.rate == 1:
            return "hsl(120, 45%, 78%)"
        return "hsl(%d, 85%%, 74%%)" % round(50 * self.rate)

    @property
    def breakdown(self):
        """'PASS 12, FAIL 2' for the verdicts this cell has, in report order."""
        parts = ["%s %d" % (v, self.counts[v]) for v in VERDICTS if self.counts[v]]
        return ", ".join(parts) if parts else "no entries"


class Skip:
    """One group of skipped entries (SCHEMA.md, "Skips"): its reason, counts,
    and its op, dtype and variant counts as "name (N)" lists, most first."""

    def __init__(self, group):
        self.reason = group["reason"]
        self.runs = group["runs"]
        self.cases = group["cases"]
        self.example = group["example"]
        self.ops = self._counted(group["ops"])
        self.dtypes = self._counted(group["dtypes"])
        self.variants = self._counted(group["variants"])

    @staticmethod
    def _counted(counts):
        if not isinstance(counts, dict):
            return ""
        items = sorted(counts.items(), key=lambda kv: -kv[1])
        return ", ".join("%s (%s)" % (k, "{:,}".format(n)) for k, n in items)


def _count_cases(cases, key):
    """Maps key(case) to a dict of verdict counts over `cases`."""
    table = {}
    for case in cases:
        row = table.setdefault(key(case), {})
        row[case["verdict"]] = row.get(case["verdict"], 0) + 1
    return table


class Model:
    """Everything a view needs from one report.

    `report` must have passed report_schema.check().  Lists of cases are in
    severity order (SEVERITY), then in report order."""

    def __init__(self, report):
        self.report = report
        cases = report["cases"]
        self.summary = report["summary"]
        self.verdict = report["verdict"]
        self.conformant = report["verdict"] == "conformant"
        # what --baseline / --expectations answered: the views open with it
        self.gate = Gate(report)

        # The verdicts that occur in this run, for table columns; PASS is
        # always shown so an all-failing table still says 0 passed.
        present = {c["verdict"] for c in cases}
        present.update(v for v in VERDICTS if self.summary.get(v))
        self.columns = [v for v in VERDICTS if v == "PASS" or v in present]

        self.verdict_counts = [(v, self.summary[v]) for v in VERDICTS]
        self.failing_total = sum(n for v, n in self.verdict_counts if counts_against(v))
        self.skipped_total = sum(self.summary[v] for v in SKIPS)

        by_op = _count_cases(cases, lambda c: c["op"])
        self.ops = [(op, Cell(by_op[op])) for op in ordered(by_op, OP_ORDER)]
        self.all_ops = Cell(_count_cases(cases, lambda c: "").get("", {}))

        # Reports written before findings, skips or libraries existed have
        # none: show none.
        self.findings = report.get("findings") or []
        self.skips = [Skip(s) for s in report.get("skips") or []]
        self.skipped_by_reason = sum(s.runs for s in self.skips)
        self.libraries = report.get("libraries") or []
        self.warnings = self._consistency(cases)
        self.op_clause = self._op_clause(report["matrices"]["op_clause"])
        self.dtype_ops, self.dtypes, self.op_dtype = \
            self._op_dtype(report["matrices"]["op_dtype"])
        self.tags = sorted(((m["tag"], Cell(m, m["total"]))
                            for m in report["matrices"]["tag"]),
                           key=lambda t: t[0])

        non_passing = [c for c in cases if c["verdict"] != "PASS"]
        non_passing.sort(key=lambda c: severity_rank(c["verdict"]))
        self.non_passing = non_passing
        self.failing = [c for c in non_passing if counts_against(c["verdict"])]
        self.skipped = [c for c in non_passing if not counts_against(c["verdict"])]
        # "Not passing" lists what failed or was waived; the skips
        # (NOT_SUPPORTED) have their own section, grouped by reason (in a
        # report from before skips were grouped, they stay in the list).
        self.not_passing = [c for c in non_passing
                            if c["verdict"] != "NOT_SUPPORTED" or "skips" not in report]
        self.disagreeing = [c for c in cases if c.get("status_agrees") is False]

    def _consistency(self, cases):
        """Says where the summary and the cases list disagree; an empty list
        when they agree.  The harness writes both, so a difference is a
        harness defect the reader should see before trusting either."""
        warnings = []
        if self.summary["total"] != len(cases):
            warnings.append("summary total is %d but the report lists %d cases"
                            % (self.summary["total"], len(cases)))
        counted = _count_cases(cases, lambda c: "").get("", {})
        for v in VERDICTS:
            if counted.get(v, 0) != self.summary[v]:
                warnings.append("summary gives %s %d but the cases list has %d"
                                % (v, self.summary[v], counted.get(v, 0)))
        expected = "conformant" if all(
            not counts_against(v) or n == 0 for v, n in self.verdict_counts) \
            else "nonconformant"
        if expected != self.verdict:
            warnings.append('verdict is "%s" but the summary counts make it "%s"'
                            % (self.verdict, expected))
        in_findings = sum(f["runs"] for f in self.findings)
        if "findings" in self.report and in_findings != self.failing_total:
            warnings.append("the findings hold %d runs but %d entries count against "
                            "conformance" % (in_findings, self.failing_total))
        return warnings

    @staticmethod
    def _op_clause(entries):
        """[(op, [(clause, Cell)])], ops in ABI order, clauses in natural order."""
        grouped = {}
        for m in entries:
            grouped.setdefault(m["op"], []).append((m["clause"], Cell(m, m["total"])))
        return [(op, sorted(grouped[op], key=lambda t: natural_key(t[0])))
                for op in ordered(grouped, OP_ORDER)]

    @staticmethod
    def _op_dtype(entries):
        """(ops, dtypes, {(op, dtype): Cell}) for the op x dtype grid."""
        grid = {}
        for m in entries:
            key = (m["op"], m["dtype"])
            if key in grid:  # the same pair twice: add them up
                merged = {v: grid[key].counts[v] + int(m.get(v, 0)) for v in VERDICTS}
                grid[key] = Cell(merged, grid[key].total + m["total"])
            else:
                grid[key] = Cell(m, m["total"])
        ops = ordered({op for op, _ in grid}, OP_ORDER)
        dtypes = ordered({dt for _, dt in grid}, DTYPE_ORDER)
        return ops, dtypes, grid


def group_by_id(cases):
    """Groups (case, variant) entries by case id, keeping the order in which
    each id first appears: [(first entry, [entries])]."""
    groups = {}
    order = []
    for case in cases:
        if case["id"] not in groups:
            groups[case["id"]] = []
            order.append(case["id"])
        groups[case["id"]].append(case)
    return [(groups[i][0], groups[i]) for i in order]


def short_hex(text, width=12):
    """The first `width` characters of a digest, for display; the full value
    stays in the title attribute or the JSON."""
    return text[:width] if len(text) > width else text
