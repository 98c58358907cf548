"""render_html - the report as one self-contained HTML page.

Depends on jinja2 and markupsafe (Debian's python3-jinja2), the standard library and the
sibling modules report_model, charts, text_diff and case_source; the page's
template, stylesheet and scripts are in templates/.  The page loads nothing:
CSS, SVG and the two small scripts are inline, and its Content-Security-Policy
forbids every other source, so an accidental reference fails loudly in a
browser instead of reaching the network.  jinja2 autoescaping is on for the
whole template; only our own CSS and scripts are inserted unescaped.
"""

import base64
import hashlib
import os

import jinja2
import markupsafe

import charts
import template_env
import text_diff
from case_source import CaseSource
from gate_model import SHOWN as GATE_SHOWN, was_of
from report_model import Model, group_by_id, counts_against, short_hex

_HERE = os.path.dirname(os.path.abspath(__file__))
_TEMPLATES = os.path.join(_HERE, "templates")

# Size limits that keep a page of a badly broken candidate loadable.  Past
# them the page says how many it left out; report.json always has them all.
DETAILED_CASES = 200     # failing cases shown with YAML and diffs
LISTED_ENTRIES = 2000    # further failing entries, one line each
SKIPPED_ENTRIES = 1000   # NOT_SUPPORTED and WAIVED entries listed
DISAGREEING = 500        # entries whose error status name disagrees


def _read(name):
    with open(os.path.join(_TEMPLATES, name), encoding="utf-8") as f:
        return f.read()


def _csp_hash(script):
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return "'sha256-%s'" % base64.b64encode(digest).decode("ascii")


def _waiver_text(waiver):
    """A waiver as one line, whatever JSON shape the harness gives it."""
    if waiver is None:
        return ""
    if isinstance(waiver, dict):
        return "; ".join("%s: %s" % (k, v) for k, v in waiver.items())
    return str(waiver)


def _entry_views(entries):
    """One row per distinct outcome of a case: entries whose verdict,
    detail, expected, got, status agreement and waiver are all equal share
    a row listing their variants, in the order they first appear (a defect
    usually shows the same way in every layout; ten equal rows hide that)."""
    rows, index = [], {}
    for case in entries:
        key = (case["verdict"], case["detail"], case["expected"], case["got"],
               case.get("status_agrees"), _waiver_text(case.get("waiver")))
        if key in index:
            index[key]["variants"].append(case["variant"])
            continue
        left, right = text_diff.segments(case["expected"], case["got"])
        row = {"case": case, "variants": [case["variant"]], "expected": left,
               "got": right, "waiver": _waiver_text(case.get("waiver"))}
        index[key] = row
        rows.append(row)
    return rows


def _group_view(first, entries, source):
    verdicts = []
    for e in entries:
        if e["verdict"] not in verdicts:
            verdicts.append(e["verdict"])
    search = " ".join([first["id"], first["op"], first["dtype"]] + verdicts
                      + [e["variant"] for e in entries]).lower()
    return {"first": first, "entries": _entry_views(entries),
            "verdicts": verdicts, "yaml": source.text(first), "search": search}


def render(report, source_roots):
    """Returns the HTML page for `report` (already checked against the
    schema).  `source_roots` are the folders tried, in order, to find the
    case files the report names, for the YAML of failing cases; a case whose
    file is not found is shown without its YAML."""
    model = Model(report)
    source = CaseSource(source_roots)

    groups = group_by_id(model.failing)
    detailed = [_group_view(f, e, source) for f, e in groups[:DETAILED_CASES]]
    rest = [c for _, entries in groups[DETAILED_CASES:] for c in entries]

    recorder = _read("errors.js")
    page_js = _read("page.js")
    csp = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
           "script-src %s %s; base-uri 'none'; form-action 'none'"
           % (_csp_hash(recorder), _csp_hash(page_js)))

    width, height, bars = charts.bars(model.verdict_counts)
    agreement = charts.split_bar([
        ("agree", report["status_agreement"]["agree"], charts.VERDICT_COLOURS["PASS"]),
        ("disagree", report["status_agreement"]["disagree"],
         charts.VERDICT_COLOURS["UNEXPECTED_PASS"]),
    ])

    env = template_env.environment(
        _TEMPLATES,
        autoescape=True, trim_blocks=True, lstrip_blocks=True,
        undefined=jinja2.StrictUndefined)
    env.filters["num"] = lambda n: "{:,}".format(n)
    env.filters["short"] = short_hex
    env.filters["waiver"] = _waiver_text
    env.tests["failing"] = counts_against
    return env.get_template("report.html.j2").render(
        r=report, m=model, csp=csp,
        css=markupsafe.Markup(_read("report.css")),
        recorder=markupsafe.Markup(recorder), page_js=markupsafe.Markup(page_js),
        chart={"width": width, "height": height, "bars": bars,
               "label_width": charts.LABEL_WIDTH, "bar_height": charts.BAR_HEIGHT},
        agreement=agreement, colours=charts.VERDICT_COLOURS,
        detailed=detailed, failing_cases=len(groups),
        rest=rest[:LISTED_ENTRIES], rest_left=max(len(rest) - LISTED_ENTRIES, 0),
        skipped=model.skipped[:SKIPPED_ENTRIES],
        skipped_left=max(len(model.skipped) - SKIPPED_ENTRIES, 0),
        disagreeing=model.disagreeing[:DISAGREEING],
        disagreeing_left=max(len(model.disagreeing) - DISAGREEING, 0),
        gate_shown=GATE_SHOWN, was_of=was_of)

