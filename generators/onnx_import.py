"""Import ONNX's ten backend Reshape cases as onnx_reshape_14 cases.

Reads /usr/share/libonnx-testdata/data/node/test_reshape_*/ (Debian's
libonnx-testdata): model.onnx for the node's allowzero attribute (default
0) and test_data_set_0/{input_0,input_1,output_0}.pb for the data, the
shape and the expected output, with Debian's python3-onnx.  The data goes
in as {hex: ...} from raw_data (little-endian, as ONNX stores it); the
expected shape is output_0's dims, taken from ONNX, not from model.py.
The import fails when an output's bytes differ from its input's (a
reshape never changes bytes) or when model.py accepts a different outcome
than ONNX's (two independent readings must agree).  Ids are
onnx_backend_<directory name without test_>.
"""

import glob
import os

import casebuild
import model
import sentences

BACKEND_DIR = "/usr/share/libonnx-testdata/data/node"
ONNX_FLOAT = 1  # TensorProto.FLOAT
ONNX_INT64 = 7  # TensorProto.INT64


def _load_onnx():
    try:
        import onnx
        from onnx import numpy_helper
    except ImportError as error:
        raise SystemExit("cannot import 'onnx' (%s): install Debian's python3-onnx "
                         "with 'make deps'" % error)
    return onnx, numpy_helper


def import_case(folder, onnx, numpy_helper):
    """One backend test folder as a case dict."""
    name = os.path.basename(folder)
    graph = onnx.load(os.path.join(folder, "model.onnx")).graph
    node, = [n for n in graph.node if n.op_type == "Reshape"]
    attributes = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
    allowzero = attributes.get("allowzero", 0)
    data, shape, output = (
        onnx.load_tensor(os.path.join(folder, "test_data_set_0", f + ".pb"))
        for f in ("input_0", "input_1", "output_0"))
    if data.data_type != ONNX_FLOAT or shape.data_type != ONNX_INT64:
        raise ValueError("'%s' is not float32 data with an int64 shape" % name)
    if output.raw_data != data.raw_data:
        raise ValueError("output bytes of '%s' differ from its input bytes" % name)
    dims, out_dims = list(data.dims), list(output.dims)
    values = [int(v) for v in numpy_helper.to_array(shape).tolist()]
    case = casebuild.make_case(
        "onnx_backend_" + name[len("test_"):], "onnx_reshape_14", dims, values,
        not allowzero, shape_dims=None if list(shape.dims) == [len(values)] else list(shape.dims),
        data={"hex": data.raw_data.hex()} if data.raw_data else None,
        cite=("%s, Backend cases" % sentences.ONNX,
              sentences.sentence(sentences.ONNX, "backend")[1]),
        tags=["onnx_backend"], expect={"shape": out_dims})
    outcomes, _ = model.case_outcomes(case)
    if outcomes != [("shape", tuple(out_dims))]:
        raise ValueError("model.py disagrees with ONNX on '%s': %s, ONNX %s"
                         % (name, outcomes, out_dims))
    return case


def cases(backend_dir=BACKEND_DIR):
    """Every test_reshape_* folder under `backend_dir`, in name order."""
    folders = sorted(glob.glob(os.path.join(backend_dir, "test_reshape_*")))
    if not folders:
        raise SystemExit("no ONNX backend Reshape cases under '%s': install Debian's "
                         "libonnx-testdata with 'make deps'" % backend_dir)
    onnx, numpy_helper = _load_onnx()
    return [import_case(folder, onnx, numpy_helper) for folder in folders]
