"""render_md - the Markdown summary of a report, sized for a pull-request comment.

Depends on jinja2 (Debian's python3-jinja2), report_model and the template
templates/report.md.j2.  Every value taken from the report passes through the
`cell` filter, so a case detail cannot break the table or inject markup.
"""

import os
import re

import jinja2

import template_env
from gate_model import SHOWN as GATE_SHOWN, was_of
from report_model import Model, counts_against

# How many failing or waived entries the summary lists before "and N more".
LISTED = 20
# How many findings (and skip reasons) the summary lists before "and N more".
LISTED_FINDINGS = 20
# Longest detail shown in a table cell, in characters.
DETAIL_WIDTH = 160

_TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")

# Characters with a meaning inside a GitHub-flavoured Markdown table cell.
# "(" and "!" need no escape because "[" has one; "_" is handled apart.
_SPECIAL = {c: "\\" + c for c in "\\`*[]|~"}
_SPECIAL.update({"<": "&lt;", ">": "&gt;", "&": "&amp;"})


def cell(value, width=None):
    """Renders `value` as plain text inside one Markdown table cell: newlines
    become spaces, Markdown and HTML characters are escaped, and the text is
    cut at `width` characters with an ellipsis.  An "_" between two letters
    or digits is left alone (GitHub never reads it as emphasis), so names
    like strided_dst stay readable in the raw text."""
    text = " ".join(str(value).split())
    if width is not None and len(text) > width:
        text = text[:width - 1] + "\u2026"
    out = []
    for i, c in enumerate(text):
        if c == "_":
            inner = 0 < i < len(text) - 1 and text[i - 1].isalnum() and text[i + 1].isalnum()
            out.append(c if inner else "\\_")
        else:
            out.append(_SPECIAL.get(c, c))
    return "".join(out)


def code(value, width=None):
    """Renders `value` as inline code that is safe inside a table cell:
    newlines become spaces, the text is cut at `width` characters with an
    ellipsis, "|" is escaped (GitHub splits table cells on "|" even inside
    code), and the fence is one backtick longer than any run of backticks
    inside, so nothing ends the span early.  Inside code, "<" and "*" are
    literal text; nothing else needs escaping.  An empty value gives ""."""
    text = " ".join(str(value).split())
    if width is not None and len(text) > width:
        text = text[:width - 1] + "\u2026"
    if not text:
        return ""
    text = text.replace("|", "\\|")
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * (longest + 1)
    if longest:
        text = " %s " % text
    return fence + text + fence


def _environment():
    env = template_env.environment(
        _TEMPLATES,
        autoescape=False, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
    env.filters["cell"] = cell
    env.filters["code"] = code
    env.filters["num"] = lambda n: "{:,}".format(n)
    return env


def render(report, html_name="report.html"):
    """Returns the Markdown text for `report` (already checked against the
    schema).  `html_name` is the file the text points readers to for the
    rest."""
    model = Model(report)
    template = _environment().get_template("report.md.j2")
    return template.render(
        r=report, m=model, listed=model.not_passing[:LISTED],
        more=max(len(model.not_passing) - LISTED, 0),
        listed_findings=LISTED_FINDINGS, detail_width=DETAIL_WIDTH, html_name=html_name,
        counts_against=counts_against, gate_shown=GATE_SHOWN, was_of=was_of)
