"""The layouts family: the views frameworks hand a kernel (reference/DECISIONS.md D12).

Each case states its input's strides (and an element offset into the buffer
its data fill defines), or dst's strides, or in_place, as cases/FORMAT.md
("Layouts") allows:
  - broadcast src: a stride of 0 on the leading, an inner, the innermost,
    several and every dim (torch.expand, numpy.broadcast_to), and offsets
    that coincide without a 0 (a sliding window);
  - size-1 dims with a zero, an odd, a huge (2^58) and the largest stride,
    on src, on dst and on both;
  - empty tensors (a 0 dim) with arbitrary strides on the other dims, on
    src and dst;
  - permuted and padded views, and views of views (a slice of a padded
    buffer, transposed, starting deep in it);
  - a dst with nested, permuted or merely distinct strides (written), and
    one whose elements overlap: a 0 stride, more elements than offsets, a
    repeat only enumeration finds (INVALID_ARGUMENT); the enumeration (D12,
    "The overlap test", step 5) also on distinct offsets across the first
    64-offset words of its bitmap (0, 63, 64 and 65 among them) and on a
    3 x 3 dst, and on a single repeat at offset 63 and at offset 129;
  - in place with a broadcast, size-1-strided or permuted src, or a
    strided dst (INVALID_ARGUMENT: D12 wants both dense).
Every form runs on f32, f16, u8, s4 and u1 (the sub-byte ones with random
bits, the others iota) for OpenVINO and ONNX, on f32 and bf16 for the two
oneDNN operations.  A success states the expected dst bytes: the input's
elements gathered by their offsets, computed here (strides.py), never by
the C reference; the harness's loader checks them against its own gather.
Ids are layout_<form>_<op>_<dtype>.  Depends on model.py, casebuild.py and
strides.py.
"""

import casebuild
import model
import strides

DECISIONS = "reference/DECISIONS.md, D12"
QUOTES = {
    "broadcast": "Each element is read from its own offset, so the values repeat.",
    "size1": "Its index is always 0, so its stride never moves the address and does not "
             "count toward the tensor's extent.",
    "empty": "a tensor with a 0 dim has no element and addresses no memory; its other dims "
             "and all its strides (>= 0) are unconstrained.",
    "view": "The header's definition is taken literally, for any strides, and a copy is "
            "\"element i of src in row-major logical order to element i of dst in row-major "
            "logical order\":",
    "overlap": "a dst two of whose elements have the same offset has no defined result; "
               "execute refuses it with RESHAPE_E_INVALID_ARGUMENT and writes nothing.",
    "in_place": "dst->data == src->data needs both dense (strides NULL); a broadcast or any "
                "strided src in place is RESHAPE_E_INVALID_ARGUMENT.",
}

HUGE = 1 << 58
DTYPES = {
    "openvino_reshape_1": ("f32", "f16", "u8", "s4", "u1"),
    "onnx_reshape_14": ("f32", "f16", "u8", "s4", "u1"),
    "onednn_static_reshape_1": ("f32", "bf16"),
    "onednn_dynamic_reshape_1": ("f32", "bf16"),
}


def _src(dims, strd, offset=0):
    return {"dims": dims, "strides": strd, "offset": offset}


