"""The errorif family: negative cases for each error status, and mutations.

`errorif_cases` applies a table of templates, each named after the
condition it violates, to every operation, and keeps the pairs whose
reference outcome is that template's status (so DATA_TYPE templates land on
the oneDNN operations only, u64 OVERFLOW on OpenVINO only).  Ids are
errorif_<status>_<op>_<condition>.

`mutation_cases` takes every valid hand-written case, changes one thing,
and keeps the change when the model says it is now an error.  Ids are
mutation_<what>_<base id>.  Depends on model.py, casebuild.py and caseio.py.
"""

import casebuild
import caseio
import model

INT32_MAX = 2**31 - 1

# status -> [(condition, input dims, shape values, special_zero, options)];
# options may set dtype, shape_dtype, shape_dims, infer_only.
TEMPLATES = {
    "MULTIPLE_MINUS_ONE": [
        ("two_adjacent", [2, 3, 4], [-1, -1], False, {}),
        ("two_apart", [2, 3, 4], [-1, 2, -1], False, {}),
        ("three", [2, 3, 4], [-1, -1, -1], False, {}),
        ("beside_copying_zero", [2, 3, 4], [0, -1, -1], True, {}),
        ("on_empty_input", [0, 3], [-1, -1], False, {}),
        ("on_scalar_input", [], [-1, -1], False, {}),
    ],
    "BELOW_MINUS_ONE": [
        ("first_value_m2", [2, 3], [-2, 3], False, {}),
        ("last_value_m2", [2, 3], [3, -2], False, {}),
        ("int32_min", [2, 3], [-2**31], False, {}),
        ("int64_min", [2, 3], [-2**63], False, {}),
        ("beside_minus_one", [2, 3], [-1, -2], False, {}),
        ("before_a_second_minus_one", [2, 3], [-1, -5, -1], False, {}),
        ("m2_where_zero_would_copy", [2, 3], [-2, 0], True, {}),
    ],
    "ZERO_OUT_OF_RANGE": [
        ("index_equal_to_rank", [2, 3], [6, 1, 0], True, {}),
        ("index_above_rank", [6], [1, 6, 1, 0], True, {}),
        ("scalar_input", [], [0], True, {}),
        ("beside_minus_one", [2, 3], [-1, 1, 0], True, {}),
        ("rank_1_index_1", [4], [4, 0], True, {}),
        ("empty_input_index_equal_to_rank", [0, 3], [0, 3, 0], True, {}),
    ],
    "ZERO_AND_MINUS_ONE": [
        ("literal_zero_first", [2, 3], [0, -1], False, {}),
        ("literal_zero_last", [2, 3], [-1, 0], False, {}),
        ("literal_zero_scalar_input", [], [0, -1], False, {}),
        ("literal_zero_empty_input", [0, 3], [-1, 0], False, {}),
        ("copied_zero_dim_empty_input", [0, 3], [0, -1], True, {}),
        ("copied_zero_dim_beside_literal_dims", [2, 0, 3], [2, 0, -1], True, {}),
    ],
    "NOT_DIVISIBLE": [
        ("six_by_four", [2, 3], [-1, 4], False, {}),
        ("thirty_by_four", [2, 3, 5], [4, -1], False, {}),
        ("prime_volume", [7], [2, -1], False, {}),
        ("scalar_input", [], [-1, 2], False, {}),
        ("with_copying_zero", [2, 3, 5], [0, 4, -1], True, {}),
    ],
    "VOLUME_MISMATCH": [
        ("larger", [2, 3], [7], False, {}),
        ("smaller", [2, 3], [5], False, {}),
        ("scalar_input_to_two", [], [2], False, {}),
        ("empty_input_to_nonempty", [0, 3], [3], False, {}),
        ("nonempty_input_to_literal_zero", [2, 3], [0, 6], False, {}),
        ("empty_shape_on_two_elements", [2], [], False, {}),
        ("copying_zero_then_wrong_dim", [2, 3], [0, 4], True, {}),
        ("one_element_short", [2, 3, 4], [23], False, {}),
    ],
    "SHAPE_NOT_1D": [
        ("rank_2_row", [2, 3], [3, 2], False, {"shape_dims": [1, 2]}),
        ("rank_2_column", [2, 3], [3, 2], False, {"shape_dims": [2, 1]}),
        ("rank_3", [2, 3], [3, 2], False, {"shape_dims": [1, 1, 2]}),
        ("rank_0", [6], [6], False, {"shape_dims": []}),
        ("rank_2_empty", [1], [], False, {"shape_dims": [0, 2]}),
    ],
    "DATA_TYPE": [
        ("f64", [2, 3], [3, 2], False, {"dtype": "f64"}),
        ("s32", [2, 3], [3, 2], False, {"dtype": "s32"}),
        ("u8", [2, 3], [3, 2], False, {"dtype": "u8"}),
        ("boolean", [2, 3], [3, 2], False, {"dtype": "boolean"}),
        ("u1", [2, 3], [3, 2], False, {"dtype": "u1"}),
    ],
    "SHAPE_TYPE": [
        ("f32", [2, 3], [3, 2], False, {"shape_dtype": "f32"}),
        ("s64", [2, 3], [3, 2], False, {"shape_dtype": "s64"}),
        ("s32", [2, 3], [3, 2], False, {"shape_dtype": "s32"}),
        ("u64", [2, 3], [3, 2], False, {"shape_dtype": "u64"}),
        ("u8", [2, 3], [3, 2], False, {"shape_dtype": "u8"}),
        ("s4", [2, 3], [3, 2], False, {"shape_dtype": "s4"}),
        ("boolean", [1], [1], False, {"shape_dtype": "boolean"}),
    ],
    "OVERFLOW": [
        ("input_volume", [2**32, 2**32], [-1], False, {"infer_only": True}),
        ("input_volume_with_copying_zero", [2**32, 2**32], [0, -1], True,
         {"infer_only": True}),
        ("known_dims_before_minus_one", [2, 3], [65536, 65536, 65536, 65536, -1],
         False, {}),
        ("known_dims_without_minus_one", [2, 3], [INT32_MAX] * 3, False, {}),
        ("u64_value_2p63", [2], [2**63], False, {"shape_dtype": "u64"}),
        ("u64_value_max_is_not_minus_one", [2, 3], [2**64 - 1, 6], False,
         {"shape_dtype": "u64"}),
    ],
    "INVALID_ARGUMENT": [
        ("33_shape_values", [1], [1] * 33, False, {}),
        ("33_shape_values_with_minus_one", [6], [1] * 32 + [-1], False, {}),
    ],
}


