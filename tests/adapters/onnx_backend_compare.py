"""Checks that cases/generated/onnx_backend.yaml holds every Reshape case
that the onnx wheel's own backend generator makes, with the same input
dims, shape values, allowzero and output dims.

The onnx 1.23.2 wheel ships no backend test data for nodes (no
onnx/backend/test/data/node/), only the generator,
onnx/backend/test/case/node/reshape.py; our cases are imported from
Debian's libonnx-testdata 1.12.0 (generators/onnx_import.py).  This runs
the wheel's generator with its expect() replaced by a recorder and
compares.  The data values are random in the generator (so they are not
compared); a reshape never changes them.

Usage: PYTHONPATH=<the wheel's site-packages> python3 onnx_backend_compare.py CASES_YAML
Exit status: 0 every case is there and agrees, 1 not (each difference
printed), 77 the wheel cannot be imported.
"""
import os
import sys

import yaml


def wheel_cases():
    """{id: (input dims, shape values, allowzero, output dims)} from the
    wheel's generator, and the onnx version."""
    try:
        import onnx
        from onnx.backend.test.case.node import reshape
    except ImportError as error:
        print("skip: cannot import the onnx wheel's backend generator: %s" % error)
        sys.exit(77)
    data_dir = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "node")
    print("onnx %s; %s %s" % (onnx.__version__, data_dir,
                              "exists" if os.path.isdir(data_dir) else "is absent"))
    got = {}

    def expect(node, inputs, outputs, name, **_):
        attrs = {a.name: a.i for a in node.attribute}
        got["onnx_backend_" + name[len("test_"):]] = (
            list(inputs[0].shape), [int(v) for v in inputs[1].tolist()],
            int(attrs.get("allowzero", 0)), list(outputs[0].shape))

    reshape.expect = expect
    for name in sorted(dir(reshape.Reshape)):
        if name.startswith("export"):
            getattr(reshape.Reshape, name)()
    return got


def main(cases_path):
    theirs = wheel_cases()
    with open(cases_path) as f:
        ours = {c["id"]: (c["input"]["dims"], c["shape"]["values"], int(not c["special_zero"]),
                          c["expect"]["shape"]) for c in yaml.safe_load(f)["cases"]}
    bad = 0
    for case_id, want in sorted(theirs.items()):
        if case_id not in ours:
            print("missing: %s %s" % (case_id, want))
            bad += 1
        elif ours[case_id] != want:
            print("differs: %s: ours %s, the wheel's %s" % (case_id, ours[case_id], want))
            bad += 1
    print("%d cases in the wheel's generator, %d in %s, %d differences"
          % (len(theirs), len(ours), cases_path, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
