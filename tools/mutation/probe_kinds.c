/*
 * probe_kinds.c - the equivalence probe's calls beside the plain valid ones
 * (probe.h): dsts the overlap test enumerates, wide ranks with dims of 1,
 * misuse, and src and dst that partly overlap; and the probe's own account
 * of the overlap test (probe_bitmap_words).  Depends on probe.h.
 */
#include <stdio.h>
#include <string.h>

#include "probe.h"

static int one_in(uint64_t *st, uint64_t n)
{
    return probe_below(st, n) == 0;
}

/* Stride pairs whose dsts the suite's cases name (cases/overlap_enumeration.yaml). */
static const int64_t named_k[] = {234, 4304, 65536};

/*
 * dst strides for dims `d` whose elements mostly never share an offset but
 * are not nested: the first two dims above 1 get K and K + delta (delta -1
 * to 2: 0 and -1 overlap when both dims are above 1), the others strides
 * beyond everything before them; K is drawn so that the dst's extent stays
 * within `cap_elems`.  Returns 0 when fewer than two dims are above 1, or
 * a dim is 0 or above 64.
 */
static int interleave(uint64_t *st, probe_tensor *t, uint64_t cap_elems)
{
    int idx[RESHAPE_MAX_RANK], n = 0;
    for (int32_t i = 0; i < t->rank; i++) {
        if (t->dims[i] == 0 || t->dims[i] > 64)
            return 0; /* empty (its dims may be huge), or too long to interleave */
        if (t->dims[i] > 1)
            idx[n++] = i;
    }
    if (n < 2)
        return 0;
    int64_t span = t->dims[idx[0]] + t->dims[idx[1]];
    uint64_t kmax = cap_elems / (uint64_t)(4 * span) + 3;
    int64_t k = one_in(st, 3) ? named_k[probe_below(st, 3)]
                              : 2 + (int64_t)probe_below(st, kmax < 400000 ? kmax : 400000);
    if ((uint64_t)k > kmax)
        k = 2 + (int64_t)probe_below(st, kmax);
    int64_t delta = one_in(st, 3) ? (int64_t)probe_below(st, 4) - 1 : 1;
    for (int32_t i = 0; i < t->rank; i++)
        t->strides[i] = (int64_t)probe_below(st, 3);
    t->strides[idx[0]] = k;
    t->strides[idx[1]] = k + delta;
    int64_t reach = (t->dims[idx[0]] - 1) * k + (t->dims[idx[1]] - 1) * (k + delta);
    for (int j = 2; j < n; j++) {
        t->strides[idx[j]] = reach + 1 + (int64_t)probe_below(st, 3);
        reach += (t->dims[idx[j]] - 1) * t->strides[idx[j]];
    }
    if (one_in(st, 2)) { /* the pair the other way round */
        int64_t s = t->strides[idx[0]];
        t->strides[idx[0]] = t->strides[idx[1]];
        t->strides[idx[1]] = s;
    }
    t->strided = 1;
    return 1;
}

/* dims of 1 spread among `n` dims [a, b, ...] up to rank `rank`. */
static void spread_ones(uint64_t *st, int64_t *dims, int n, int32_t rank)
{
    int64_t out[RESHAPE_MAX_RANK];
    int at = 0;
    for (int32_t i = 0; i < rank; i++) {
        int left = rank - i;
        if (at < n && (left == n - at || one_in(st, (uint64_t)(rank - n) / 2 + 1)))
            out[i] = dims[at++];
        else
            out[i] = 1;
    }
    memcpy(dims, out, (size_t)rank * sizeof dims[0]);
}

/* A dst of [a, b] (or a few more dims, or among dims of 1) with strides
 * [K, K + delta]: the overlap test's step 5.  Now and then a dst of
 * [a, 2, 2] with strides [1, a - 1, 2a + 1], whose largest offset is its
 * volume less one: small a enumerates; a of 2^30 and more asks for a bitmap
 * the allocator refuses (probe.py caps allocations), the dst's buffer not
 * staged in full (the call is refused before anything is written, and a
 * write faults on the guard page). */