def _fits(values, shape_dtype):
    low, high = caseio.value_range(shape_dtype)
    return all(low <= v <= high for v in values)


def errorif_cases():
    """Every (template, op) pair whose reference outcome is the template's status."""
    out = []
    for status in caseio.STATUS_NAMES:
        for op in model.OPS:
            for condition, dims, values, special_zero, options in TEMPLATES[status]:
                shape_dtype = options.get("shape_dtype", model.DEFAULT_SHAPE_DTYPE[op])
                if not _fits(values, shape_dtype):
                    continue
                outcomes, _ = model.accepted(
                    op, options.get("dtype", "f32"), dims, shape_dtype,
                    options.get("shape_dims", [len(values)]), values, special_zero)
                if outcomes[0] != ("error", status):
                    continue
                case_id = "errorif_%s_%s_%s" % (status.lower(), casebuild.OP_WORDS[op], condition)
                out.append(casebuild.make_case(
                    case_id, op, dims, values, special_zero,
                    dtype=options.get("dtype", "f32"), shape_dtype=shape_dtype,
                    shape_dims=options.get("shape_dims"),
                    infer_only=options.get("infer_only", False), tags=["errorif"]))
    return out


# A forbidden data dtype and shape dtype per operation, for mutations.
_BAD_DTYPE = {"onednn_static_reshape_1": "s32", "onednn_dynamic_reshape_1": "s32"}
_BAD_SHAPE_DTYPE = {
    "openvino_reshape_1": "f32", "onednn_static_reshape_1": "s32",
    "onednn_dynamic_reshape_1": "s64", "onnx_reshape_14": "s32",
}


