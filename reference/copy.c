/*
 * copy.c - the element copy: element i of src in row-major logical order goes
 * to element i of dst in row-major logical order, bit for bit.  Depends on
 * the ABI header and libc only.
 *
 * The plain path is the definition: one loop over logical indices with an
 * odometer per tensor (no division per element), elements moved by bits as
 * the ABI header lays them out.  Two fast paths must give the same bytes:
 * dense into dense moves the whole payload with memmove; with strides,
 * elements of whole bytes go a run at a time (the elements up to the end
 * of the current innermost row of src or dst, whichever comes first), one
 * memcpy when both rows are contiguous.  Switch both off with
 * RESHAPE_REF_PLAIN=1 or reshape_ref_set_plain(1).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

/* ============================================================ the switch */

/* -1: the environment has not been read yet; 0: fast path allowed; 1: plain
 * path only. */
static atomic_int plain_mode = -1;

int reshape_ref_plain(void)
{
    int mode = atomic_load(&plain_mode);

    if (mode < 0) {
        const char *env = getenv("RESHAPE_REF_PLAIN");
        int expected = -1;

        mode = env != NULL && strcmp(env, "1") == 0;
        /* a concurrent reshape_ref_set_plain() wins over the environment */
        if (!atomic_compare_exchange_strong(&plain_mode, &expected, mode))
            mode = expected;
    }
    return mode;
}

void reshape_ref_set_plain(int on)
{
    atomic_store(&plain_mode, on != 0);
}

/* ==================================================== elements by bits */

/*
 * Element access by linear element offset `o` (>= 0, o * bits within int64).
 * u1: element o is bit 7 - o % 8 of byte o / 8 (most significant first).
 * u4, s4: element o is the low nibble of byte o / 2 when o is even, the high
 * nibble when odd.  Wider types are whole bytes, copied as they are.
 */
static unsigned get_bit(const unsigned char *base, int64_t o)
{
    return (base[o >> 3] >> (7 - (o & 7))) & 1u;
}

static void set_bit(unsigned char *base, int64_t o, unsigned v)
{
    unsigned mask = 1u << (7 - (o & 7));

    base[o >> 3] = (unsigned char)((base[o >> 3] & ~mask) | (v ? mask : 0u));
}

static unsigned get_nibble(const unsigned char *base, int64_t o)
{
    return (base[o >> 1] >> ((o & 1) * 4)) & 0xFu;
}

static void set_nibble(unsigned char *base, int64_t o, unsigned v)
{
    unsigned shift = (unsigned)(o & 1) * 4;

    base[o >> 1] = (unsigned char)((base[o >> 1] & ~(0xFu << shift)) |
                                   (v << shift));
}

/* Copies element `s` of `src` to element `d` of `dst`.  memmove, not memcpy:
 * in place, `d` and `s` are the same element. */
static void copy_element(unsigned char *dst, int64_t d,
                         const unsigned char *src, int64_t s, unsigned bits)
{
    size_t bytes = bits / 8;

    switch (bits) {
    case 1: set_bit(dst, d, get_bit(src, s)); break;
    case 4: set_nibble(dst, d, get_nibble(src, s)); break;
    default: memmove(dst + d * (int64_t)bytes, src + s * (int64_t)bytes, bytes);
    }
}

/*
 * The padding bits of the last byte of a dense tensor of `n` elements: the
 * bits no element uses.  u1 fills a byte from the top, u4/s4 from the bottom.
 * Copied from src to dst so that the plain path equals the memmove of the
 * fast path.
 */
static void copy_padding(unsigned char *dst, const unsigned char *src,
                         int64_t n, unsigned bits)
{
    int64_t used = (n * bits) % 8; /* bits of the last byte holding elements */
    int64_t last = (n * bits) / 8;
    unsigned pad;

    if (used == 0)
        return;
    pad = bits == 1 ? 0xFFu >> used : (0xFFu << used) & 0xFFu;
    dst[last] = (unsigned char)((dst[last] & ~pad) | (src[last] & pad));
}

/* =========================================================== the odometer */

/*
 * Walks a tensor's elements in row-major logical order, keeping the linear
 * element offset of the current one.  `strides` NULL means dense row-major.
 * Offsets never leave 0..max_offset, which execute.c has checked.
 */
struct walk {
    int32_t rank;
    const int64_t *dims;
    int64_t strides[RESHAPE_MAX_RANK];
    int64_t index[RESHAPE_MAX_RANK];
    int64_t offset;
};

