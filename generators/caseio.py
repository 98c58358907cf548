"""Checking, writing and reading case files in the cases/FORMAT.md layout.

`problems` checks one case against the format's rules; `Registry` refuses
repeated ids; `render` writes a generated file byte for byte the same on
every run; `load` reads one.  Depends on model.py, casebuild.py (Flow) and
Debian's python3-yaml.
"""

import re

import yaml

import model
import strides
from casebuild import Flow

ID_PATTERN = re.compile(r"[a-z0-9_]{1,120}\Z")
TAG_PATTERN = re.compile(r"[a-z0-9_]+\Z")
# Payloads above this many bytes must be infer_only in generated files, so
# the default set stays small enough to run in seconds.
MAX_PAYLOAD = 1 << 16

# Value ranges a shape tensor of a non-integer dtype can carry in a case (the
# shape-type rule rejects them before any value is read).
_OTHER_RANGES = {"u1": (0, 1), "boolean": (0, 1), "u4": (0, 15), "s4": (-8, 7)}
_FLOAT_RANGE = (-16, 16)

STATUS_NAMES = (
    "MULTIPLE_MINUS_ONE", "BELOW_MINUS_ONE", "ZERO_OUT_OF_RANGE",
    "ZERO_AND_MINUS_ONE", "NOT_DIVISIBLE", "VOLUME_MISMATCH", "SHAPE_NOT_1D",
    "DATA_TYPE", "SHAPE_TYPE", "OVERFLOW", "INVALID_ARGUMENT",
)


def value_range(dtype):
    """(lowest, highest) shape value a case may give in `dtype`."""
    if dtype in model.INTEGER_RANGES:
        return model.INTEGER_RANGES[dtype]
    return _OTHER_RANGES.get(dtype, _FLOAT_RANGE)


def _expect_problems(expect, where):
    if not isinstance(expect, dict):
        return ["%s is not a mapping" % where]
    if "any_of" in expect:
        if set(expect) != {"any_of", "note"} or not expect["note"]:
            return ["%s: any_of needs a note and nothing else" % where]
        problems = []
        for i, form in enumerate(expect["any_of"]):
            problems += _expect_problems(form, "%s.any_of[%d]" % (where, i))
        return problems
    if "error" in expect:
        if set(expect) != {"error"} or expect["error"] not in STATUS_NAMES:
            return ["%s: bad error form %r" % (where, expect)]
        return []
    if set(expect) - {"shape", "data"} or "shape" not in expect:
        return ["%s: bad form %r" % (where, expect)]
    if len(expect["shape"]) > model.MAX_RANK or min(expect["shape"], default=0) < 0:
        return ["%s: bad shape %r" % (where, expect["shape"])]
    return []