def _mutants(base):
    """(what, changes) for each single change of `base` worth trying.

    `changes` maps make_case keyword names (dims, values, special_zero,
    dtype, shape_dtype, shape_dims) to their new value.
    """
    op = base["op"]
    dims = base["input"]["dims"]
    values = base["shape"]["values"]
    special_zero = base["special_zero"]
    signed = base["shape"]["dtype"] not in model.UNSIGNED_SHAPE_DTYPES
    found = []
    positive = [i for i, v in enumerate(values) if v > 0]
    if signed and values:
        i = positive[0] if positive else 0
        found.append(("value_to_m2", {"values": values[:i] + [-2] + values[i + 1:]}))
    if -1 in values and positive:
        i = positive[0]
        found.append(("second_minus_one",
                      {"values": values[:i] + [-1] + values[i + 1:]}))
    if special_zero and len(values) >= len(dims):
        found.append(("zero_past_rank", {"values": values + [0]}))
    if not special_zero and -1 in values and positive:
        i = positive[0]
        found.append(("zero_beside_minus_one",
                      {"values": values[:i] + [0] + values[i + 1:]}))
    found.append(("special_zero_flipped", {"special_zero": not special_zero}))
    if op in _BAD_DTYPE:
        found.append(("data_dtype_%s" % _BAD_DTYPE[op], {"dtype": _BAD_DTYPE[op]}))
    bad_shape = _BAD_SHAPE_DTYPE[op]
    if _fits(values, bad_shape):
        found.append(("shape_dtype_%s" % bad_shape, {"shape_dtype": bad_shape}))
    found.append(("shape_rank_2", {"shape_dims": [1, len(values)]}))
    copied = {i for i, v in enumerate(values) if special_zero and v == 0}
    free = [i for i in range(len(dims)) if i not in copied and dims[i] > 0]
    if free:
        i = free[-1]
        found.append(("dim_plus_one", {"dims": dims[:i] + [dims[i] + 1] + dims[i + 1:]}))
    if positive:
        i = positive[-1]
        bumped = values[:i] + [values[i] + 1] + values[i + 1:]
        if _fits(bumped, base["shape"]["dtype"]):
            found.append(("value_plus_one", {"values": bumped}))
    return found


def mutation_cases(hand_written):
    """Single-change errors of every valid hand-written case (see the module doc)."""
    out = []
    for base in hand_written:
        outcomes, _ = model.case_outcomes(base)
        if len(outcomes) != 1 or outcomes[0][0] != "shape":
            continue
        for what, changes in _mutants(base):
            fields = {
                "dims": base["input"]["dims"], "values": base["shape"]["values"],
                "special_zero": base["special_zero"], "dtype": base["input"]["dtype"],
                "shape_dtype": base["shape"]["dtype"],
                "shape_dims": base["shape"].get("dims"),
            }
            fields.update(changes)
            same_payload = (fields["dims"] == base["input"]["dims"]
                            and fields["dtype"] == base["input"]["dtype"])
            data = base["input"].get("data") if same_payload else None
            case = casebuild.make_case(
                "mutation_%s_%s" % (what, base["id"]), base["op"],
                fields.pop("dims"), fields.pop("values"), fields.pop("special_zero"),
                data=None if data == "iota" else data,
                infer_only=base.get("infer_only", False), tags=["mutation"], **fields)
            mutated, _ = model.case_outcomes(case)
            if mutated[0][0] == "error":
                out.append(case)
    return out
