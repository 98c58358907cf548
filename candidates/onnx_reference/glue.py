"""The Python half of candidates/onnx_reference: one-node ONNX models run by
onnx.reference.ReferenceEvaluator, for onnx_reference.c.

onnx_reference.c compiles this file into the adapter (glue_py.h, written at
build time) and runs it in the embedded interpreter, whose module search
path is the standard library and the onnx wheel's folder only.  Every
function returns (status, value): status 0 (RESHAPE_OK) with the value, or a
status of include/reshape_candidate.h with the message that says why.

The model, per (opset mode, allowzero, data dtype, data rank, shape dtype,
shape dims): Reshape(data, shape) -> reshaped, built with onnx.helper, the
data's dims unknown, the shape an input of the case's own dtype and dims.
It is checked with onnx.checker.check_model(full_check=True), whose strict
shape inference refuses a data or shape type that Reshape's schema does not
list and a shape input that is not 1-D; then handed to ReferenceEvaluator.
Each model, or the error that refused it, is kept.
"""
import math

import ml_dtypes
import numpy as np
import onnx
from onnx import checker, defs, helper
from onnx.reference import ReferenceEvaluator

# include/reshape_candidate.h's statuses.
OK = 0
MULTIPLE_MINUS_ONE = 1
ZERO_OUT_OF_RANGE = 3
ZERO_AND_MINUS_ONE = 4
NOT_DIVISIBLE = 5
VOLUME_MISMATCH = 6
SHAPE_NOT_1D = 7
DATA_TYPE = 8
SHAPE_TYPE = 9
OVERFLOW = 10
NOT_SUPPORTED = 100
INTERNAL = 102

# ABI dtype name -> ONNX TensorProto element type.  ONNX has no 1-bit type
# (u1); f8e4m3 is OpenVINO's, finite with no infinity: ONNX's FLOAT8E4M3FN.
P = onnx.TensorProto
ELEMENT = {
    "f64": P.DOUBLE, "f32": P.FLOAT, "f16": P.FLOAT16, "bf16": P.BFLOAT16,
    "f8e4m3": P.FLOAT8E4M3FN, "f8e5m2": P.FLOAT8E5M2,
    "s64": P.INT64, "s32": P.INT32, "s16": P.INT16, "s8": P.INT8,
    "u64": P.UINT64, "u32": P.UINT32, "u16": P.UINT16, "u8": P.UINT8,
    "s4": P.INT4, "u4": P.UINT4, "boolean": P.BOOL,
}
SUB_BYTE = ("s4", "u4")

LATEST = defs.onnx_opset_version()


def _reshape_versions():
    """Every since_version of Reshape with the types its T lists."""
    out = []
    for schema in defs.get_all_schemas_with_history():
        if schema.name == "Reshape" and schema.domain == "":
            types = [c for c in schema.type_constraints if c.type_param_str == "T"][0]
            out.append((schema.since_version, set(types.allowed_type_strs)))
    return sorted(out)


VERSIONS = _reshape_versions()


def opset_for(mode, dname):
    """The opset a model of `dname` data imports: mode "14", the first
    opset from 14 on whose Reshape lists the type (14, 19 for the 8-bit
    floats, 21 for s4 and u4), or 14 where none does (the checker then
    refuses the type); mode "latest", onnx.defs.onnx_opset_version()."""
    if mode == "latest":
        return LATEST
    name = "tensor(%s)" % helper.tensor_dtype_to_string(ELEMENT[dname])[len("TensorProto."):].lower()
    for version, types in VERSIONS:
        if version >= 14 and name in types:
            return version
    return 14


def versions():
    """The versions the adapter reports: onnx, numpy, protobuf, ml_dtypes."""
    import google.protobuf
    return "%s %s %s %s" % (onnx.__version__, np.__version__, google.protobuf.__version__,
                            ml_dtypes.__version__)


_models = {}