void probe_draw_enum(uint64_t *st, probe_call *c, const reshape_candidate *original)
{
    c->kind = PROBE_ENUM;
    if (one_in(st, 5)) {
        static const int shifts[] = {2, 4, 8, 12, 30, 31, 33, 37};
        int64_t a = (INT64_C(1) << shifts[probe_below(st, 8)]) + (int64_t)probe_below(st, 3);
        c->kind = a > (INT64_C(1) << 20) ? PROBE_ENUM_HUGE : PROBE_ENUM;
        c->op = RESHAPE_OP_OPENVINO_RESHAPE_1;
        c->special_zero = 1;
        c->src.rank = 3;
        c->src.dims[0] = a;
        c->src.dims[1] = c->src.dims[2] = 2;
        c->src.strided = 1; /* a broadcast: one element */
        c->nvalues = 3;     /* [0, 0, 0]: dst has src's dims */
        c->shape_dtype = RESHAPE_DT_S64;
        c->shape_rank = 1;
        c->shape_dims[0] = 3;
        c->dst.rank = 3;
        memcpy(c->dst.dims, c->src.dims, sizeof c->dst.dims);
        c->dst.strides[0] = 1;
        c->dst.strides[1] = a - 1;
        c->dst.strides[2] = 2 * a + 1 + (int64_t)probe_below(st, 2);
        c->dst.strided = 1;
        c->src.bytes = c->dst.bytes = PROBE_FAR_BYTES;
        c->src.at = PROBE_GUARD;
        c->dst.at = c->src.at + c->src.bytes + PROBE_GUARD;
        c->arena_bytes = c->dst.at + c->dst.bytes + PROBE_GUARD;
        return;
    }
    int n = 2 + one_in(st, 4);
    int64_t dims[RESHAPE_MAX_RANK];
    for (int i = 0; i < n; i++)
        dims[i] = 2 + (int64_t)probe_below(st, 3);
    if (one_in(st, 2))
        c->dtype = RESHAPE_DT_U1;
    int32_t rank = one_in(st, 3) ? (int32_t)(n + probe_below(st, PROBE_RANK_WIDE - n + 1)) : n;
    c->src.rank = 1;
    c->src.dims[0] = dims[0] * dims[1] * (n == 3 ? dims[2] : 1);
    c->nvalues = rank;
    spread_ones(st, dims, n, rank);
    for (int32_t i = 0; i < rank; i++)
        c->values[i] = dims[i];
    probe_shape(st, c);
    probe_infer_dst(c, original);
    unsigned bits = reshape_dtype_bits(c->dtype);
    interleave(st, &c->dst, (uint64_t)(PROBE_ARENA_CAP / 2) * 8 / (bits ? bits : 8));
    if (one_in(st, 3))
        probe_view(st, &c->src);
    probe_place(st, c, one_in(st, 3));
    if (c->arena_bytes > PROBE_ARENA_CAP) {
        c->src.strided = c->dst.strided = 0;
        probe_place(st, c, 0);
    }
}

/* Ranks 7 to 16, most dims 1, a few 2 or 3; the shape keeps, merges or
 * drops the dims of 1; src and dst dense, strided, or dst interleaved. */
void probe_draw_wide(uint64_t *st, probe_call *c, const reshape_candidate *original)
{
    c->kind = PROBE_WIDE;
    c->src.rank = 7 + (int32_t)probe_below(st, PROBE_RANK_WIDE - 6);
    for (int32_t i = 0; i < c->src.rank; i++)
        c->src.dims[i] = one_in(st, 4) ? 2 + (int64_t)probe_below(st, 2) : 1;
    if (one_in(st, 12))
        c->src.dims[probe_below(st, (uint64_t)c->src.rank)] = 0;
    probe_values(st, c);
    probe_shape(st, c);
    probe_infer_dst(c, original);
    if (one_in(st, 2))
        probe_view(st, &c->src);
    if (one_in(st, 2) && !interleave(st, &c->dst, 1u << 16))
        probe_view(st, &c->dst);
    probe_place(st, c, one_in(st, 3));
    if (c->arena_bytes > PROBE_ARENA_CAP) {
        c->src.strided = c->dst.strided = 0;
        probe_place(st, c, 0);
    }
}

static const char *const misuse_names[MISUSE_COUNT] = {
    "", ", src dims NULL", ", dst dims NULL", ", shape dims NULL", ", src data NULL",
    ", dst data NULL", ", params NULL", ", src NULL", ", dst NULL", ", shape NULL",
    ", out_rank NULL", ", out_dims NULL", ", src rank 33", ", src rank -1",
    ", src dims[0] -1", ", src strides[0] -1", ", dtype unknown", ", op unknown",
    ", special_zero 2"};

const char *probe_misuse_name(int misuse)
{
    return misuse > 0 && misuse < MISUSE_COUNT ? misuse_names[misuse] : "";
}

/* A small valid call, then one misuse (probe.c applies it); the allowed
 * NULLs come with the rank 0 or volume 0 that allows them. */
