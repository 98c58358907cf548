"""The wraps family: products that wrap to the input volume in narrow integers.

A kernel that counts elements in 32 bits (Arm NN 20.08's
TensorShape::GetNumElements() returns unsigned int; TfLite's reshape
multiplies the shape's dims in an int) takes two volumes for equal when
they differ by a multiple of 2^32.  These cases give it exactly that: the
positive dims of the target shape, or of the input, multiply to the other
side's volume plus 2^31, 2^32 or 2^64 (4 * (2^30 + 1) = 2^32 + 4: [4] into
[4, 1073741825]).  The suite's own arithmetic is int64 (DECISIONS.md D8), so
the expected outcome is the rules' answer on the true products:
VOLUME_MISMATCH, NOT_DIVISIBLE for a -1, OVERFLOW past 2^63, or success
where the true product works out (an empty input reshaped by a -1 beside
dims of product 2^32, a huge input whose -1 resolves to 2^30 + 1).

For every operation, modulus (2^31, 2^32, 2^64) and special_zero setting,
with -1 and a copied 0 in the mix; a 0 that copies with special_zero true
is the same dim written out with special_zero false.  Target shapes whose
product wraps run in full (a small input); inputs whose volume wraps are
infer_only.  Data dtypes go round the ones each operation allows (D5);
OpenVINO's shape is u32 or u64 without a -1 and s32 or s64 with one, the
others use their only shape dtype (D7), 2^62 + 1 spelled as its five
prime factors in s32.  Ids are wrap_<op>_<modulus>_<form>_<special_zero>.
Depends on model.py, casebuild.py and caseio.py.
"""

import casebuild
import caseio
import model

# modulus word -> (modulus, factors of modulus / 4 + 1 that fit s32,
# factors of modulus / 4 that fit s32); the single values where they fit.
MODULI = (
    ("2p31", 2**31, [2**29 + 1], [2**29]),
    ("2p32", 2**32, [2**30 + 1], [2**30]),
    # 2^62 + 1 = 5 * 5581 * 8681 * 49477 * 384773
    ("2p64", 2**64, [5, 5581, 8681, 49477, 384773], [2**30, 2**30, 4]),
)


def _product(dims):
    out = 1
    for d in dims:
        out *= d
    return out


def _forms(wrap, quarter):
    """(form, input dims, values for special_zero, settings, infer_only).

    `wrap` multiplies to modulus / 4 + 1 (so 4 * wrap is 4 modulo the
    modulus), `quarter` to modulus / 4 (4 * quarter is 0 modulo it); each is
    a list of dims.  Each product is the other side's volume plus an odd
    multiple of the modulus (1, or 3 beside a dim of 3), so that a case at
    2^31 does not also wrap at 2^32.  `values` is a function of special_zero: a 0 that
    copies where it is true, the dim it would copy where it is false.
    """
    both = (False, True)
    big = [4, _product(wrap)]   # an input of volume modulus + 4
    empty = [4, _product(quarter)]   # an input of volume modulus
    return [
        ("output_wraps", [4], lambda sz: [4] + wrap, both, False),
        ("output_wraps_minus_one", [8], lambda sz: [-1, 4] + wrap, both, False),
        ("output_wraps_beside_first_dim", [4, 3],
         lambda sz: [0 if sz else 4] + wrap + [3], both, False),
        ("output_wraps_minus_one_beside_first_dim", [4, 6],
         lambda sz: [0 if sz else 4, -1] + wrap, both, False),
        ("output_wraps_to_empty", [0, 4], lambda sz: [4] + quarter, both, False),
        ("output_wraps_to_empty_minus_one", [0, 4],
         lambda sz: [-1, 4] + quarter, both, False),
        ("input_wraps", big, lambda sz: [4], both, True),
        ("input_wraps_minus_one", big, lambda sz: [-1, 4], both, True),
        ("input_wraps_first_dim", big, lambda sz: [0 if sz else 4, 1], both, True),
        ("input_wraps_to_zero", empty, lambda sz: [0, 4], (False,), True),
        ("input_wraps_to_zero_minus_one", empty, lambda sz: [0, -1], (True,), True),
    ]


def _shape_dtype(op, values):
    """OpenVINO: unsigned without a -1, signed with one, 32 bits where the
    values fit; the others their one shape dtype (D7)."""
    if op != "openvino_reshape_1":
        return model.DEFAULT_SHAPE_DTYPE[op]
    names = ("s32", "s64") if -1 in values else ("u32", "u64")
    for name in names:
        low, high = caseio.value_range(name)
        if all(low <= v <= high for v in values):
            return name
    raise ValueError("no shape dtype holds %r" % (values,))


def _data_dtypes(op):
    """The data dtypes the cases of `op` go round: every one it allows,
    boolean left out for OpenVINO (D5 leaves its outcome open)."""
    return [d for d in model.DATA_TYPES[op]
            if not (op == "openvino_reshape_1" and d == "boolean")]


def cases():
    """Every form on every operation, modulus and special_zero setting."""
    out = []
    for op in model.OPS:
        dtypes = _data_dtypes(op)
        for word, modulus, narrow_wrap, narrow_quarter in MODULI:
            wide = op != "onednn_dynamic_reshape_1"
            wrap = [modulus // 4 + 1] if wide else narrow_wrap
            quarter = [modulus // 4] if wide else narrow_quarter
            assert _product(wrap) == modulus // 4 + 1
            assert _product(quarter) == modulus // 4
            for form, dims, values_of, settings, infer_only in _forms(wrap, quarter):
                for special_zero in settings:
                    values = values_of(special_zero)
                    dtype = dtypes[len(out) % len(dtypes)]
                    out.append(casebuild.make_case(
                        "wrap_%s_%s_%s_%s" % (casebuild.OP_WORDS[op], word, form,
                                              casebuild.zero_word(op, special_zero)),
                        op, dims, values, special_zero, dtype=dtype,
                        shape_dtype=_shape_dtype(op, values),
                        infer_only=infer_only, tags=["wrap"]))
    return out
