"""The shape_types family: every shape dtype on every operation (D7).

Allowed shape dtypes (model.SHAPE_TYPES: OpenVINO s64 s32 s16 s8 u64 u32
u16 u8; DynamicReshape s32; StaticReshape and ONNX s64) get plain, -1 (when
signed) and copying-zero reshapes, their largest value as a dim, and their
smallest value (BELOW_MINUS_ONE when signed).  Every other of the 18 ABI
dtypes is a SHAPE_TYPE case, with values the dtype can hold.  Ids are
shape_type_<op>_<dtype>_<what>.  Depends on model.py, casebuild.py and caseio.py.
"""

import casebuild
import caseio
import model


def _case(op, shape_dtype, what, dims, values, special_zero=False,
          rule="shape_type", **options):
    return casebuild.make_case(
        "shape_type_%s_%s_%s" % (casebuild.OP_WORDS[op], shape_dtype, what), op, dims,
        values, special_zero, shape_dtype=shape_dtype, tags=["shape_type"],
        rule=rule, **options)


def allowed_cases(op, shape_dtype):
    """Cases of one shape dtype `op` allows."""
    low, high = model.INTEGER_RANGES[shape_dtype]
    out = [_case(op, shape_dtype, "reorder", [2, 3, 4], [4, 6]),
           _case(op, shape_dtype, "copying_zero", [2, 3, 4], [0, 12], True),
           _case(op, shape_dtype, "literal_zero_on_empty_input", [0, 4], [4, 0])]
    if low < 0:
        out.append(_case(op, shape_dtype, "minus_one", [2, 3, 4], [-1, 4]))
        out.append(_case(op, shape_dtype, "min_value", [2, 3], [low, 6],
                         rule="below_minus_one"))
    # the largest value as a dim, in the smallest elements the op allows; u64's
    # is above any dim (OVERFLOW, D4)
    dtype = "u1" if "u1" in model.DATA_TYPES[op] else "f16"
    dims = [min(high, model.INT64_MAX)]
    out.append(_case(op, shape_dtype, "max_value", dims, [high], dtype=dtype,
                     rule=None if high > model.INT64_MAX else "shape_type",
                     infer_only=model.payload_bytes(dtype, dims) > caseio.MAX_PAYLOAD))
    return out


def forbidden_case(op, shape_dtype):
    """A SHAPE_TYPE case whose values `shape_dtype` can hold."""
    if caseio.value_range(shape_dtype)[1] >= 3:
        return _case(op, shape_dtype, "is_error", [2, 3], [3, 2])
    return _case(op, shape_dtype, "is_error", [1, 1], [1, 1])


def cases():
    """Every (operation, shape dtype) pair, both in the ABI's order."""
    out = []
    for op in model.OPS:
        for shape_dtype in model.DTYPES:
            if shape_dtype in model.SHAPE_TYPES[op]:
                out += allowed_cases(op, shape_dtype)
            else:
                out.append(forbidden_case(op, shape_dtype))
    return out
