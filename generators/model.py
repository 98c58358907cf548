"""The suite's Python model of the four reshape operations.

Written from the spec texts (specs/) and reference/DECISIONS.md
alone; it never reads or calls the C reference, so the two can check each
other, except for the type rules (which data and shape types each
operation accepts): those it reads from specs/type_rules.yaml, the one
source the ABI header and so the reference take them from too.  It
depends on the standard library and Debian's python3-yaml.

The model answers one question: given a case's operation, input dtype and
dims, shape tensor and special_zero, which outcomes does the suite accept?
An outcome is `("shape", (d0, d1, ...))` or `("error", NAME)`, NAME being a
status name of include/reshape_candidate.h without its prefix.
"""

import itertools
import os

import yaml

OPS = (
    "openvino_reshape_1",
    "onednn_static_reshape_1",
    "onednn_dynamic_reshape_1",
    "onnx_reshape_14",
)

# Bits per element, in the ABI's enum order.
DTYPE_BITS = {
    "f64": 64, "f32": 32, "f16": 16, "bf16": 16, "f8e4m3": 8, "f8e5m2": 8,
    "s64": 64, "s32": 32, "s16": 16, "s8": 8,
    "u64": 64, "u32": 32, "u16": 16, "u8": 8,
    "s4": 4, "u4": 4, "u1": 1, "boolean": 8,
}
DTYPES = tuple(DTYPE_BITS)
FLOAT_DTYPES = ("f64", "f32", "f16", "bf16", "f8e4m3", "f8e5m2")
SUB_BYTE_DTYPES = ("s4", "u4", "u1")

# The integer types a shape tensor may use somewhere (D7), and their ranges.
INTEGER_RANGES = {
    "s64": (-2**63, 2**63 - 1), "s32": (-2**31, 2**31 - 1),
    "s16": (-2**15, 2**15 - 1), "s8": (-2**7, 2**7 - 1),
    "u64": (0, 2**64 - 1), "u32": (0, 2**32 - 1),
    "u16": (0, 2**16 - 1), "u8": (0, 2**8 - 1),
}
UNSIGNED_SHAPE_DTYPES = ("u64", "u32", "u16", "u8")

INT64_MAX = 2**63 - 1
MAX_RANK = 32  # RESHAPE_MAX_RANK


