"""report_schema - checks a loaded JSON report against reports/SCHEMA.md, version 1.

Depends on the standard library only.  `check(report)` returns nothing when the
report has every field the schema lists, each of the right type, and raises
`ReportInvalid` naming the first field that is missing or wrong.  Fields the
schema does not list are allowed ("fields may be added within a schema version").
"""

# The verdicts of SCHEMA.md, in the order reports show them.
VERDICTS = (
    "PASS", "FAIL", "ACCEPTED_INVALID", "CRASH", "TIMEOUT", "MEMORY_VIOLATION",
    "LEAK", "FLOOD", "NOT_SUPPORTED", "WAIVED", "UNEXPECTED_PASS",
)

# Verdicts that do not count against conformance (SCHEMA.md, "Verdicts").
NOT_COUNTING = frozenset(("PASS", "NOT_SUPPORTED", "WAIVED"))

RUN_VERDICTS = ("conformant", "nonconformant")

SCHEMA_VERSION = 1


class ReportInvalid(Exception):
    """The report breaks the schema; `str()` is the message without location."""


# Type markers.  A plain Python type means "exactly this JSON type"; the
# classes below cover the rest.  bool is kept apart from int on purpose: JSON
# `true` must not pass where the schema wants a count.
class Nullable:
    def __init__(self, inner):
        self.inner = inner


class OneOf:
    def __init__(self, *values):
        self.values = values


class ListOf:
    def __init__(self, item):
        self.item = item


class Number:
    pass


class Optional:
    """The field may be absent; when present it must match `inner`."""
    def __init__(self, inner):
        self.inner = inner


class Anything:
    pass


_COUNTS = {v: int for v in VERDICTS}

# A matrix row gives total and PASS, and may give any other verdict's count.
_ROW_COUNTS = {"total": int, "PASS": int,
               **{v: Optional(int) for v in VERDICTS if v != "PASS"}}

_CASE = {
    "id": str, "op": str, "variant": str, "verdict": OneOf(*VERDICTS),
    "detail": str, "clause": str, "dtype": str, "tags": ListOf(str),
    "file": str, "line": int, "expected": str, "got": str,
    "status_agrees": Nullable(bool), "waiver": Anything(),
}

_FINDING = {
    "signature": str, "verdict": OneOf(*VERDICTS), "kind": str, "scope": Nullable(str),
    "runs": int, "cases": int, "ops": ListOf(str), "variants": ListOf(str),
    "dtypes": ListOf(str),
    "example": {"id": str, "variant": str, "expected": str, "got": str, "detail": str},
}

_SKIP = {
    "reason": str, "runs": int, "cases": int, "ops": Anything(), "dtypes": Anything(),
    "variants": Anything(), "example": {"id": str, "variant": str, "detail": str},
}

_LIBRARY = {
    "path": str, "soname": Nullable(str), "sha256": str, "package": Nullable(str),
    "role": OneOf("candidate", "library", "harness"),
}

SCHEMA = {
    "schema_version": int,
    "tool": {"name": str, "version": str},
    "candidate": {"name": str, "version": str, "path": str, "sha256": str,
                  "abi_version": int},
    "suite": {"version": str, "git_commit": str, "cases_sha256": str,
              "case_files": int, "cases_loaded": int, "load_errors": int},
    "host": {"os": str, "cpu": str, "cores": int, "compiler": str,
             "device": Optional(Nullable({"type": str, "dlpack_type": int, "id": int,
                                          "name": str})),
             "sandbox": Optional({"enabled": bool})},
    "options": {"argv": ListOf(str), "variants": ListOf(str),
                "strict_errors": bool, "jobs": int, "timeout_ms": int,
                "isolation": str, "filter": Nullable(str), "tags": ListOf(str),
                "ops": ListOf(str), "shard": str, "seed": int,
                "expectations": Nullable(str), "baseline": Nullable(str)},
    "started_utc": str,
    "duration_s": Number(),
    "verdict": OneOf(*RUN_VERDICTS),
    "summary": {"total": int, **_COUNTS},
    "status_agreement": {"agree": int, "disagree": int},
    "adaptive_timeouts": Optional({"rerun": int, "confirmed": int, "not_confirmed": int}),
    "slots": Optional({"first": int, "added": int}),
    "matrices": {
        "op_clause": ListOf({"op": str, "clause": str, **_ROW_COUNTS}),
        "op_dtype": ListOf({"op": str, "dtype": str, **_ROW_COUNTS}),
        "tag": ListOf({"tag": str, **_ROW_COUNTS}),
    },
    "load_errors": ListOf({"file": str, "line": int, "column": int, "message": str}),
    "findings": Optional(ListOf(_FINDING)),
    "skips": Optional(ListOf(_SKIP)),
    "libraries": Optional(Nullable(ListOf(_LIBRARY))),
    "cases": ListOf(_CASE),
}

_JSON_NAMES = {str: "a string", int: "an integer", bool: "a boolean",
               float: "a number", list: "a list", dict: "an object",
               type(None): "null"}


def _json_name(value):
    return _JSON_NAMES.get(type(value), type(value).__name__)


def _check(value, spec, path):
    """Checks `value` against `spec`; `path` is the dotted field name so far."""
    if isinstance(spec, Anything):
        return
    if isinstance(spec, Nullable):
        if value is not None:
            _check(value, spec.inner, path)
        return
    if isinstance(spec, OneOf):
        if value not in spec.values:
            shown = value if isinstance(value, str) else _json_name(value)
            raise ReportInvalid('field "%s" is "%s", expected one of %s'
                                % (path, shown, ", ".join(spec.values)))
        return
    if isinstance(spec, Number):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ReportInvalid('field "%s" is %s, expected a number'
                                % (path, _json_name(value)))
        return
    if isinstance(spec, ListOf):
        if not isinstance(value, list):
            raise ReportInvalid('field "%s" is %s, expected a list'
                                % (path, _json_name(value)))
        for i, item in enumerate(value):
            _check(item, spec.item, "%s[%d]" % (path, i))
        return
    if isinstance(spec, dict):
        if not isinstance(value, dict):
            raise ReportInvalid('field "%s" is %s, expected an object'
                                % (path or "(top level)", _json_name(value)))
        for key, sub in spec.items():
            name = "%s.%s" % (path, key) if path else key
            if isinstance(sub, Optional):
                if key in value:
                    _check(value[key], sub.inner, name)
                continue
            if key not in value:
                raise ReportInvalid('missing field "%s"%s' % (name, _case_hint(value)))
            _check(value[key], sub, name)
        return
    # A plain type.
    ok = isinstance(value, spec) and not (spec is int and isinstance(value, bool))
    if not ok:
        raise ReportInvalid('field "%s" is %s, expected %s'
                            % (path, _json_name(value), _JSON_NAMES[spec]))


def _case_hint(obj):
    """Names the case an object belongs to, when it has an id, to help find it."""
    case_id = obj.get("id")
    return ' (case "%s")' % case_id if isinstance(case_id, str) else ""


def check(report):
    """Raises ReportInvalid unless `report` (a parsed JSON value) follows
    SCHEMA.md version 1: every listed field present with its type, verdicts
    spelled as the schema spells them, and `schema_version` equal to 1."""
    if isinstance(report, dict) and "schema_version" in report:
        version = report["schema_version"]
        if version != SCHEMA_VERSION or isinstance(version, bool):
            raise ReportInvalid('unsupported schema_version "%s", this renderer reads %d'
                                % (version, SCHEMA_VERSION))
    _check(report, SCHEMA, "")
