"""The dtypes family: the data-type matrix of every operation.

For each operation and each of the 18 ABI dtypes:
  - a dtype the operation allows (model.DATA_TYPES) gets a random payload;
    floats get their special values (NaNs with payloads, quiet and
    signalling, both signs; +-inf; -0.0; denormals; min normal; +-max
    finite; +-1), all at once as {hex: ...} and each repeated on its own
    as {repeat: ...}; integers get their limits; 8-bit types get all 256
    byte values in a shuffled order; u1, u4 and s4 get odd element counts
    (1, 3, 5, 7, 9, 15, 17) whose last byte's padding bits are not zero;
  - a dtype it forbids is a DATA_TYPE case.
Multi-byte values are written little-endian (the host order of the x86 and
Arm machines the suite runs on).  Ids are dtype_<op>_<dtype>_<what>.
Depends on model.py and casebuild.py.
"""

import random

import casebuild
import model

SEED = 4099
ODD_COUNTS = (1, 3, 5, 7, 9, 15, 17)
# element count -> target shape for the odd-count cases
ODD_TARGETS = {1: [1, 1, 1], 3: [3, 1], 5: [1, 5], 7: [7, 1], 9: [3, 3],
               15: [5, 3], 17: [1, 17]}
IEEE_FORMATS = {  # dtype -> (exponent bits, mantissa bits)
    "f64": (11, 52), "f32": (8, 23), "f16": (5, 10), "bf16": (8, 7),
    "f8e5m2": (5, 2),
}
# f8e4m3 is the "FN" encoding: no infinities, one NaN pattern per sign, and
# an all-ones exponent holds finite values up to 448.
F8E4M3_SPECIALS = (
    ("plus_zero", 0x00), ("minus_zero", 0x80), ("nan", 0x7F),
    ("minus_nan", 0xFF), ("min_denormal", 0x01), ("max_denormal", 0x07),
    ("minus_min_denormal", 0x81), ("min_normal", 0x08), ("max_finite", 0x7E),
    ("minus_max_finite", 0xFE), ("one", 0x38), ("minus_one", 0xB8),
    ("all_ones_exponent_finite", 0x78), ("minus_all_ones_exponent_finite", 0xF8),
)


def ieee_specials(exp_bits, man_bits):
    """[(kind, bit pattern)] of the special values of an IEEE-754-like format.

    Quiet NaNs have the top mantissa bit set, signalling NaNs clear and a
    non-zero payload below it; both carry payload bits beyond the minimum.
    """
    emax = (1 << exp_bits) - 1
    bias = (1 << (exp_bits - 1)) - 1
    top = 1 << (man_bits - 1)
    all_man = (1 << man_bits) - 1
    quiet = top | 1
    signalling = ((top - 1) & int("01" * 32, 2)) | 1

    def bits(sign, exp, man):
        return (sign << (exp_bits + man_bits)) | (exp << man_bits) | man

    return [
        ("plus_zero", bits(0, 0, 0)), ("minus_zero", bits(1, 0, 0)),
        ("plus_inf", bits(0, emax, 0)), ("minus_inf", bits(1, emax, 0)),
        ("quiet_nan_payload", bits(0, emax, quiet)),
        ("minus_quiet_nan_payload", bits(1, emax, quiet)),
        ("signalling_nan_payload", bits(0, emax, signalling)),
        ("minus_signalling_nan_payload", bits(1, emax, signalling)),
        ("min_denormal", bits(0, 0, 1)), ("max_denormal", bits(0, 0, all_man)),
        ("minus_min_denormal", bits(1, 0, 1)), ("min_normal", bits(0, 1, 0)),
        ("max_finite", bits(0, emax - 1, all_man)),
        ("minus_max_finite", bits(1, emax - 1, all_man)),
        ("one", bits(0, bias, 0)), ("minus_one", bits(1, bias, 0)),
    ]


def integer_limits(bits):
    """[(kind, bit pattern)] of the limits of a `bits`-wide integer."""
    return [("zero", 0), ("one", 1), ("sign_bit_only", 1 << (bits - 1)),
            ("signed_max", (1 << (bits - 1)) - 1), ("all_ones", (1 << bits) - 1),
            ("alternating_bits", int("01" * (bits // 2), 2))]


def specials(dtype):
    """The special bit patterns of `dtype`, or [] for sub-byte and boolean."""
    if dtype in IEEE_FORMATS:
        return ieee_specials(*IEEE_FORMATS[dtype])
    if dtype == "f8e4m3":
        return list(F8E4M3_SPECIALS)
    if dtype in model.INTEGER_RANGES:
        return integer_limits(model.DTYPE_BITS[dtype])
    return []


def element_hex(dtype, pattern):
    """One element's bytes, little-endian, as hex."""
    return pattern.to_bytes(model.DTYPE_BITS[dtype] // 8, "little").hex()


def padded_payload(dtype, count, rng):
    """Random bytes for `count` sub-byte elements whose padding bits are not 0."""
    bits = model.DTYPE_BITS[dtype]
    payload = bytearray(rng.getrandbits(8) for _ in range((count * bits + 7) // 8))
    used = count * bits % 8
    if used:
        # u1 packs from the top bit down, u4/s4 from the low nibble up
        padding = ((1 << (8 - used)) - 1) if dtype == "u1" else (0xFF << used) & 0xFF
        if payload[-1] & padding == 0:
            payload[-1] |= padding & 0x55 or padding
    return bytes(payload)


def _case(op, dtype, what, dims, values, data, rule):
    return casebuild.make_case("dtype_%s_%s_%s" % (casebuild.OP_WORDS[op], dtype, what), op,
                            dims, values, False, dtype=dtype, data=data,
                            rule=rule, tags=["dtype"])


def allowed_cases(op, dtype, rng):
    """Cases of one dtype `op` allows (see the module doc)."""
    out = [_case(op, dtype, "random_payload", [2, 3, 5], [5, 6],
                 {"random": rng.getrandbits(64)}, "data_type")]
    kinds = specials(dtype)
    if kinds:
        out.append(_case(op, dtype, "special_values", [len(kinds)],
                         [2, len(kinds) // 2],
                         {"hex": "".join(element_hex(dtype, p) for _, p in kinds)},
                         "output"))
        for kind, pattern in kinds:
            out.append(_case(op, dtype, kind + "_repeated", [3, 5], [5, 3],
                             {"repeat": element_hex(dtype, pattern)}, "output"))
    if model.DTYPE_BITS[dtype] == 8:
        order = list(range(256))
        rng.shuffle(order)
        out.append(_case(op, dtype, "all_256_byte_values", [16, 16], [256],
                         {"hex": bytes(order).hex()}, "output"))
    if dtype in model.SUB_BYTE_DTYPES:
        for count in ODD_COUNTS:
            out.append(_case(op, dtype, "odd_count_%d" % count, [count],
                             ODD_TARGETS[count],
                             {"hex": padded_payload(dtype, count, rng).hex()},
                             "output"))
    return out


def cases():
    """The whole matrix, operations and dtypes in the ABI's order."""
    rng = random.Random(SEED)
    out = []
    for op in model.OPS:
        for dtype in model.DTYPES:
            if dtype in model.DATA_TYPES[op]:
                out += allowed_cases(op, dtype, rng)
            else:
                out.append(_case(op, dtype, "is_error", [2, 3], [3, 2], None,
                                 "data_type"))
    return out
