"""The extremes family: volumes near 2^63, huge single dims, high ranks.

For every operation:
  - volumes at and around INT64_MAX (infer_only: nothing that large can
    be allocated), and products that leave int64 (OVERFLOW, D8);
  - a 0 dim beside huge dims: the volume is 0 and nothing overflows, so
    the payload is empty and the case runs in full;
  - single dims of 2^31 and 2^32 (infer_only);
  - ranks 0-12, 16, 24, 31 and 32, into and out of 1-D, and copying every
    dim with special_zero; a shape of 33 values is INVALID_ARGUMENT;
  - for OpenVINO, unsigned shape values at the edges (D4): u64 above
    INT64_MAX is OVERFLOW, and no all-ones unsigned value means -1.
A template whose values do not fit the operation's shape dtype (s32 for
DynamicReshape) is left out for that operation; one whose data dtype the
operation forbids runs on f16 instead (huge dims want the smallest
elements, but DATA_TYPE is not what these cases check).  Ids are
extreme_<op>_<condition>.  Depends on model.py, casebuild.py and caseio.py.
"""

import casebuild
import caseio
import model

INT64_MAX = model.INT64_MAX
INT32_MAX = 2**31 - 1
SQRT_INT64_MAX = 3037000499  # the largest n with n * n <= INT64_MAX
# INT64_MAX = 7 * 7 * 73 * 127 * 337 * 92737 * 649657
INT64_MAX_FACTORS = [7, 7, 73, 127, 337, 92737, 649657]
RANKS = list(range(13)) + [16, 24, 31, 32]


def _volume_templates():
    """(condition, dims, values, special_zero, options) near int64's edge."""
    big = {"infer_only": True}
    return [
        ("volume_2p62_to_minus_one", [2**31, 2**31], [-1], False, big),
        ("volume_2p62_split_differently", [2**31, 2**31], [2**20, -1, 2**10], False, big),
        ("volume_int64_max_to_minus_one", [INT64_MAX], [-1], False, big),
        ("volume_int64_max_from_factors", INT64_MAX_FACTORS, [-1], False, big),
        ("volume_int64_max_seven_by_rest", [INT64_MAX], [7, -1], False, big),
        ("volume_int64_max_to_its_factors", [INT64_MAX], INT64_MAX_FACTORS, False, big),
        ("volume_int64_max_copied", [INT64_MAX], [0], True, big),
        ("volume_largest_square", [SQRT_INT64_MAX, SQRT_INT64_MAX], [-1], False, big),
        ("volume_2p63_overflows", [2**31, 2**31, 2], [-1], False, big),
        ("volume_square_past_int64_overflows", [SQRT_INT64_MAX + 1, SQRT_INT64_MAX + 1],
         [-1], False, big),
        ("volume_2p64_of_rank_8_overflows", [256] * 8, [-1], False, big),
        ("volume_2p56_times_127_fits", [256] * 7 + [127], [-1], False, big),
        ("known_dims_2p64_overflow", [2, 3], [65536, 65536, 65536, 65536, -1], False, {}),
        ("known_dims_overflow_without_minus_one", [6], [INT32_MAX, INT32_MAX, INT32_MAX],
         False, {}),
        ("known_dims_int64_max_times_2_overflow", [2], [INT64_MAX, 2], False, {}),
        ("known_dims_int64_max_against_volume_6", [2, 3], [INT64_MAX], False, {}),
        ("known_dims_int64_max_over_minus_one", [2, 3], [INT64_MAX, -1], False, {}),
        ("zero_dim_beside_huge_dims", [0, 2**40, 2**40], [2**40, 0, 2**40], False, {}),
        ("zero_dim_beside_int32_max_dims", [INT32_MAX, 0, INT32_MAX, INT32_MAX],
         [INT32_MAX, INT32_MAX, INT32_MAX, 0], False, {}),
        ("zero_dim_beside_huge_dims_copied", [2**40, 0, 2**40], [0, 0, 0], True, {}),
        ("zero_dim_huge_dims_and_minus_one", [2**40, 0], [-1, 0], False, {}),
        ("single_dim_2p31_split", [2**31], [2, 2**30], False, {"dtype": "u8", **big}),
        ("single_dim_2p31_copied", [2**31], [0, 1], True, {"dtype": "u1", **big}),
        ("single_dim_2p31_as_a_value", [1, 2], [2**31], False, {}),
        ("single_dim_2p32_halved", [2**32], [-1, 2], False, {"dtype": "u1", **big}),
        ("single_dim_2p32_beside_zero", [2**32, 0], [0, 2**32], False, {}),
        ("single_dim_2p32_beside_zero_copied", [2**32, 0], [0, 0], True, {}),
    ]