def _data_problems(data, payload):
    if data is None or data == "iota":
        return []
    if not isinstance(data, dict) or len(data) != 1:
        return ["bad data %r" % (data,)]
    (form, value), = data.items()
    if form == "random":
        return [] if 0 <= value < 2**64 else ["random seed out of range"]
    if form not in ("hex", "repeat"):
        return ["unknown data form '%s'" % form]
    digits = value.replace(" ", "")
    if not re.fullmatch(r"[0-9a-fA-F]*", digits) or len(digits) % 2:
        return ["bad hex string"]
    if form == "hex" and payload is not None and len(digits) // 2 != payload:
        return ["hex holds %d bytes, payload is %d" % (len(digits) // 2, payload)]
    if form == "repeat" and not digits:
        return ["empty repeat"]
    return []


def _layout_problems(case):
    """What breaks FORMAT.md's "Layouts" in the input, `dst` and `in_place`."""
    data_in, found = case["input"], []
    strd = data_in.get("strides")
    if strd is not None and (len(strd) != len(data_in["dims"]) or min(strd, default=0) < 0):
        found.append("input strides do not fit the dims")
    if "offset" in data_in and (strd is None or data_in["offset"] < 0
                                or data_in["offset"] * model.DTYPE_BITS[data_in["dtype"]] % 8):
        found.append("bad input offset")
    dst = case.get("dst")
    if dst is not None and (set(dst) - {"strides", "dims"} or not dst):
        found.append("bad dst %r" % (dst,))
    if dst and "strides" in dst and "dims" in dst and len(dst["strides"]) != len(dst["dims"]):
        found.append("dst strides do not fit its dims")
    if case.get("in_place") and strd is None and not (dst and "strides" in dst):
        found.append("in_place needs strides")
    if (strd is not None or dst or case.get("in_place")) and (case.get("infer_only")
                                                              or case.get("abuse")):
        found.append("a layout needs a case that executes")
    return found


def problems(case, generated=True):
    """What breaks cases/FORMAT.md (and, for generated cases, our size rule)."""
    found = []
    if not ID_PATTERN.match(case.get("id", "")):
        found.append("bad id")
    if case.get("op") not in model.OPS:
        found.append("bad op")
    if not case.get("clause") or not case.get("quote"):
        found.append("clause and quote are required")
    for tag in case.get("tags", []):
        if not TAG_PATTERN.match(tag):
            found.append("bad tag '%s'" % tag)
    data_in, shape = case["input"], case["shape"]
    dims = data_in["dims"]
    if data_in["dtype"] not in model.DTYPE_BITS or shape["dtype"] not in model.DTYPE_BITS:
        found.append("unknown dtype")
        return found
    if len(dims) > model.MAX_RANK or any(d < 0 for d in dims):
        found.append("bad input dims")
    values = shape["values"]
    low, high = value_range(shape["dtype"])
    if any(not low <= v <= high for v in values):
        found.append("a shape value does not fit '%s'" % shape["dtype"])
    shape_dims = shape.get("dims", [len(values)])
    count = 1
    for d in shape_dims:
        count *= d
    if count != len(values):
        found.append("shape dims do not hold the values")
    payload = model.payload_bytes(data_in["dtype"], dims)
    found += _layout_problems(case)
    if "strides" in data_in and not found:
        # the data fill defines the buffer the strides point into
        count = data_in.get("offset", 0) + strides.extent(dims, data_in["strides"])
        payload = (count * model.DTYPE_BITS[data_in["dtype"]] + 7) // 8
    found += _data_problems(data_in.get("data"), payload)
    if generated and not case.get("infer_only") and (payload is None or payload > MAX_PAYLOAD):
        found.append("payload of %s bytes needs infer_only" % payload)
    found += _expect_problems(case.get("expect"), "expect")
    return found


class Registry:
    """Ids seen so far; `add` refuses a repeat or a case that breaks the format."""

    def __init__(self, taken=()):
        self.ids = set(taken)

    def add(self, case):
        bad = problems(case)
        if bad:
            raise ValueError("case '%s' is malformed: %s" % (case.get("id"), "; ".join(bad)))
        if case["id"] in self.ids:
            raise ValueError("duplicate case id '%s'" % case["id"])
        self.ids.add(case["id"])


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):
    """The safe dumper, with Flow mappings in flow style and no aliases.

    A payload shared by several cases is written out in each: anchors and
    aliases would tie cases together that the format treats as separate.
    """

    def ignore_aliases(self, data):
        return True


_Dumper.add_representer(
    Flow, lambda dumper, data: dumper.represent_mapping(
        "tag:yaml.org,2002:map", data.items(), flow_style=True))


def render(script, description, cases):
    """The text of one generated case file."""
    head = ["# written by generators/%s; do not edit" % script]
    head += ["# " + line if line else "#" for line in description.splitlines()]
    body = yaml.dump({"generated": True, "cases": cases}, Dumper=_Dumper,
                     default_flow_style=None, sort_keys=False, width=1 << 30,
                     allow_unicode=True)
    return "\n".join(head) + "\n" + body


def load(path):
    """The cases of a case file, as dicts."""
    with open(path, encoding="utf-8") as f:
        document = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return document.get("cases") or []
