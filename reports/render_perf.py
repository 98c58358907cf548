#!/usr/bin/python3
"""render_perf.py - writes the Markdown and HTML views of a performance profile.

usage: /usr/bin/python3 reports/render_perf.py PERF.json [--out DIR]

  PERF.json   the profile of `reshape-conform perf` (reports/SCHEMA.md,
              "Performance profile")
  --out DIR   where perf.md and perf.html go (default: beside PERF.json)

Exit status: 0 both written; 2 bad usage, or PERF.json unreadable or not a
profile; 3 an output file could not be written.

Depends on Debian's python3-jinja2 and the modules beside it.
"""

import argparse
import json
import os
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__

import jinja2  # noqa: E402

import perf_chart  # noqa: E402
from atomic_file import write_atomic  # noqa: E402
import perf_model  # noqa: E402
import template_env  # noqa: E402

PROG = "render_perf"
_TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")


def _fail(code, message):
    sys.stderr.write("%s: %s\n" % (PROG, message))
    sys.exit(code)


def load(path):
    """The profile at `path`; exits 2 with one line when it is not one."""
    try:
        with open(path, encoding="utf-8") as f:
            profile = json.load(f)
    except (OSError, ValueError) as e:
        _fail(2, 'cannot read profile "%s": %s' % (path, e))
    if not isinstance(profile, dict) or profile.get("schema") != "reshape-conform-perf/1":
        _fail(2, 'not a reshape-conform-perf/1 profile: "%s"' % path)
    for key in ("candidate", "config", "points", "fixed", "host"):
        if key not in profile:
            _fail(2, 'profile has no "%s" in %s' % (key, path))
    return profile


def render(profile, template):
    env = template_env.environment(_TEMPLATES,
                                   autoescape=template.endswith(".html.j2"),
                                   trim_blocks=True, lstrip_blocks=True,
                                   undefined=jinja2.StrictUndefined)
    sizes = perf_model.sizes(profile)
    tables = {op: perf_model.ratio_table(profile, op) for op in perf_model.ops(profile)}
    charts = {op: [(layout, perf_chart.chart(perf_model.series(profile, op, layout),
                                             perf_model.size_text))
                   for layout in perf_model.BANDWIDTH_LAYOUTS]
              for op in perf_model.ops(profile)}
    return env.get_template(template).render(
        p=profile, sizes=[perf_model.size_text(n) for n in sizes], tables=tables,
        charts=charts, headline=perf_model.headline(profile), base=perf_model.baseline(profile),
        summary=perf_model.summary_lines(profile))


def main(argv):
    parser = argparse.ArgumentParser(prog=PROG)
    parser.add_argument("profile")
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    profile = load(args.profile)
    out = args.out or os.path.dirname(os.path.abspath(args.profile))
    for name, template in (("perf.md", "perf.md.j2"), ("perf.html", "perf.html.j2")):
        path = os.path.join(out, name)
        try:
            write_atomic(path, render(profile, template))
        except OSError as e:
            _fail(3, 'cannot write "%s": %s' % (path, e.strerror or e))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