def _type_rules():
    """The data and shape types of each op from specs/type_rules.yaml, the one
    source the ABI header (and through it the reference) takes them from:
    D5, "T: any numeric type" (boolean counted in, D5's any_of keeps the
    error open), ONNX "any tensor type", oneDNN "T: f32,f16,bf16"; D7,
    OpenVINO "any supported integer type", DynamicReshape "T2: s32",
    StaticReshape "Type: s64[]", ONNX "1-D tensor of int64".  Each list in
    the ABI's dtype order."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "specs", "type_rules.yaml")
    with open(path, encoding="utf-8") as f:
        ops = yaml.safe_load(f)["ops"]
    data = {op: tuple(d for d in DTYPES if d in ops[op]["data"]) for op in OPS}
    shape = {op: tuple(d for d in DTYPES if d in ops[op]["shape"]) for op in OPS}
    return data, shape


DATA_TYPES, SHAPE_TYPES = _type_rules()

# The shape dtype each operation's cases use unless they test shape types.
DEFAULT_SHAPE_DTYPE = {
    "openvino_reshape_1": "s64",
    "onednn_static_reshape_1": "s64",
    "onednn_dynamic_reshape_1": "s32",
    "onnx_reshape_14": "s64",
}

# The readings DECISIONS.md leaves open, by entry, and the operation each
# applies to.  With an entry "taken", `infer` follows the other reading.
#   D1  OpenVINO, empty input, -1 beside a known product of 0: -1 becomes 0.
#   D3  DynamicReshape, rank-0 shape tensor: read as a 1-element shape.
#   D5  OpenVINO, boolean data: not numeric, DATA_TYPE.
OPEN_READINGS = {
    "openvino_reshape_1": ("D1", "D5"),
    "onednn_static_reshape_1": (),
    "onednn_dynamic_reshape_1": ("D3",),
    "onnx_reshape_14": (),
}


class Rejected(Exception):
    """Raised inside `infer` by the first rule that fails; carries the name."""

    def __init__(self, status):
        super().__init__(status)
        self.status = status


def volume(dims):
    """The product of `dims` as DECISIONS.md rule 8 defines it.

    0 when any dim is 0 (tested before any multiplication, D8), 1 for no
    dims (a scalar), else the product; raises Rejected("OVERFLOW") when the
    product leaves int64.  A -1 in `dims` is never passed in.
    """
    if any(d == 0 for d in dims):
        return 0
    product = 1
    for d in dims:
        if product > INT64_MAX // d:
            raise Rejected("OVERFLOW")
        product *= d
    return product


def _check(op, dtype, dims, shape_dtype, shape_dims, values, special_zero,
           taken):
    """The rules of DECISIONS.md in their order; returns the output dims.

    `taken` is a set of DECISIONS entries ("D1", "D3", "D5") whose open
    reading to follow instead of the reference's.  Raises Rejected with the
    status of the first rule that fails.
    """
    # 1. Arguments: caller misuse, not a spec rule.
    if op not in OPS or dtype not in DTYPE_BITS or shape_dtype not in DTYPE_BITS:
        raise Rejected("INVALID_ARGUMENT")
    if len(dims) > MAX_RANK or any(d < 0 for d in dims):
        raise Rejected("INVALID_ARGUMENT")
    if len(values) > MAX_RANK:
        raise Rejected("INVALID_ARGUMENT")
    # 2. Data type (D5).
    if dtype not in DATA_TYPES[op]:
        raise Rejected("DATA_TYPE")
    if "D5" in taken and dtype == "boolean":
        raise Rejected("DATA_TYPE")
    # 3. Shape type (D7).
    if shape_dtype not in SHAPE_TYPES[op]:
        raise Rejected("SHAPE_TYPE")
    # 4. Shape tensor rank (D3).
    if len(shape_dims) != 1 and not ("D3" in taken and len(shape_dims) == 0):
        raise Rejected("SHAPE_NOT_1D")
    # 5. Values, each in order (D4): an unsigned value is never -1.
    for v in values:
        if shape_dtype in UNSIGNED_SHAPE_DTYPES and v > INT64_MAX:
            raise Rejected("OVERFLOW")
        if v < -1:
            raise Rejected("BELOW_MINUS_ONE")
    # 6. "Not more than one -1 can be used in a reshape operation."
    if values.count(-1) > 1:
        raise Rejected("MULTIPLE_MINUS_ONE")
    # 7. Copying zeros, left aligned (D2, D9).
    out = list(values)
    if special_zero:
        for i, v in enumerate(values):
            if v == 0:
                if i >= len(dims):
                    raise Rejected("ZERO_OUT_OF_RANGE")
                out[i] = dims[i]
    # 8, 9. Volumes (D8).
    total = volume(dims)
    known = volume([d for d in out if d != -1])
    # 10. The -1 (D1).
    if -1 in out:
        if known == 0:
            if "D1" in taken and total == 0:
                out[out.index(-1)] = 0
                return tuple(out)
            raise Rejected("ZERO_AND_MINUS_ONE")
        if total % known != 0:
            raise Rejected("NOT_DIVISIBLE")
        out[out.index(-1)] = total // known
        return tuple(out)
    # 11. No -1: the volumes must agree.
    if known != total:
        raise Rejected("VOLUME_MISMATCH")
    return tuple(out)


def infer(op, dtype, dims, shape_dtype, shape_dims, values, special_zero,
          taken=frozenset()):
    """The outcome under one reading: ("shape", dims) or ("error", NAME).

    `dims`, `shape_dims` and `values` are sequences of Python ints;
    `special_zero` is a bool (for ONNX, `not allowzero`).
    """
    try:
        return ("shape", _check(op, dtype, tuple(dims), shape_dtype,
                                tuple(shape_dims), list(values),
                                bool(special_zero), taken))
    except Rejected as rejected:
        return ("error", rejected.status)


def accepted(op, dtype, dims, shape_dtype, shape_dims, values, special_zero):
    """Every outcome the suite accepts, and the DECISIONS entries behind them.

    Returns (outcomes, entries): `outcomes` lists distinct outcomes, the
    reference's reading first; `entries` is the sorted tuple of DECISIONS
    entries ("D1", ...) whose open reading added an outcome (empty when the
    case has one outcome).  Subsets of the open readings are tried smallest
    first, so an outcome is credited to the fewest entries that give it.
    """
    open_entries = OPEN_READINGS.get(op, ())
    outcomes, entries = [], set()
    for size in range(len(open_entries) + 1):
        for taken in itertools.combinations(open_entries, size):
            outcome = infer(op, dtype, dims, shape_dtype, shape_dims, values,
                            special_zero, frozenset(taken))
            if outcome not in outcomes:
                outcomes.append(outcome)
                entries.update(taken)
    return outcomes, tuple(sorted(entries))


def outcome_to_expect(outcome):
    """One outcome as a case's `expect` form: {"shape": [..]} or {"error": NAME}."""
    kind, value = outcome
    return {"shape": list(value)} if kind == "shape" else {"error": value}


def expect_to_outcome(expect):
    """The inverse of `outcome_to_expect` for one `shape` or `error` form."""
    if "error" in expect:
        return ("error", expect["error"])
    return ("shape", tuple(expect["shape"]))


def case_outcomes(case):
    """`accepted` for a case dict in the cases/FORMAT.md layout."""
    shape = case["shape"]
    values = shape["values"]
    return accepted(case["op"], case["input"]["dtype"], case["input"]["dims"],
                    shape["dtype"], shape.get("dims", [len(values)]), values,
                    case["special_zero"])


def expect_from(outcomes, entries):
    """The `expect` mapping for the result of `accepted`.

    One accepted outcome gives its own form; several give
    {"any_of": [...], "note": "see DECISIONS.md D1"}.
    """
    if len(outcomes) == 1:
        return outcome_to_expect(outcomes[0])
    return {"any_of": [outcome_to_expect(o) for o in outcomes],
            "note": "see DECISIONS.md " + ", ".join(entries)}


def payload_bytes(dtype, dims):
    """Bytes of a dense tensor: ceil(volume * bits / 8); None if volume overflows."""
    try:
        n = volume(dims)
    except Rejected:
        return None
    return (n * DTYPE_BITS[dtype] + 7) // 8
