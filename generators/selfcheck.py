"""Check the hand-written cases against the Python model, and the model against them.

usage: selfcheck.py [--cases DIR] [--specs DIR]

For every case in DIR/*.yaml (default cases/; cases/generated/ is not read):
  - the case keeps cases/FORMAT.md's rules (caseio.problems);
  - its quote is found in the spec file its clause names;
  - the outcomes it accepts are exactly those model.py accepts;
  - an explicit expected payload equals the input payload.
Ids must be unique across the files.  One line per failing case, then
"selfcheck: N passed, M failed".  Exit 0 when none failed, 1 otherwise.
Depends on model.py, caseio.py, coverage.py and Debian's python3-yaml.
"""

import argparse
import glob
import os
import sys

import yaml

import caseio
import coverage
import model

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def load_with_lines(path):
    """[(case dict, line, column)] of a case file; positions start at 1."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    document = yaml.safe_load(text)
    items = []
    for key, value in node.value:
        if key.value == "cases":
            items = value.value
    marks = [(item.start_mark.line + 1, item.start_mark.column + 1) for item in items]
    return [(case, line, col) for case, (line, col)
            in zip(document.get("cases") or [], marks)]


def _outcome_set(expect):
    forms = expect["any_of"] if "any_of" in expect else [expect]
    return sorted(model.expect_to_outcome(form) for form in forms)


def _words(outcomes):
    return ", ".join("%s %s" % (kind, list(value) if kind == "shape" else value)
                     for kind, value in outcomes)


def case_problems(case, texts):
    """Why one hand-written case is wrong, as a list of messages."""
    found = caseio.problems(case, generated=False)
    if found:
        return found
    problem = texts.quote_problem(case["clause"], case["quote"])
    if problem:
        found.append(problem)
    outcomes, _ = model.case_outcomes(case)
    expected = _outcome_set(case["expect"])
    if expected != sorted(outcomes):
        found.append("model disagrees on '%s': the case accepts %s, the model %s"
                     % (case["id"], _words(expected), _words(sorted(outcomes))))
    data_out = case["expect"].get("data")
    if data_out is not None and data_out != case["input"].get("data"):
        found.append("expected payload of '%s' differs from its input payload"
                     % case["id"])
    return found


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default=os.path.join(ROOT, "cases"))
    parser.add_argument("--specs", default=os.path.join(ROOT, "specs"))
    args = parser.parse_args(argv)
    texts = coverage.SpecTexts(args.specs)
    seen, passed, failed = {}, 0, 0
    paths = sorted(glob.glob(os.path.join(args.cases, "*.yaml")))
    if not paths:
        print("selfcheck: no case files in '%s'" % args.cases, file=sys.stderr)
        return 1
    for path in paths:
        where_file = os.path.relpath(path, ROOT)
        for case, line, col in load_with_lines(path):
            where = "%s:%d:%d" % (where_file, line, col)
            found = case_problems(case, texts)
            if case.get("id") in seen:
                found.append("duplicate id '%s', first at %s" % (case["id"], seen[case["id"]]))
            seen.setdefault(case.get("id"), where)
            for message in found:
                print("%s %s" % (message, where))
            failed += bool(found)
            passed += not found
    print("selfcheck: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