/* Starts a walk at element 0.  The tensor's volume must be > 0, so the dense
 * strides are at most the volume. */
static void walk_start(struct walk *w, const reshape_tensor *t)
{
    int64_t dense = 1;

    w->rank = t->rank;
    w->dims = t->dims;
    w->offset = 0;
    for (int32_t j = t->rank - 1; j >= 0; j--) {
        w->strides[j] = t->strides != NULL ? t->strides[j] : dense;
        w->index[j] = 0;
        dense *= t->dims[j];
    }
}

/* Moves to the next element; the last dim turns fastest. */
static void walk_next(struct walk *w)
{
    for (int32_t j = w->rank - 1; j >= 0; j--) {
        if (w->index[j] + 1 < w->dims[j]) {
            w->index[j]++;
            w->offset += w->strides[j];
            return;
        }
        /* wrap this dim back to 0, then carry into the next one */
        w->offset -= w->index[j] * w->strides[j];
        w->index[j] = 0;
    }
}

/* Elements left in the current innermost row, the current one included
 * (1 for rank 0). */
static int64_t walk_row_left(const struct walk *w)
{
    int32_t j = w->rank - 1;

    return j < 0 ? 1 : w->dims[j] - w->index[j];
}

/* Moves `k` elements on, 1 <= k <= walk_row_left(w). */
static void walk_skip(struct walk *w, int64_t k)
{
    int32_t j = w->rank - 1;

    if (j >= 0) {
        w->index[j] += k - 1;
        w->offset += (k - 1) * w->strides[j];
    }
    walk_next(w);
}

/* The stride of the innermost dim, in elements (1 for rank 0). */
static int64_t walk_inner_stride(const struct walk *w)
{
    return w->rank > 0 ? w->strides[w->rank - 1] : 1;
}

/* ================================================================ copy */

static void copy_plain(const reshape_tensor *src, const reshape_tensor *dst,
                       int64_t volume, unsigned bits)
{
    struct walk s, d;

    walk_start(&s, src);
    walk_start(&d, dst);
    for (int64_t i = 0; i < volume; i++) {
        copy_element(dst->data, d.offset, src->data, s.offset, bits);
        walk_next(&s);
        walk_next(&d);
    }
    if (src->strides == NULL && dst->strides == NULL)
        copy_padding(dst->data, src->data, volume, bits);
}

/*
 * The plain loop a run at a time, for elements of whole bytes (`bytes`
 * each) with strides: the elements up to the end of the current innermost
 * row of src or dst, whichever ends first, in the plain loop's order.  Out
 * of place (execute.c), so a contiguous run is one memcpy.
 */
static void copy_runs(const reshape_tensor *src, const reshape_tensor *dst,
                      int64_t volume, int64_t bytes)
{
    struct walk s, d;
    unsigned char *to = dst->data;
    const unsigned char *from = src->data;

    walk_start(&s, src);
    walk_start(&d, dst);
    for (int64_t i = 0; i < volume;) {
        int64_t k = walk_row_left(&s), dk = walk_row_left(&d);
        int64_t ss = walk_inner_stride(&s), ds = walk_inner_stride(&d);

        if (dk < k)
            k = dk;
        if (ss == 1 && ds == 1) {
            memcpy(to + d.offset * bytes, from + s.offset * bytes,
                   (size_t)(k * bytes));
        } else {
            for (int64_t e = 0; e < k; e++)
                memcpy(to + (d.offset + e * ds) * bytes,
                       from + (s.offset + e * ss) * bytes, (size_t)bytes);
        }
        walk_skip(&s, k);
        walk_skip(&d, k);
        i += k;
    }
}

void reshape_ref_copy(const reshape_tensor *src, const reshape_tensor *dst,
                      int64_t volume)
{
    unsigned bits = reshape_dtype_bits(src->dtype);

    if (reshape_ref_plain()) {
        copy_plain(src, dst, volume, bits);
    } else if (src->strides == NULL && dst->strides == NULL) {
        /* ceil(volume * bits / 8) bytes: the padding bits come along */
        int64_t bytes = (volume * bits + 7) / 8;

        if (dst->data != src->data)
            memmove(dst->data, src->data, (size_t)bytes);
    } else if (bits % 8 == 0) {
        copy_runs(src, dst, volume, bits / 8);
    } else {
        copy_plain(src, dst, volume, bits);
    }
}
