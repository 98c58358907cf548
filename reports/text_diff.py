"""text_diff - marks where a case's `got` differs from its `expected`.

Depends on the standard library only (difflib).
"""

import difflib
import re

# Numbers and names are compared whole: "150" against "15" is a changed
# number, not a deleted "0".
_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")

# Below this similarity two texts are shown as wholly different; marking the
# few characters "error NOT_DIVISIBLE" and "shape [6]" happen to share helps
# nobody.
MIN_RATIO = 0.4

# Longer texts are compared on their first LIMIT characters only; difflib is
# quadratic in the worst case and a report may hold thousands of failures.
LIMIT = 2000


def segments(expected, got):
    """Splits both texts into runs that are the same in both or differ.

    The texts are compared as sequences of tokens (runs of letters, digits
    and "_"; runs of spaces; single other characters).  Returns (left, right):
    lists of (changed, text) pairs whose texts join to `expected` and `got`
    (each cut at LIMIT characters, with "..." appended when cut).  `changed`
    is True for a run the other side does not have.  Equal texts give one
    unchanged run a side; texts less than MIN_RATIO alike give one changed
    run a side; an empty text gives no runs."""
    a, b = _TOKEN.findall(_cut(expected)), _TOKEN.findall(_cut(got))
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.ratio() < MIN_RATIO:
        return _runs([(True, "".join(a))]), _runs([(True, "".join(b))])
    left, right = [], []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            left.append((False, "".join(a[i1:i2])))
            right.append((False, "".join(b[j1:j2])))
            continue
        if i2 > i1:
            left.append((True, "".join(a[i1:i2])))
        if j2 > j1:
            right.append((True, "".join(b[j1:j2])))
    return _runs(left), _runs(right)


def _runs(pairs):
    """Drops empty runs and merges neighbours with the same `changed`."""
    out = []
    for changed, text in pairs:
        if not text:
            continue
        if out and out[-1][0] == changed:
            out[-1] = (changed, out[-1][1] + text)
        else:
            out.append((changed, text))
    return out


def _cut(text):
    return text if len(text) <= LIMIT else text[:LIMIT] + "..."
