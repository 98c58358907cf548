"""The contract family: calls that break (or stretch) the ABI's own rules.

Each case is a well-formed reshape with one deviation, its `abuse`
(cases/FORMAT.md, "Contract cases"), made by the worker on the call itself:
a NULL params, src, dst, shape, out_rank or out_dims; special_zero 2; an
op or dtype outside the enums; a rank of 33 or -1; NULL or negative dims;
negative strides; a stride that puts the last element past bit 2^63; a
shape tensor with strides, NULL data or dims whose product wraps int64; a
dst of another dtype; in-place with strides; dense dims of 2^59 elements,
or of 2^63 - 1, over a small buffer; a stride whose product with a dim
wraps int64 to a small offset.  The base reshape keeps the
input's dims ([2, 3] into [2, 3]), so that a dst with the input's dims is
the right one and only the abuse can make a call fail.  Every one of them
is INVALID_ARGUMENT (include/reshape_candidate.h, reference/DECISIONS.md
D11), except the forms the ABI allows, which expect the base's outcome:
NULL dims at rank 0, NULL shape data with no values, NULL src or dst data
at volume 0, a zero stride (on src's dim of 4 a broadcast, D12), a huge
stride on a dim of 1, strides given for a scalar; a zero stride on dst's
dim of 4 overlaps its elements and is INVALID_ARGUMENT.  Each case quotes
the header's sentence it checks.  For every operation; ids are
contract_<op>_<abuse>[_<form>].  Depends on model.py and casebuild.py.
"""

import casebuild
import model

HEADER = "include/reshape_candidate.h"
MISUSE = (HEADER + ", reshape_status, RESHAPE_E_INVALID_ARGUMENT",
          "Caller misuse: a NULL pointer, a rank outside 0..RESHAPE_MAX_RANK, a negative dim "
          "or stride, an unknown enum value, dst dims or dtype that do not match what the "
          "candidate infers, in-place with strides.")
RANK = (HEADER + ", RESHAPE_MAX_RANK", "Larger ranks are RESHAPE_E_INVALID_ARGUMENT.")
DIMS = (HEADER + ", reshape_tensor, dims", "rank entries, each >= 0 (NULL allowed when rank is 0).")
DATA = (HEADER + ", reshape_tensor, data",
        "May be NULL only when the volume is 0, and in infer_shape, which reads dims alone.")
BITS = (HEADER + ", reshape_tensor",
        "execute refuses a tensor whose last element ends beyond that with "
        "RESHAPE_E_INVALID_ARGUMENT")
PARAMS = (HEADER + ", reshape_params",
          "Every other value (a NULL params or shape, special_zero outside 0..1, an op outside "
          "the enum) is RESHAPE_E_INVALID_ARGUMENT, from infer_shape and execute alike.")
SHAPE = (HEADER + ", reshape_params, shape",
         "Its strides must be NULL and it holds at most RESHAPE_MAX_RANK values; its data may "
         "be NULL only when it holds no values.")
INFER = (HEADER + ", infer_shape",
         "NULL params, src, out_rank or out_dims, and any src or shape the tensor and params "
         "rules above refuse, are RESHAPE_E_INVALID_ARGUMENT.")
DST = (HEADER + ", execute",
       "dst->dtype must equal src->dtype and dst->dims must equal the inferred dims, else "
       "RESHAPE_E_INVALID_ARGUMENT and nothing is written")
EXECUTE = (HEADER + ", execute",
           "A NULL dst, src->data or dst->data with a volume above 0, or a dst the tensor rules "
           "refuse, is RESHAPE_E_INVALID_ARGUMENT")
IN_PLACE = (HEADER + ", execute",
            "in-place with strides on either side is RESHAPE_E_INVALID_ARGUMENT.")

STRIDES = (HEADER + ", reshape_tensor, strides",
           "rank entries in elements, each >= 0, or NULL for dense row-major")
# The layout rules (D12), as the header states them.
BROADCAST = (HEADER + ", reshape_tensor, Layouts",
             "Each element is read from its own offset, so the values repeat.")
SIZE1 = (HEADER + ", reshape_tensor, Layouts",
         "Its index is always 0, so its stride never moves the address and does not count "
         "toward the tensor's extent.")
OVERLAP = (HEADER + ", reshape_tensor, Layouts",
           "a dst two of whose elements have the same offset has no defined result; execute "
           "refuses it with RESHAPE_E_INVALID_ARGUMENT and writes nothing.")

# (abuse, the sentence it checks, infer_only); every one on the base
# reshape [2, 3] -> [2, 3] (or the dims of ODD_DIMS), INVALID_ARGUMENT.
REFUSED = (
    ("params_null", PARAMS, False), ("src_null", INFER, False), ("dst_null", EXECUTE, False),
    ("shape_null", PARAMS, False), ("out_rank_null", INFER, True),
    ("out_dims_null", INFER, True), ("special_zero_2", PARAMS, False),
    ("op_unknown", PARAMS, False), ("src_dtype_unknown", MISUSE, False),
    ("src_rank_above_max", RANK, False), ("src_rank_negative", MISUSE, False),
    ("src_dims_null", DIMS, False), ("src_dim_negative", DIMS, False),
    ("src_data_null", DATA, False), ("src_stride_negative", MISUSE, False),
    ("src_stride_huge", BITS, False), ("src_strides_wrap", BITS, False),
    ("shape_dtype_unknown", MISUSE, False),
    ("shape_rank_above_max", RANK, False), ("shape_rank_negative", MISUSE, False),
    ("shape_dims_null", DIMS, False), ("shape_dim_negative", DIMS, False),
    ("shape_dims_wrap", SHAPE, False), ("shape_strided", SHAPE, False),
    ("shape_data_null", SHAPE, False), ("dst_dtype_unknown", MISUSE, False),
    ("dst_dtype_other", DST, False), ("dst_rank_above_max", RANK, False),
    ("dst_dims_null", EXECUTE, False), ("dst_dim_negative", DIMS, False),
    ("dst_data_null", DATA, False), ("dst_stride_negative", MISUSE, False),
    ("dst_stride_huge", BITS, False), ("in_place_strided", IN_PLACE, False),
    ("src_stride_wraps", BITS, False),
)

