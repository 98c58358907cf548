"""The bytes of a strided tensor, as the ABI header and DECISIONS.md D12 define them.

"Element (i0..ik) is at linear offset sum(i_j * strides[j]) from data"
(include/reshape_candidate.h); a copy moves element i of src in row-major
logical order to element i of dst.  This module computes, in Python alone,
what a reshape of a strided input must write: the payload fills of
cases/FORMAT.md ("Data": iota, splitmix64 random), each element's offset,
the elements gathered from a buffer by their offsets (sub-byte ones by
bits, as the header packs them), a tensor's extent and whether two of its
elements share an offset.  It never reads or calls the C reference or the
harness.  Depends on model.py.
"""

import itertools

import model

MASK64 = (1 << 64) - 1


def dense_strides(dims):
    """Row-major strides of `dims` (a 0 dim counted as 1)."""
    strides, step = [], 1
    for d in reversed(dims):
        strides.append(step)
        step *= d if d else 1
    return list(reversed(strides))


def extent(dims, strides):
    """1 + sum((d - 1) * s); 0 for an empty tensor (D12)."""
    if any(d == 0 for d in dims):
        return 0
    return 1 + sum((d - 1) * s for d, s in zip(dims, strides))


def offsets(dims, strides, offset=0):
    """Every element's offset, in row-major logical order."""
    return [offset + sum(i * s for i, s in zip(index, strides))
            for index in itertools.product(*(range(d) for d in dims))]


def overlaps(dims, strides):
    """Whether two elements share an offset (by a set of all of them)."""
    seen = offsets(dims, strides)
    return len(set(seen)) != len(seen)


def _splitmix64(seed, count):
    state, out = seed, []
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        out.append(z ^ (z >> 31))
    return out


def fill(data, count, dtype):
    """The bytes FORMAT.md's `data` (None or "iota", {"random": SEED}) defines
    for `count` elements of `dtype`."""
    bits = model.DTYPE_BITS[dtype]
    size = (count * bits + 7) // 8
    if data is None or data == "iota":
        out = bytearray(size)
        for i in range(count):
            put(out, i, bits, i % (1 << bits))
        return bytes(out)
    draws = _splitmix64(data["random"], (size + 7) // 8)
    return b"".join(d.to_bytes(8, "little") for d in draws)[:size]


def get(buf, offset, bits):
    """The element at element offset `offset`, as an unsigned integer."""
    if bits == 1:
        return (buf[offset // 8] >> (7 - offset % 8)) & 1
    if bits == 4:
        return (buf[offset // 2] >> (offset % 2 * 4)) & 0xF
    width = bits // 8
    return int.from_bytes(buf[offset * width:(offset + 1) * width], "little")


def put(buf, offset, bits, value):
    """Stores `value` at element offset `offset` of bytearray `buf`."""
    if bits == 1:
        shift = 7 - offset % 8
        buf[offset // 8] = (buf[offset // 8] & ~(1 << shift)) | ((value & 1) << shift)
    elif bits == 4:
        shift = offset % 2 * 4
        buf[offset // 2] = (buf[offset // 2] & ~(0xF << shift)) | ((value & 0xF) << shift)
    else:
        width = bits // 8
        buf[offset * width:(offset + 1) * width] = value.to_bytes(width, "little")


def gather(buf, dims, strides, offset, dtype):
    """The elements of the tensor over `buf`, dense in row-major order (the
    padding bits of a sub-byte payload 0): what a reshape writes."""
    bits = model.DTYPE_BITS[dtype]
    where = offsets(dims, strides, offset)
    out = bytearray((len(where) * bits + 7) // 8)
    for i, o in enumerate(where):
        put(out, i, bits, get(buf, o, bits))
    return bytes(out)
