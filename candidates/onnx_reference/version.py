"""Writes onnx_ref_version.h for one build of candidates/onnx_reference:
the versions of the wheels Debian's Python imports from SITE, and the
opsets the build's models import (glue.py decides them).

Usage: version.py SITE MODE GLUE OUT   (MODE: 14 or latest)
"""
import platform
import sys

# The most of a name or version a report quotes (harness/worker/candidate_load.c,
# CANDIDATE_WORDS): longer ones are cut.
WORDS = 64


def main(site, mode, glue_path, out_path):
    sys.path = [p for p in sys.path if "-packages" not in p] + [site]
    glue = {}
    with open(glue_path) as f:
        exec(compile(f.read(), glue_path, "exec"), glue)  # pylint: disable=exec-used
    onnx_v, numpy_v, protobuf_v, ml_dtypes_v = glue["versions"]().split()
    opsets = {}
    for dname in glue["ELEMENT"]:
        opset = glue["opset_for"](mode, dname)
        opsets.setdefault(opset, []).append(dname)
    first = min(opsets)
    if mode == "latest":
        name = "ONNX ReferenceEvaluator, opset %d" % first
    else:
        kinds = {("f8e4m3", "f8e5m2"): "8-bit floats", ("s4", "u4"): "s4 u4"}
        name = "ONNX ReferenceEvaluator, opset %d (%s)" % (first, ", ".join(
            "%d: %s" % (o, kinds.get(tuple(opsets[o]), " ".join(opsets[o])))
            for o in sorted(opsets) if o != first))
    text = ("%s; numpy %s, protobuf %s, ml_dtypes %s, Py %s"
            % (onnx_v, numpy_v, protobuf_v, ml_dtypes_v, platform.python_version()))
    for what, value in (("name", name), ("version", text)):
        if len(value) > WORDS:
            sys.exit("version.py: the %s '%s' is longer than the %d characters a report "
                     "quotes" % (what, value, WORDS))
    with open(out_path, "w") as f:
        f.write("/* written by candidates/onnx_reference/version.py */\n")
        f.write('#define ONNX_REF_VERSION "%s"\n' % onnx_v)
        f.write('#define ONNX_REF_VERSIONS "%s"\n' % glue["versions"]())
        f.write('#define ONNX_REF_NAME "%s"\n' % name)
        f.write('#define ONNX_REF_VERSION_TEXT "%s"\n' % text)
        f.write('#define ONNX_REF_MODE "%s"\n' % mode)


if __name__ == "__main__":
    if len(sys.argv) != 5 or sys.argv[2] not in ("14", "latest"):
        sys.exit(__doc__)
    main(*sys.argv[1:])
