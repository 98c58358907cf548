"""gate_model.py - the gate of a report (its "gate" object and each entry's
"gate" class, reports/SCHEMA.md) as the Markdown and HTML views show it,
first: what `run`, `merge` or `compare` answered with --baseline or
--expectations, so that no view says more or less than the gate did.

A report without a gate (no --baseline, no --expectations) has
`present` False; the views then head with the report's verdict.
"""

# Entries of each class the views list; the report lists them all.
SHOWN = 20


class Gate:
    """The gate of `report` (a dict that passed report_schema.check())."""

    def __init__(self, report):
        gate = report.get("gate")
        self.present = isinstance(gate, dict)
        cases = report["cases"]
        if not self.present:
            self.passed = report["verdict"] == "conformant"
            self.title = "CONFORMANT" if self.passed else "NONCONFORMANT"
            self.headline = report["verdict"]
            self.regressions = self.fixes = []
            self.known = self.waived = self.baselined = 0
            return
        self.passed = bool(gate.get("passed"))
        self.headline = gate.get("headline", "")
        self.baseline = gate.get("baseline")
        self.expectations = gate.get("expectations")
        self.allow_fixes = bool(gate.get("allow_fixes"))
        self.known = gate.get("known", 0)
        self.waived = gate.get("waived", 0)
        self.baselined = gate.get("baselined", 0)
        self.regressions = [c for c in cases if c.get("gate") == "regression"]
        self.fixes = [c for c in cases if c.get("gate") == "fix"]
        if self.passed:
            self.title = "CONFORMANT"
            if self.known:
                self.title += " WITH %s KNOWN FAILURE%s" % (
                    "{:,}".format(self.known), "" if self.known == 1 else "S")
        else:
            self.title = "NONCONFORMANT"
            if self.regressions:
                n = len(self.regressions)
                self.title += ": %s %s" % ("{:,}".format(n), (
                    "REGRESSION" if self.baseline else "UNEXPECTED FAILURE")
                    + ("" if n == 1 else "S"))

    @property
    def banner_class(self):
        """The CSS class of the page's banner: the gate's answer."""
        return "conformant" if self.passed else "nonconformant"


def was_of(case):
    """What a regression or fix was before: the baseline's verdict, "expected
    to fail" for an UNEXPECTED_PASS, or "-" when the baseline lacks it."""
    if case["verdict"] == "UNEXPECTED_PASS":
        return "expected to fail"
    was = case.get("baseline_was")
    return was if was else ("not in the baseline" if "baseline_was" in case else "-")