def _model(mode, allowzero, dname, drank, sname, sdims):
    """(OK, evaluator) or (status, message) for the model of this key."""
    key = (mode, allowzero, dname, drank, sname, sdims)
    if key in _models:
        return _models[key]
    opset = opset_for(mode, dname)
    orank = sdims[0] if len(sdims) == 1 else 0
    graph = helper.make_graph(
        [helper.make_node("Reshape", ["data", "shape"], ["reshaped"], allowzero=allowzero)],
        "reshape",
        [helper.make_tensor_value_info("data", ELEMENT[dname], [None] * drank),
         helper.make_tensor_value_info("shape", ELEMENT[sname], [None] * len(sdims))],
        [helper.make_tensor_value_info("reshaped", ELEMENT[dname], [None] * orank)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    try:
        checker.check_model(model, full_check=True)
        result = (OK, ReferenceEvaluator(model))
    except Exception as error:  # the checker's ValidationError, InferenceError
        text = str(error).strip()
        status = INTERNAL
        if "shape typestr" in text:
            status = SHAPE_TYPE
        elif "data typestr" in text:
            status = DATA_TYPE
        elif "shape input must be 1D" in text:
            status = SHAPE_NOT_1D
        result = (status, "onnx.checker.check_model refused the opset %d model: %s (%s)"
                  % (opset, text, type(error).__name__))
    _models[key] = result
    return result


def _volume_status(data, shape, allowzero):
    """numpy's "cannot reshape array of size N into shape ...": which rule
    failed, from the shape ONNX handed numpy (a copying 0 replaced)."""
    values = [int(v) for v in shape.reshape(-1)]
    if not allowzero:
        values = [data.shape[i] if v == 0 and i < data.ndim else v
                  for i, v in enumerate(values)]
    unknown = [v for v in values if v < 0]
    if not unknown:
        return VOLUME_MISMATCH
    return ZERO_AND_MINUS_ONE if math.prod(v for v in values if v >= 0) == 0 else NOT_DIVISIBLE


# ReferenceEvaluator.run's exceptions (numpy's reshape within it): the text,
# the exception type, the status; the first match wins.
MESSAGES = [
    ("can only specify one unknown dimension", ValueError, MULTIPLE_MINUS_ONE),
    ("cannot reshape array of size", ValueError, None),  # _volume_status
    ("is out of bounds for axis 0", IndexError, ZERO_OUT_OF_RANGE),
    ("array is too big", ValueError, OVERFLOW),
    ("maximum supported dimension", ValueError, NOT_SUPPORTED),
]


def _run(mode, allowzero, dname, data, sname, shape):
    """(OK, the output array) or (status, message): the evaluator on `data`
    (of ABI dtype `dname`) and `shape`."""
    status, ev = _model(mode, allowzero, dname, data.ndim, sname, shape.shape)
    if status != OK:
        return status, ev
    try:
        out = ev.run(None, {"data": data, "shape": shape})[0]
    except Exception as error:
        text = str(error)
        status = INTERNAL
        for words, kind, st in MESSAGES:
            if words in text and isinstance(error, kind):
                status = st if st is not None else _volume_status(data, shape, allowzero)
                break
        return status, ("onnx.reference.ReferenceEvaluator.run refused the reshape "
                        "(opset %d): %s (%s)" % (opset_for(mode, dname), text,
                                                 type(error).__name__))
    return OK, out


# The numpy dtype of each: ml_dtypes' for the types numpy lacks, as the
# evaluator's own tensors hold them (onnx.reference takes them as they are).
NUMPY = {
    "f64": np.float64, "f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16,
    "f8e4m3": ml_dtypes.float8_e4m3fn, "f8e5m2": ml_dtypes.float8_e5m2,
    "s64": np.int64, "s32": np.int32, "s16": np.int16, "s8": np.int8,
    "u64": np.uint64, "u32": np.uint32, "u16": np.uint16, "u8": np.uint8,
    "s4": ml_dtypes.int4, "u4": ml_dtypes.uint4, "boolean": np.bool_,
}


def _dtype(dname):
    return np.dtype(NUMPY[dname])


INTP_MAX = np.iinfo(np.intp).max


class Unsupported(Exception):
    """What a numpy array over caller memory cannot describe: NOT_SUPPORTED."""


def _strided(buf, dtype, count, dims, strides, writeable):
    """`count` elements of `dtype` from `buf` (a memoryview; None: one zero
    element) seen with `dims` and `strides` in elements.  as_strided goes
    through __array_interface__, which cannot name ml_dtypes' 8-bit floats:
    it works on unsigned integers of the same size, viewed as `dtype`."""
    steps = [s * dtype.itemsize for s in strides]
    if any(step > INTP_MAX for step in steps):
        raise Unsupported("numpy strides are intp bytes: a stride of %s elements of %d bytes "
                          "does not fit" % (max(strides), dtype.itemsize))
    carrier = np.dtype("u%d" % dtype.itemsize)
    base = (np.zeros(1, dtype=carrier) if buf is None
            else np.frombuffer(buf, dtype=carrier, count=count))
    view = np.lib.stride_tricks.as_strided(base, shape=dims,
                                           strides=steps, writeable=writeable)
    return view.view(dtype)


def _unpack(buf, dname, count):
    """`count` packed 4-bit elements of `buf` (element 0 in the low nibble)
    as a numpy array of ml_dtypes' int4 or uint4, one byte each."""
    b = np.frombuffer(buf, dtype=np.uint8, count=(count + 1) // 2)
    nibbles = np.empty(2 * b.size, dtype=np.uint8)
    nibbles[0::2], nibbles[1::2] = b & 0x0F, b >> 4
    nibbles = nibbles[:count]
    if dname == "s4":
        signed = nibbles.astype(np.int8)
        signed[nibbles >= 8] -= 16
        return signed.view(_dtype(dname))
    return nibbles.view(_dtype(dname))


def _src(buf, dname, dims, strides):
    """The caller's src as a numpy array over its memory (strides in
    elements, None for dense); buf None for an empty tensor."""
    dtype, dims = _dtype(dname), tuple(dims)
    count = math.prod(dims)
    if count == 0:  # no memory: seen as infer() sees its data
        return _strided(None, dtype, 1, dims, [0] * len(dims), False)
    if dname in SUB_BYTE:
        return _unpack(buf, dname, count).reshape(dims)
    if strides is None:
        return np.frombuffer(buf, dtype=dtype, count=count).reshape(dims)
    extent = 1 + sum((d - 1) * s for d, s in zip(dims, strides))
    return _strided(buf, dtype, extent, dims, strides, False)


def _shape(buf, sname, sdims):
    dtype = _dtype(sname)
    count = math.prod(sdims)
    if count == 0:
        return np.empty(tuple(sdims), dtype=dtype)
    if sname in SUB_BYTE:
        return _unpack(buf, sname, count).reshape(tuple(sdims))
    return np.frombuffer(buf, dtype=dtype, count=count).reshape(tuple(sdims)).copy()


def infer(mode, allowzero, data, shape):
    """(OK, output dims) for data = (dtype name, dims), no data: one element
    seen through strides of 0, so that the reshape is a view; shape =
    (dtype name, memoryview or None, dims)."""
    dname, dims = data[0], tuple(data[1])
    sname, sbuf, sdims = shape
    dtype = _dtype(dname)
    try:
        data = _strided(None, dtype, 1, dims, [0] * len(dims), False)
    except ValueError as error:
        return NOT_SUPPORTED, "numpy cannot hold this tensor: %s" % error
    status, out = _run(mode, allowzero, dname, data, sname, _shape(sbuf, sname, tuple(sdims)))
    return (status, out) if status != OK else (OK, tuple(int(d) for d in out.shape))


def execute(mode, allowzero, src, shape):
    """(OK, (output dims, output array)) for the caller's src = (dtype name,
    memoryview or None, dims, strides or None), shape as infer's; store()
    writes the array."""
    dname, buf, dims, strides = src
    sname, sbuf, sdims = shape
    try:
        data = _src(buf, dname, dims, strides)
    except Unsupported as error:
        return NOT_SUPPORTED, str(error)
    except ValueError as error:  # as_strided's "array is too big"
        return NOT_SUPPORTED, "numpy cannot hold this tensor: %s" % error
    status, out = _run(mode, allowzero, dname, data, sname, _shape(sbuf, sname, tuple(sdims)))
    if status == OK and out.dtype != data.dtype:
        return INTERNAL, "the evaluator returned %s for %s data" % (out.dtype, data.dtype)
    return (status, out) if status != OK else (OK, (tuple(int(d) for d in out.shape), out))


def store(out, dname, buf, dims, strides, pad):
    """Writes `out` into the caller's dst (strides in elements, None for
    dense).  For s4/u4, `pad` is the high nibble of src's last byte when
    the count is odd: the padding a dense-to-dense reshape copies."""
    dims = tuple(dims)
    count = math.prod(dims)
    if count == 0:
        return OK, None
    if dname in SUB_BYTE:
        nibbles = np.ascontiguousarray(out).reshape(-1).view(np.uint8) & 0x0F
        if count % 2:
            nibbles = np.append(nibbles, np.uint8(pad))
        packed = nibbles[0::2] | (nibbles[1::2] << 4)
        np.frombuffer(buf, dtype=np.uint8, count=packed.size)[:] = packed
        return OK, None
    dtype = _dtype(dname)
    if strides is None:
        view = np.frombuffer(buf, dtype=dtype, count=count).reshape(dims)
    else:
        extent = 1 + sum((d - 1) * s for d, s in zip(dims, strides))
        try:
            view = _strided(buf, dtype, extent, dims, strides, True)
        except Unsupported as error:
            return NOT_SUPPORTED, str(error)
    np.copyto(view, out.reshape(dims), casting="no")
    return OK, None
