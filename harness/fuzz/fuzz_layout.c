/*
 * fuzz_layout.c - the layouts of reference/DECISIONS.md D12 on fuzz
 * requests (fuzz_case.h, fuzz_layout): a broadcast src (zero strides on
 * random dims above 1, the stored rows now and then deep in their buffer),
 * zero, odd and huge strides on the dims of 1 of src and dst, and a dst
 * whose elements overlap, which expects INVALID_ARGUMENT.  The choice is
 * drawn from the request's seed alone, so a shrunk neighbour keeps its
 * kind of layout over its own dims.  Depends on case.h and strided.h.
 */
#include "fuzz_case.h"

#include <string.h>

#include "suite/suite.h"

/* A draw in [0, n). */
static uint64_t pick(uint64_t *st, uint64_t n)
{
    return splitmix64_next(st) % n;
}

/* Dense row-major strides of `dims` into `out`, a 0 dim counted as 1. */
static void dense(int32_t rank, const int64_t *dims, int64_t *out)
{
    int64_t s = 1;
    for (int32_t i = rank - 1; i >= 0; i--) {
        out[i] = s;
        s *= dims[i] ? dims[i] : 1;
    }
}

/* A stride for a dim of 1: 0, odd, 2^58, the largest, or just below the
 * 2^63-bit bound; none of them moves an element (D12). */
static int64_t size1_stride(uint64_t *st, unsigned bits)
{
    switch (pick(st, 5)) {
    case 0: return 0;
    case 1: return (int64_t)(2 * pick(st, 50) + 3);
    case 2: return INT64_C(1) << 58;
    case 3: return INT64_MAX;
    default: return (INT64_MAX - 7) / (int64_t)bits - 1;
    }
}

/* Zero strides on some dims above 1 (at least one), dense strides of the
 * stored rows on the rest; now and then 8 elements into the buffer (a
 * whole byte for every dtype). */
static int broadcast_src(uint64_t *st, rcase *c)
{
    int64_t stored[RESHAPE_MAX_RANK];
    int any = 0;
    memcpy(stored, c->dims, sizeof stored);
    for (int32_t i = 0; i < c->rank; i++)
        if (c->dims[i] > 1 && (pick(st, 2) || (!any && i == c->rank - 1))) {
            stored[i] = 1;
            any = 1;
        }
    for (int32_t i = c->rank - 1; !any && i >= 0; i--)
        if (c->dims[i] > 1)
            stored[i] = 1, any = 1;
    if (!any)
        return 0;
    dense(c->rank, stored, c->src_layout.strides);
    for (int32_t i = 0; i < c->rank; i++)
        if (stored[i] != c->dims[i])
            c->src_layout.strides[i] = 0;
    c->src_layout.strided = 1;
    c->src_layout.offset = pick(st, 3) == 0 ? 8 : 0;
    return 1;
}

/* Zero, odd and huge strides on the dims of 1 of src and of dst. */
static int size1_strides(uint64_t *st, rcase *c)
{
    unsigned bits = reshape_dtype_bits(c->dtype);
    const outcome *o = &c->outcomes[0];
    int any = 0;
    dense(c->rank, c->dims, c->src_layout.strides);
    for (int32_t i = 0; i < c->rank; i++)
        if (c->dims[i] == 1) {
            c->src_layout.strides[i] = size1_stride(st, bits);
            c->src_layout.strided = any = 1;
        }
    dense(o->rank, o->dims, c->dst_layout.strides);
    for (int32_t i = 0; i < o->rank; i++)
        if (o->dims[i] == 1) {
            c->dst_layout.strides[i] = size1_stride(st, bits);
            c->dst_layout.strided = any = 1;
        }
    return any;
}

/* A zero stride on a dim above 1 of dst: two elements at one offset, so
 * the call must fail (D12) and write nothing. */
static int aliasing_dst(uint64_t *st, rcase *c)
{
    const outcome *o = &c->outcomes[0];
    int32_t at = -1;
    for (int32_t i = 0; i < o->rank; i++)
        if (o->dims[i] > 1 && (at < 0 || pick(st, 2)))
            at = i;
    if (at < 0)
        return 0;
    dense(o->rank, o->dims, c->dst_layout.strides);
    c->dst_layout.strides[at] = 0;
    c->dst_layout.strided = 1;
    c->dst_has_dims = 1;
    return 1;
}

void fuzz_layout(rcase *c)
{
    memset(&c->src_layout, 0, sizeof c->src_layout);
    memset(&c->dst_layout, 0, sizeof c->dst_layout);
    c->dst_has_dims = c->in_place = 0;
    c->storage_elems = c->volume;
    c->storage_bytes = c->payload_bytes;
    c->layout_bytes = 0;
    if (c->infer_only || c->noutcomes != 1 || c->outcomes[0].is_error || c->volume == 0)
        return;
    uint64_t st = c->data.seed ^ UINT64_C(0x4C41594F55545321);
    int kind = (int)pick(&st, 8), made = 0;
    if (kind == 0)
        made = broadcast_src(&st, c);
    else if (kind == 1)
        made = size1_strides(&st, c);
    else if (kind == 2)
        made = aliasing_dst(&st, c);
    if (!made) {
        memset(&c->src_layout, 0, sizeof c->src_layout);
        memset(&c->dst_layout, 0, sizeof c->dst_layout);
        return;
    }
    unsigned bits = reshape_dtype_bits(c->dtype);
    outcome *o = &c->outcomes[0];
    c->dst_rank = o->rank;
    memcpy(c->dst_dims, o->dims, sizeof c->dst_dims);
    if (c->src_layout.strided) {
        c->storage_elems = (uint64_t)c->src_layout.offset +
                           strided_extent(c->rank, c->dims, c->src_layout.strides);
        c->storage_bytes = payload_size(c->storage_elems, bits);
        c->layout_bytes = c->storage_bytes;
    }
    if (c->dst_layout.strided) {
        uint64_t span = payload_size(strided_extent(o->rank, o->dims, c->dst_layout.strides), bits);
        c->layout_bytes = span > c->layout_bytes ? span : c->layout_bytes;
    }
    if (c->dst_has_dims) {
        o->is_error = 1;
        o->error = RESHAPE_E_INVALID_ARGUMENT;
    }
}
