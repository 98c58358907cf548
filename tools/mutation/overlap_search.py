"""
overlap_search.py - the exhaustive searches that tools/mutation/equivalent.yaml
cites for two survivors of reference/overlap.c (the overlap test of
reference/DECISIONS.md D12), so that the claims are measured, not argued:

  holes  Every dst the test reaches step 4 with (no dim of stride 0, not
         nested by step 3) whose offsets are distinct leaves at least two of
         the offsets 0..largest unused: step 4 firing at a volume of the
         largest offset or one above it (overlap.c:111:16:aor:+,
         overlap.c:111:18:cst:0) changes no answer.
  shift  enumerate() started with index[0] = 1 (overlap.c:43:40:cst:1)
         answers as the original on every dst it reaches, and visits no
         offset outside 0..largest.

Both walk every sorted list of dims of the given sizes and strides (a dst's
dims of size 1 are dropped before the test, and the test sorts the rest).
Depends on Python 3 only.  Usage: overlap_search.py; prints one line per
search and exits 0 when both hold, 1 otherwise.
"""
import itertools
import sys

# (dims, sizes, largest stride) of each space searched
SPACES = [(2, range(2, 6), 24), (3, range(2, 6), 24), (4, range(2, 4), 12)]


def steps(dims):
    """(reach, volume, nested) of sorted (size, stride) dims, as step 3."""
    reach, volume, nested = 0, 1, True
    for size, stride in dims:
        if stride <= reach:
            nested = False
        reach += (size - 1) * stride
        volume *= size
    return reach, volume, nested


def enumerate_offsets(dims, last, first_index):
    """overlap.c's enumerate(): 1 on a repeat, 0 without, None when an
    offset leaves 0..last; index[0] starts at `first_index`."""
    seen, index, offset = set(), [0] * len(dims), 0
    index[0] = first_index
    while True:
        if offset < 0 or offset > last:
            return None
        if offset in seen:
            return 1
        seen.add(offset)
        j = 0
        while j < len(dims) and index[j] + 1 == dims[j][0]:
            offset -= index[j] * dims[j][1]
            index[j] = 0
            j += 1
        if j == len(dims):
            return 0
        index[j] += 1
        offset += dims[j][1]


def layouts():
    """Every sorted (size, stride) list of SPACES that reaches step 4."""
    for n, sizes, top in SPACES:
        for strides in itertools.combinations_with_replacement(
                range(1, top + 1), n):
            for dims_sizes in itertools.product(sizes, repeat=n):
                dims = list(zip(dims_sizes, strides))
                if not steps(dims)[2]:
                    yield dims


def main():
    count, holes, shifts = 0, [], []
    for dims in layouts():
        count += 1
        reach, volume, _ = steps(dims)
        if volume - 1 > reach:
            continue  # step 4 fires in both builds
        original = enumerate_offsets(dims, reach, 0)
        if original == 0 and volume >= reach:
            holes.append(dims)
        if enumerate_offsets(dims, reach, 1) != original:
            shifts.append(dims)
    print("holes: %d dsts reach step 4, %d distinct with fewer than two "
          "unused offsets%s" % (count, len(holes),
                                ", first %s" % holes[0] if holes else ""))
    print("shift: %d answer otherwise with index[0] = 1%s" % (
        len(shifts), ", first %s" % shifts[0] if shifts else ""))
    return 1 if holes or shifts else 0


if __name__ == "__main__":
    sys.exit(main())