# (form, rule, input dims, target shape, src layout or None, dst strides or
# None, in_place).  Buffers of views of views start 8 elements in: a whole
# byte for every dtype, u1 included.
FORMS = (
    ("broadcast_leading", "broadcast", [4, 3], [12], _src([4, 3], [0, 1]), None, False),
    ("broadcast_inner", "broadcast", [2, 4, 3], [8, 3], _src([2, 4, 3], [3, 0, 1]), None, False),
    ("broadcast_innermost", "broadcast", [3, 5], [15], _src([3, 5], [1, 0]), None, False),
    ("broadcast_several", "broadcast", [2, 3, 2, 5], [6, 10],
     _src([2, 3, 2, 5], [0, 5, 0, 1]), None, False),
    ("broadcast_every_dim", "broadcast", [3, 4, 2], [24], _src([3, 4, 2], [0, 0, 0]), None, False),
    ("broadcast_into_strided_dst", "broadcast", [4, 3], [3, 4], _src([4, 3], [0, 1]), [5, 1],
     False),
    ("overlapping_src_window", "broadcast", [4, 3], [12], _src([4, 3], [1, 1]), None, False),
    ("size1_zero", "size1", [1, 4, 1, 3], [4, 3], _src([1, 4, 1, 3], [0, 3, 0, 1]), None, False),
    ("size1_huge", "size1", [1, 4, 1, 3], [4, 3], _src([1, 4, 1, 3], [HUGE, 3, HUGE, 1]), None,
     False),
    ("size1_odd", "size1", [1, 4, 1, 3], [4, 3], _src([1, 4, 1, 3], [7, 3, 5, 1]), None, False),
    ("size1_max", "size1", [4, 1], [1, 4], _src([4, 1], [1, 2**63 - 1]), None, False),
    ("size1_dst_huge", "size1", [12], [4, 1, 3], None, [3, HUGE, 1], False),
    ("size1_both", "size1", [1, 12], [12, 1], _src([1, 12], [HUGE, 1]), [1, 0], False),
    ("empty_src", "empty", [3, 0, 2], [0, 6], _src([3, 0, 2], [2**62, 7, 0]), None, False),
    ("empty_both", "empty", [0, 5], [5, 0], _src([0, 5], [0, 2**61]), [2**60, 3], False),
    ("permuted_src", "view", [3, 4], [12], _src([3, 4], [1, 3]), None, False),
    ("permuted_src_rank_3", "view", [4, 2, 3], [24], _src([4, 2, 3], [1, 12, 4]), None, False),
    ("padded_view_of_view", "view", [4, 3], [2, 6], _src([4, 3], [8, 2], 8), None, False),
    ("transposed_slice", "view", [3, 4], [12], _src([3, 4], [2, 8], 8), None, False),
    ("permuted_dst", "view", [12], [3, 4], None, [1, 3], False),
    ("distinct_dst", "view", [6], [3, 2], None, [2, 3], False),
    ("distinct_dst_across_words", "view", [12], [3, 4], None, [22, 21], False),
    ("distinct_dst_3x3", "view", [9], [3, 3], None, [3, 2], False),
    ("dst_zero_stride", "overlap", [12], [4, 3], None, [0, 1], False),
    ("dst_more_elements_than_offsets", "overlap", [12], [4, 3], None, [2, 1], False),
    ("dst_repeat_found_by_enumeration", "overlap", [12], [4, 3], None, [2, 3], False),
    ("dst_repeat_at_offset_63", "overlap", [8], [2, 4], None, [63, 21], False),
    ("dst_repeat_at_offset_129", "overlap", [8], [2, 4], None, [129, 43], False),
    ("in_place_broadcast", "in_place", [4, 3], [12], _src([4, 3], [0, 1]), None, True),
    ("in_place_size1_strides", "in_place", [1, 12], [12], _src([1, 12], [HUGE, 1]), None, True),
    ("in_place_permuted", "in_place", [3, 4], [12], _src([3, 4], [1, 3]), None, True),
    ("in_place_strided_dst", "in_place", [12], [3, 4], None, [5, 1], True),
)


def _data(dtype):
    return {"random": 0x1A70} if model.DTYPE_BITS[dtype] < 8 else None


def _expect(op, dtype, dims, shape, src, dst_strides, in_place, data):
    """(expect, dst dims or None): the model's outcome under D12."""
    outcome = model.infer(op, dtype, dims, model.DEFAULT_SHAPE_DTYPE[op], [len(shape)], shape,
                          False)
    if outcome[0] != "shape":
        raise ValueError("layout base %s -> %s is not a reshape for %s" % (dims, shape, op))
    out = list(outcome[1])
    if dst_strides is not None and strides.overlaps(out, dst_strides):
        return {"error": "INVALID_ARGUMENT"}, out
    if in_place:
        return {"error": "INVALID_ARGUMENT"}, out
    expect = {"shape": out}
    if 0 in dims:
        return expect, None
    if src is None:
        # a dense input: the payload itself, padding bits included
        payload = strides.fill(data, model.volume(dims), dtype)
    else:
        count = src["offset"] + strides.extent(src["dims"], src["strides"])
        buf = strides.fill(data, count, dtype)
        payload = strides.gather(buf, src["dims"], src["strides"], src["offset"], dtype)
    expect["data"] = casebuild.Flow(hex=payload.hex())
    return expect, None


def _case(op, dtype, form, rule, dims, shape, src, dst_strides, in_place):
    data = _data(dtype)
    expect, dst_dims = _expect(op, dtype, dims, shape, src, dst_strides, in_place, data)
    case = casebuild.make_case(
        "layout_%s_%s_%s" % (form, casebuild.OP_WORDS[op], dtype), op, dims, shape, False,
        dtype=dtype, data=data, tags=["layout", rule], cite=(DECISIONS, QUOTES[rule]))
    if src is not None:
        case["input"]["strides"] = list(src["strides"])
        if src["offset"]:
            case["input"]["offset"] = src["offset"]
    done = {k: v for k, v in case.items() if k != "expect"}
    dst = casebuild.Flow()
    if dst_strides is not None:
        dst["strides"] = list(dst_strides)
    if dst_dims is not None:
        # an error-only case names the dims inference gives, so that only
        # the layout can make the call fail
        dst["dims"] = dst_dims
    if dst:
        done["dst"] = dst
    if in_place:
        done["in_place"] = True
    done["expect"] = casebuild.Flow(expect)
    return done


def cases():
    """Every layout case, operation by operation, form by form."""
    found = []
    for op in model.OPS:
        for form, rule, dims, shape, src, dst_strides, in_place in FORMS:
            for dtype in DTYPES[op]:
                found.append(_case(op, dtype, form, rule, dims, shape, src, dst_strides,
                                   in_place))
    return found