# Abuses on another base than [2, 3]: a negative stride on an empty tensor
# (with a volume above 0 the offset check refuses it too; at volume 0 only
# the strides check can).
# A stride whose product with dims[0] - 1 wraps to a small offset needs
# dims[0] >= 4 (with 3 no such stride fits int64).
ODD_DIMS = {"src_stride_negative": [0, 3], "dst_stride_negative": [0, 3],
            "src_stride_wraps": [4, 2]}

# (abuse, id suffix, input dims, shape values, the sentence): forms the ABI
# allows, which must give the base reshape's own outcome.  A zero or huge
# stride on a dim of 1 moves nothing, and a zero stride on src's dim of 4
# is a broadcast: dst then holds the first row four times, the harness's
# expectation gathered from src by the offsets the abused call has (D12).
ALLOWED = (
    ("src_dims_null", "scalar", [], [], DIMS),
    ("src_stride_zero", "", [1, 2, 3], [1, 2, 3], STRIDES),
    ("src_stride_zero", "broadcast", [4, 3], [4, 3], BROADCAST),
    ("src_stride_huge", "size1", [1, 2, 3], [1, 2, 3], SIZE1),
    ("dst_stride_zero", "", [1, 2, 3], [1, 2, 3], STRIDES),
    ("dst_stride_huge", "size1", [2, 3, 1], [2, 3, 1], SIZE1),
    ("shape_data_null", "no_values", [], [], SHAPE),
    ("src_data_null", "empty", [0, 3], [0, 3], DATA),
    ("dst_data_null", "empty", [0, 3], [0, 3], DATA),
    ("strides_scalar", "", [], [], STRIDES),
)


def _case(op, abuse, suffix, dims, values, cite, infer_only, expect, dtype="f32",
          special_zero=False):
    word = casebuild.OP_WORDS[op]
    case_id = "contract_%s_%s%s" % (word, abuse, "_" + suffix if suffix else "")
    case = casebuild.make_case(case_id, op, dims, values, special_zero, cite=cite, dtype=dtype,
                               tags=["contract"], infer_only=infer_only, expect=expect)
    case["abuse"] = abuse
    return case


def cases():
    """Every contract case, operation by operation."""
    found = []
    for op in model.OPS:
        base = model.infer(op, "f32", [2, 3], model.DEFAULT_SHAPE_DTYPE[op], [2], [2, 3], False)
        if base != ("shape", (2, 3)):
            raise ValueError("the contract base is not a plain reshape for %s" % op)
        for abuse, cite, infer_only in REFUSED:
            dims = ODD_DIMS.get(abuse, [2, 3])
            found.append(_case(op, abuse, "", dims, dims, cite, infer_only,
                               {"error": "INVALID_ARGUMENT"}))
        found.append(_case(op, "shape_data_null", "one_value", [6], [6], SHAPE, False,
                           {"error": "INVALID_ARGUMENT"}))
        # the dims alone say how far a dense tensor reaches: [0, 0] copies
        # them, so dst's dims follow src's into the abuse
        if model.infer(op, "f32", [2, 3], model.DEFAULT_SHAPE_DTYPE[op], [2], [0, 0],
                       True) != ("shape", (2, 3)):
            raise ValueError("[0, 0] with special_zero does not copy [2, 3] for %s" % op)
        found.append(_case(op, "dims_huge", "", [2, 3], [0, 0], BITS, False,
                           {"error": "INVALID_ARGUMENT"}, special_zero=True))
        found.append(_case(op, "dims_max", "", [2, 3], [0, 0], BITS, False,
                           {"error": "INVALID_ARGUMENT"}, special_zero=True))
        # a zero stride on dst's dim of 4: two elements at one offset (D12)
        found.append(_case(op, "dst_stride_zero", "aliasing", [4, 3], [4, 3], OVERLAP, False,
                           {"error": "INVALID_ARGUMENT"}))
        if "u1" in model.DATA_TYPES[op]:
            # one bit an element: the bound is (INT64_MAX - 7) / 1, where
            # 7 and 6 (or 8) in it differ
            found.append(_case(op, "src_stride_huge", "u1", [2, 3], [2, 3], BITS, False,
                               {"error": "INVALID_ARGUMENT"}, dtype="u1"))
        for abuse, suffix, dims, values, cite in ALLOWED:
            outcome = model.infer(op, "f32", dims, model.DEFAULT_SHAPE_DTYPE[op],
                                  [len(values)], values, False)
            found.append(_case(op, abuse, suffix, dims, values, cite, False,
                               model.outcome_to_expect(outcome)))
        # no abuse: a 2-D shape tensor of exactly RESHAPE_MAX_RANK values is
        # within rule 1 (DECISIONS.md), so the shape-rank rule speaks
        found.append(casebuild.make_case(
            "contract_%s_shape_2x16_holds_32_values" % casebuild.OP_WORDS[op], op,
            [1] * 32, [1] * 32, False, shape_dims=[2, 16], tags=["contract"]))
    return found