void probe_draw_misuse(uint64_t *st, probe_call *c, const reshape_candidate *original)
{
    c->kind = PROBE_MISUSE;
    c->misuse = 1 + (int)probe_below(st, MISUSE_COUNT - 1);
    c->src.rank = (int32_t)probe_below(st, 4);
    for (int32_t i = 0; i < c->src.rank; i++)
        c->src.dims[i] = 1 + (int64_t)probe_below(st, 3);
    if (c->misuse == MISUSE_SRC_DIMS_NULL || c->misuse == MISUSE_DST_DIMS_NULL ||
        c->misuse == MISUSE_SHAPE_DIMS_NULL)
        c->src.rank = one_in(st, 6) ? 1 : 0;
    if ((c->misuse == MISUSE_SRC_DATA_NULL || c->misuse == MISUSE_DST_DATA_NULL) &&
        !one_in(st, 6)) {
        c->src.rank = c->src.rank ? c->src.rank : 1;
        c->src.dims[probe_below(st, (uint64_t)c->src.rank)] = 0;
    }
    probe_values(st, c);
    if (c->misuse == MISUSE_DST_DIMS_NULL || c->misuse == MISUSE_SHAPE_DIMS_NULL)
        c->nvalues = (int)probe_below(st, 2); /* [] or [v]: dst rank 0 or a rank-0 shape */
    probe_shape(st, c);
    if (c->misuse == MISUSE_SHAPE_DIMS_NULL && c->nvalues == 1) {
        c->shape_rank = 0;
        c->shape_dims[0] = 1;
    }
    probe_infer_dst(c, original);
    if (one_in(st, 2) || c->misuse == MISUSE_STRIDE_NEGATIVE)
        probe_view(st, one_in(st, 2) ? &c->src : &c->dst);
    probe_place(st, c, one_in(st, 2));
}

/* A plain call whose dst starts inside src's buffer (neither apart nor
 * exactly in place): outside the ABI, so only the statuses and dims are
 * compared, when both builds return (probe_call.c). */
void probe_draw_partial(uint64_t *st, probe_call *c, const reshape_candidate *original)
{
    c->kind = PROBE_PARTIAL;
    c->src.rank = 1 + (int32_t)probe_below(st, 3);
    for (int32_t i = 0; i < c->src.rank; i++)
        c->src.dims[i] = 1 + (int64_t)probe_below(st, 5);
    probe_values(st, c);
    probe_shape(st, c);
    probe_infer_dst(c, original);
    if (one_in(st, 2))
        probe_view(st, &c->src);
    if (one_in(st, 2))
        probe_view(st, &c->dst);
    probe_place(st, c, 0);
    if (c->src.bytes > 1) {
        c->dst.at = c->src.at + 1 + probe_below(st, c->src.bytes - 1);
        size_t end = c->dst.at + c->dst.bytes > c->src.at + c->src.bytes
                         ? c->dst.at + c->dst.bytes
                         : c->src.at + c->src.bytes;
        c->arena_bytes = end + PROBE_GUARD;
    }
}

static int64_t clamp_add(int64_t a, int64_t b)
{
    return a > INT64_MAX - b ? INT64_MAX : a + b;
}

uint64_t probe_bitmap_words(const probe_call *c)
{
    const probe_tensor *t = &c->dst;
    int64_t size[RESHAPE_MAX_RANK], stride[RESHAPE_MAX_RANK], volume = 1, reach = 0;
    int n = 0, nested = 1;
    if (!t->strided || c->in_place || c->misuse || c->far)
        return 0;
    for (int32_t i = 0; i < t->rank; i++) {
        if (t->dims[i] == 0)
            return 0;
        if (t->dims[i] > 1) {
            if (t->strides[i] == 0)
                return 0;
            size[n] = t->dims[i];
            stride[n++] = t->strides[i];
        }
    }
    for (int i = 1; i < n; i++) /* by stride, smallest first */
        for (int j = i; j > 0 && stride[j - 1] > stride[j]; j--) {
            int64_t s = stride[j], z = size[j];
            stride[j] = stride[j - 1], size[j] = size[j - 1];
            stride[j - 1] = s, size[j - 1] = z;
        }
    for (int i = 0; i < n; i++) {
        if (stride[i] <= reach)
            nested = 0;
        if (stride[i] > INT64_MAX / (size[i] - 1))
            return 0;
        reach = clamp_add(reach, (size[i] - 1) * stride[i]);
        volume = volume > INT64_MAX / size[i] ? INT64_MAX : volume * size[i];
    }
    if (nested || volume - 1 > reach)
        return 0;
    return (uint64_t)reach / 64 + 1;
}
