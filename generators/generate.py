"""Write cases/generated/*.yaml and cases/COVERAGE.md (`make generate`).

usage: generate.py [--out DIR] [--specs DIR]

Runs every family (FAMILIES below), refuses a repeated id or a malformed
case, checks every quote against its spec file and that every sentence of
sentences.py has a case, and only then writes DIR/generated/<file>.yaml
(any other *.yaml there is removed) and DIR/COVERAGE.md.  DIR defaults to
cases/; the hand-written cases are always read from cases/*.yaml.  The
output is byte for byte the same on every run.  Exit 0 on success, 1 when
a check fails (nothing is written then).
"""

import argparse
import glob
import os
import sys

import caseio
import contract
import coverage
import dtypes
import errorif
import extremes
import layouts
import onnx_import
import shape_types
import sweep
import wraps

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (file under generated/, script named in its header, what it holds, builder);
# a builder takes the hand-written cases and returns its own.
FAMILIES = (
    ("sweep.yaml", "sweep.py", sweep.__doc__ + "\n" + sweep.SAMPLING,
     lambda hand: sweep.cases()),
    ("errorif.yaml", "errorif.py", errorif.__doc__,
     lambda hand: errorif.errorif_cases()),
    ("mutation.yaml", "errorif.py", errorif.__doc__,
     errorif.mutation_cases),
    ("dtypes.yaml", "dtypes.py", dtypes.__doc__, lambda hand: dtypes.cases()),
    ("extremes.yaml", "extremes.py", extremes.__doc__, lambda hand: extremes.cases()),
    ("shape_types.yaml", "shape_types.py", shape_types.__doc__,
     lambda hand: shape_types.cases()),
    ("onnx_backend.yaml", "onnx_import.py", onnx_import.__doc__,
     lambda hand: onnx_import.cases()),
    ("contract.yaml", "contract.py", contract.__doc__, lambda hand: contract.cases()),
    ("wraps.yaml", "wraps.py", wraps.__doc__, lambda hand: wraps.cases()),
    ("layouts.yaml", "layouts.py", layouts.__doc__, lambda hand: layouts.cases()),
)


def _fill(text, width=78):
    """Wrap the paragraphs of `text` for a header comment; keep short lines."""
    lines = []
    for line in text.strip().splitlines():
        while len(line) > width:
            cut = line.rfind(" ", 0, width)
            cut = cut if cut > 0 else width
            lines.append(line[:cut])
            line = line[cut:].lstrip()
        lines.append(line)
    return "\n".join(lines)


def build(specs):
    """(hand-written files, {file: (text, cases)}, COVERAGE.md text, problems)."""
    hand = [(os.path.relpath(path, ROOT), caseio.load(path))
            for path in sorted(glob.glob(os.path.join(ROOT, "cases", "*.yaml")))]
    hand_cases = [case for _path, cases in hand for case in cases]
    registry = caseio.Registry()
    for case in hand_cases:
        if case["id"] in registry.ids:
            raise ValueError("duplicate hand-written case id '%s'" % case["id"])
        registry.ids.add(case["id"])
    outputs, generated = {}, []
    for name, script, description, builder in FAMILIES:
        cases = builder(hand_cases)
        for case in cases:
            registry.add(case)
        outputs[name] = (caseio.render(script, _fill(description), cases), cases)
        generated.append(("cases/generated/" + name, cases))
    all_cases = hand_cases + [c for _p, cases in generated for c in cases]
    problems = coverage.check(all_cases, coverage.SpecTexts(specs))
    sweep_cases = outputs["sweep.yaml"][1]
    sampling = sweep.SAMPLING + "\n\nSweep cases per reference outcome:\n\n" + \
        sweep.outcome_table(sweep_cases)
    text = coverage.render(hand + generated, sampling)
    return outputs, text, problems


def write(out, outputs, coverage_text):
    """Replace DIR/generated/*.yaml and DIR/COVERAGE.md."""
    folder = os.path.join(out, "generated")
    os.makedirs(folder, exist_ok=True)
    for stale in glob.glob(os.path.join(folder, "*.yaml")):
        if os.path.basename(stale) not in outputs:
            os.remove(stale)
    for name, (text, _cases) in outputs.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    with open(os.path.join(out, "COVERAGE.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write(coverage_text)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "cases"))
    parser.add_argument("--specs", default=os.path.join(ROOT, "specs"))
    args = parser.parse_args(argv)
    try:
        outputs, coverage_text, problems = build(args.specs)
    except ValueError as error:
        print("generate: %s" % error, file=sys.stderr)
        return 1
    for where, message in problems:
        print("generate: %s (%s)" % (message, where), file=sys.stderr)
    if problems:
        return 1
    write(args.out, outputs, coverage_text)
    for name, (_text, cases) in outputs.items():
        print("generate: %5d cases in generated/%s" % (len(cases), name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
