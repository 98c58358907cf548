#!/usr/bin/python3
"""render.py - writes the Markdown and HTML views of a reshape-conform JSON report.

usage: /usr/bin/python3 reports/render.py REPORT.json [--out DIR] [--source-root DIR]...

  REPORT.json        the report of reports/SCHEMA.md (schema version 1)
  --out DIR          where report.md and report.html go (default: beside REPORT.json)
  --source-root DIR  a folder to find the case files the report names in, for
                     the YAML shown with failing cases; may be repeated.  The
                     current folder and this repository are always tried after.

Exit status:
  0  both files written
  2  bad usage, or REPORT.json unreadable, not JSON, or not following the schema
     (the message names the first missing or wrong field)
  3  an output file could not be written

Depends on Debian's python3-jinja2 and python3-yaml, and the modules beside it.
"""

import argparse
import json
import os
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__

import render_html  # noqa: E402
import render_md  # noqa: E402
from atomic_file import write_atomic  # noqa: E402
from report_schema import ReportInvalid, check  # noqa: E402

EXIT_OK, EXIT_INVALID, EXIT_WRITE = 0, 2, 3
PROG = "render"
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write("%s: %s\n" % (PROG, message))
        sys.exit(EXIT_INVALID)


def _fail(code, message):
    sys.stderr.write("%s: %s\n" % (PROG, message))
    sys.exit(code)


def load(path):
    """Reads and checks the report at `path`; on any problem prints one line
    (what went wrong, then where) and exits with EXIT_INVALID."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        _fail(EXIT_INVALID, 'cannot read "%s": %s' % (path, e.strerror or e))
    except UnicodeDecodeError as e:
        _fail(EXIT_INVALID, "report is not UTF-8 (byte %d) in %s" % (e.start, path))
    try:
        report = json.loads(text)
    except json.JSONDecodeError as e:
        _fail(EXIT_INVALID, "invalid JSON, %s at %s:%d:%d"
              % (e.msg[:1].lower() + e.msg[1:], path, e.lineno, e.colno))
    try:
        check(report)
    except ReportInvalid as e:
        _fail(EXIT_INVALID, "%s in %s" % (e, path))
    return report


def write(path, text):
    """Writes `text` to `path` atomically (temporary file, fsync, rename): a
    reader never sees a part of it; exits with EXIT_WRITE on failure."""
    try:
        write_atomic(path, text)
    except OSError as e:
        _fail(EXIT_WRITE, 'cannot write "%s": %s' % (path, e.strerror or e))


def main(argv):
    parser = _Parser(prog=PROG, description="Write report.md and report.html "
                     "from a reshape-conform JSON report.")
    parser.add_argument("report", help="the JSON report (reports/SCHEMA.md)")
    parser.add_argument("--out", help="output folder (default: the report's folder)")
    parser.add_argument("--source-root", action="append", default=[],
                        help="folder to find case files in (repeatable)")
    args = parser.parse_args(argv)

    report = load(args.report)
    out = args.out or os.path.dirname(os.path.abspath(args.report))
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        _fail(EXIT_WRITE, 'cannot create "%s": %s' % (out, e.strerror or e))

    roots = args.source_root + [os.getcwd(), REPO]
    write(os.path.join(out, "report.md"), render_md.render(report))
    write(os.path.join(out, "report.html"), render_html.render(report, roots))
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