def _rank_dims(rank):
    """A rank-`rank` shape of volume 6 (volume 1 for ranks 0 and 1 of [1])."""
    dims = [1] * rank
    if rank >= 1:
        dims[0] = 2
    if rank >= 2:
        dims[-1] = 3
    return dims if rank != 1 else [6]


def _rank_templates():
    """(condition, dims, values, special_zero, options) over ranks 0-32."""
    out = []
    for rank in RANKS:
        dims = _rank_dims(rank)
        out.append(("rank_%d_to_minus_one" % rank, dims, [-1], False, {}))
        source = [6] if rank else [1]
        out.append(("rank_1_to_rank_%d" % rank, source, dims, False, {}))
        if rank:
            out.append(("rank_%d_all_zeros_copy" % rank, dims, [0] * rank, True, {}))
            out.append(("rank_%d_minus_one_last" % rank, dims,
                        [0] * (rank - 1) + [-1], True, {}))
    out.append(("rank_33_shape_is_invalid", [1], [1] * 33, False, {}))
    out.append(("rank_33_shape_of_zeros_is_invalid", [1] * 32, [0] * 33, True, {}))
    return out


def _unsigned_templates():
    """OpenVINO's unsigned shape values at their edges (D4)."""
    return [
        ("u64_2p63_overflows", [2], [2**63], False, {"shape_dtype": "u64"}),
        ("u64_max_overflows_not_minus_one", [2, 3], [2**64 - 1, 6], False,
         {"shape_dtype": "u64"}),
        ("u64_max_beside_copying_zero_overflows", [2, 3], [0, 2**64 - 1], True,
         {"shape_dtype": "u64"}),
        ("u64_int64_max_fits", [INT64_MAX], [INT64_MAX], False,
         {"shape_dtype": "u64", "infer_only": True}),
        ("u32_max_is_not_minus_one", [2**32 - 1], [2**32 - 1], False,
         {"shape_dtype": "u32", "dtype": "u1", "infer_only": True}),
        ("u32_max_against_volume_6", [2, 3], [2**32 - 1], False, {"shape_dtype": "u32"}),
        ("u16_max_is_not_minus_one", [65535], [65535], False,
         {"shape_dtype": "u16", "dtype": "u1"}),
        ("u8_max_is_not_minus_one", [255], [255], False, {"shape_dtype": "u8"}),
        ("u8_max_against_volume_6", [2, 3], [255, 0], True, {"shape_dtype": "u8"}),
    ]


def cases():
    """Every template on every operation whose shape dtype holds its values."""
    out = []
    for op in model.OPS:
        templates = _volume_templates() + _rank_templates()
        if op == "openvino_reshape_1":
            templates += _unsigned_templates()
        for condition, dims, values, special_zero, options in templates:
            shape_dtype = options.get("shape_dtype", model.DEFAULT_SHAPE_DTYPE[op])
            low, high = caseio.value_range(shape_dtype)
            if not all(low <= v <= high for v in values):
                continue
            dtype = options.get("dtype", "f32")
            if dtype not in model.DATA_TYPES[op]:
                dtype = "f16"
            out.append(casebuild.make_case(
                "extreme_%s_%s" % (casebuild.OP_WORDS[op], condition), op, dims, values,
                special_zero, dtype=dtype,
                shape_dtype=shape_dtype,
                infer_only=options.get("infer_only", False), tags=["extreme"]))
    return out
