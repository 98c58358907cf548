"""Writes onnx_ref_version.h for one build of candidates/onnx_reference:
the versions of the wheels Debian's Python imports from SITE, and the
opsets the build's models import (glue.py decides them).

Usage: version.py SITE MODE GLUE OUT   (MODE: 14 or latest)
"""
import platform
import sys


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
        which = "opset %d" % first
    else:
        which = "opset %d" % first + "".join(
            ", %d for %s" % (o, " ".join(opsets[o])) for o in sorted(opsets) if o != first)
    text = ("%s (%s; numpy %s, protobuf %s, ml_dtypes %s, Python %s)"
            % (onnx_v, which, numpy_v, protobuf_v, ml_dtypes_v, platform.python_version()))
    with open(out_path, "w") as f:
        f.write("/* written by candidates/onnx_reference/version.py */\n")
        f.write('#define ONNX_REF_VERSION "%s"\n' % onnx_v)
        f.write('#define ONNX_REF_VERSIONS "%s"\n' % glue["versions"]())
        f.write('#define ONNX_REF_VERSION_TEXT "%s"\n' % text)
        f.write('#define ONNX_REF_MODE "%s"\n' % mode)


if __name__ == "__main__":
    if len(sys.argv) != 5 or sys.argv[2] not in ("14", "latest"):
        sys.exit(__doc__)
    main(*sys.argv[1:])
