"""scoreboard_layouts.py - the scoreboard's "Broadcast and size-1 strides" section:
what each library does with the layouts of D12 (include/reshape_candidate.h) that
frameworks hand kernels, read from the runs of the harness's `broadcast_src` and
`size1_strides` variants in each library's report.

For each library and variant: the runs by verdict, how many of the failing ones
fail on this layout only (the same case passes `dense`: what the layout did, not one
of the library's other findings showing again), and a word for them ("copies them",
"refuses them", "**gets them wrong**" when a run fails on the layout only); then,
reproducibly, the first failing runs (`case/variant`: expected, got, detail), those
on the layout only first, and the skip reasons with their counts and an example
run.  Nothing is judged here: the verdicts are the harness's.
"""
import collections
import re

VARIANTS = ["broadcast_src", "size1_strides"]
# Verdicts that count against conformance (reports/SCHEMA.md).
AGAINST = {"FAIL", "ACCEPTED_INVALID", "CRASH", "TIMEOUT", "MEMORY_VIOLATION", "LEAK",
           "FLOOD", "UNEXPECTED_PASS"}
# How many failing runs a library's line names.
EXAMPLES = 3


def cell(text):
    """`text` inside one Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def runs_of(report, variant):
    """The report's entries of `variant`."""
    return [e for e in report.get("cases", []) if e.get("variant") == variant]


def word(counts, layout_only):
    """What the runs of one variant say in a word; `layout_only` counts the
    failing runs whose case passes dense."""
    total = sum(counts.values())
    if total == 0:
        return "not run"
    if layout_only:
        return "**gets them wrong**"
    if any(counts[v] for v in AGAINST):
        return "copies them, failing only where dense fails"
    if counts["NOT_SUPPORTED"] == total:
        return "refuses them"
    if counts["NOT_SUPPORTED"] == 0:
        return "copies them"
    return "copies some, refuses others"


def layout_only(report, entries):
    """The failing `entries` whose case does not also fail `dense` (passes it,
    or has no dense run to compare), in report order."""
    dense = {e["id"]: e["verdict"] for e in report.get("cases", []) if e["variant"] == "dense"}
    return [e for e in entries if e["verdict"] in AGAINST and dense.get(e["id"]) not in AGAINST]


def reason_of(entry):
    """A skip's reason as the harness groups skips: its detail, numbers as N."""
    detail = entry.get("detail") or "(no reason given)"
    return re.sub(r"\b(0x[0-9a-fA-F]+|\d+)\b", "N", detail)


def skip_lines(entries):
    """'reason' (N runs), e.g. `case/variant`, most runs first."""
    groups = collections.OrderedDict()
    for e in sorted(entries, key=lambda e: (len(e["id"]), e["id"])):
        if e["verdict"] == "NOT_SUPPORTED":
            groups.setdefault(reason_of(e), []).append(e)
    ordered = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    return ["  - skipped, %d runs: %s (e.g. `%s/%s`)" %
            (len(runs), cell(reason), runs[0]["id"], runs[0]["variant"])
            for reason, runs in ordered]


def fail_lines(entries, first):
    """The first failing runs, those in `first` before the others, each
    reproducible from its case id and variant."""
    bad = first + [e for e in entries if e["verdict"] in AGAINST and e not in first]
    return ["  - %s `%s/%s`: expected %s, got %s%s" %
            (e["verdict"], e["id"], e["variant"], cell(e.get("expected", "?")),
             cell(e.get("got", "?")), (" (%s)" % cell(e["detail"])) if e.get("detail") else "")
            for e in bad[:EXAMPLES]] + (["  - ... and %d more runs" % (len(bad) - EXAMPLES)]
                                        if len(bad) > EXAMPLES else [])


def section(results):
    """The section's Markdown lines for `results`, [(library, {"report": ...})]."""
    lines = ["## Broadcast and size-1 strides", "",
             "What each library does with the layouts frameworks hand kernels (D12 in "
             "`include/reshape_candidate.h`): the `broadcast_src` variant reads a src whose "
             "elements share offsets (a stride of 0 on a dim above 1, as `torch.expand` and "
             "`numpy.broadcast_to` make), `size1_strides` gives size-1 dims strides of their "
             "own (0, huge, odd) that must never move the address. Counts are (case, variant) "
             "runs; \"on this layout only\" counts the failing runs whose case passes the "
             "`dense` variant (the others are the library's other findings showing again). "
             "Each failing run is named by case id and variant, so `reshape-conform "
             "--candidate build/candidates/<library>.so --filter <id> --variants <variant>` "
             "reproduces it. What each adapter claims is in `candidates/<library>/README.md`.",
             ""]
    header = ["library", "variant", "what it does", "PASS", "NOT_SUPPORTED", "against",
              "against, on this layout only", "runs"]
    rows, details, seen = [], [], False
    for lib, res in results:
        report = res.get("report")
        if report is None:
            continue
        if "cases" not in report:       # a dated record keeps its rendered lines
            rows += report.get("layout_rows", [])
            details += report.get("layout_details", [])
            seen = seen or bool(report.get("layout_rows"))
            continue
        cand = report["candidate"]
        name = "%s %s" % (cand["name"], cand["version"])
        for variant in VARIANTS:
            entries = runs_of(report, variant)
            counts = collections.Counter(e["verdict"] for e in entries)
            seen = seen or bool(entries)
            only_here = layout_only(report, entries)
            rows.append("| %s | %s | %s | %d | %d | %d | %d | %d |" %
                        (name, variant, word(counts, len(only_here)), counts["PASS"],
                         counts["NOT_SUPPORTED"], sum(counts[v] for v in AGAINST),
                         len(only_here), len(entries)))
            more = fail_lines(entries, only_here) + skip_lines(entries)
            if more:
                details += ["- %s, `%s`:" % (name, variant)] + more
    if not seen:
        return lines + ["No report has runs of these variants: the harness that wrote them "
                        "predates them. Rerun `make scoreboard` with a harness that has them.",
                        ""]
    lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)] + rows + [""]
    return lines + details + [""]
