"""Building cases in the cases/FORMAT.md layout.

Every family script builds its cases with `make_case`, which fills in the
clause, quote, tags and expectation from sentences.py and model.py, so a
family says only what it varies; the *_word helpers spell ids.
Depends on model.py and sentences.py.
"""

import model
import sentences

OP_WORDS = {
    "openvino_reshape_1": "openvino",
    "onednn_static_reshape_1": "static",
    "onednn_dynamic_reshape_1": "dynamic",
    "onnx_reshape_14": "onnx",
}


class Flow(dict):
    """A mapping written on one line ({dtype: f32, dims: [2, 3]})."""


def dims_word(dims):
    """dims for an id: [2, 3] -> "2x3", [] -> "scalar"."""
    return "x".join(str(d) for d in dims) if dims else "scalar"


def values_word(values):
    """shape values for an id: [0, -1, 4] -> "0xm1x4", [] -> "empty"."""
    if not values:
        return "empty"
    return "x".join(("m%d" % -v) if v < 0 else str(v) for v in values)


def zero_word(op, special_zero):
    """special_zero in the operation's own terms, for ids."""
    if op == "onnx_reshape_14":
        return "allowzero_0" if special_zero else "allowzero_1"
    return "special_zero" if special_zero else "no_special_zero"


def rule_of(op, shape_dtype, values, special_zero, outcome):
    """The rule (a sentences.RULE_SENTENCES key) a case with `outcome` checks.

    An error checks the rule it breaks; a success checks the most special
    thing its shape uses: a -1, then a copying 0, then a literal 0, then an
    empty shape (a scalar), else the equal volumes.
    """
    kind, value = outcome
    if kind == "error":
        if value == "OVERFLOW" and shape_dtype in model.UNSIGNED_SHAPE_DTYPES \
                and any(v > model.INT64_MAX for v in values):
            return "overflow_value"
        return sentences.STATUS_RULES[value]
    if -1 in values:
        return "minus_one"
    if 0 in values:
        return "zero_copy" if special_zero else "zero_literal"
    if not values:
        return "scalar"
    return "volume"


def feature_tags(dims, values, special_zero, outcome):
    """Tags a reader filters by: special_zero, minus_one, empty, scalar."""
    tags = []
    if special_zero and 0 in values:
        tags.append("special_zero")
    if -1 in values:
        tags.append("minus_one")
    out = outcome[1] if outcome[0] == "shape" else ()
    if 0 in dims or 0 in out:
        tags.append("empty")
    if not dims or (outcome[0] == "shape" and not out):
        tags.append("scalar")
    return tags


def make_case(case_id, op, dims, values, special_zero, *, dtype="f32",
              shape_dtype=None, shape_dims=None, data=None, tags=(),
              rule=None, cite=None, infer_only=False, expect=None):
    """One case as a dict in the format's field order.

    `shape_dtype` defaults to the operation's usual one
    (model.DEFAULT_SHAPE_DTYPE); `shape_dims` to [len(values)]; `data` to
    iota (the field is then left out).  `expect` defaults to the model's
    answer.  The clause and quote are `cite` (a (clause, quote) pair) when
    given, else those of `rule`, else of the rule `rule_of` picks.  Tags
    are `tags` followed by the feature tags, without repeats.
    """
    if shape_dtype is None:
        shape_dtype = model.DEFAULT_SHAPE_DTYPE[op]
    shape = {"dtype": shape_dtype, "values": list(values)}
    if shape_dims is not None:
        shape["dims"] = list(shape_dims)
    outcomes, entries = model.accepted(op, dtype, dims, shape_dtype,
                                       shape_dims if shape_dims is not None
                                       else [len(values)], values, special_zero)
    if cite is None:
        cite = sentences.cite(op, rule or rule_of(op, shape_dtype, values,
                                                  special_zero, outcomes[0]))
    all_tags = []
    for tag in list(tags) + feature_tags(dims, values, special_zero, outcomes[0]):
        if tag not in all_tags:
            all_tags.append(tag)
    case = {"id": case_id, "op": op, "clause": cite[0], "quote": cite[1],
            "tags": all_tags, "input": Flow(dtype=dtype, dims=list(dims)),
            "shape": Flow(shape), "special_zero": bool(special_zero)}
    if data is not None:
        case["input"]["data"] = data
    if infer_only:
        case["infer_only"] = True
    case["expect"] = Flow(expect if expect is not None
                          else model.expect_from(outcomes, entries))
    return case
