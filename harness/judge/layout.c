/*
 * layout.c - buffer layouts of the variants and of a case's own strides;
 * see layout.h.  Depends on fill.h (sub-byte access), strided.h and libc.
 */
#include "layout.h"

#include <stdlib.h>
#include <string.h>

#include "suite/suite.h"

/* a * b for a, b >= 0, or INT64_MAX when the product leaves int64. */
static int64_t mul_sat(int64_t a, int64_t b)
{
    int64_t p;
    return __builtin_mul_overflow(a, b, &p) ? INT64_MAX : p;
}

/* The next stride outward after `s` and a dim `d`: s * d, a 0 dim counted
 * as 1, saturated at INT64_MAX. */
static int64_t stride_after(int64_t s, int64_t d)
{
    return mul_sat(s, d ? d : 1);
}

/* Volume and span from dims, strides and offset, saturated at UINT64_MAX
 * (only a tensor that is never allocated gets there). */
static void finish(tlayout *l)
{
    l->volume = 1;
    for (int32_t i = 0; i < l->rank; i++)
        if (__builtin_mul_overflow(l->volume, (uint64_t)l->dims[i], &l->volume))
            l->volume = UINT64_MAX;
    uint64_t extent = strided_extent(l->rank, l->dims, l->strides);
    l->span_elems = extent > UINT64_MAX - l->offset ? UINT64_MAX : l->offset + extent;
    l->span_bytes = payload_size(l->span_elems, l->bits);
}

/* Gives every dim of 1 the stride dense row-major gives it (a 0 dim
 * counted as 1), whatever the layout gave it: it moves nothing (D12), and
 * only the size1_strides variant and a case's own strides give it another. */
static void size1_dense(tlayout *l)
{
    int64_t s = 1;
    for (int32_t i = l->rank - 1; i >= 0; i--) {
        if (l->dims[i] == 1)
            l->strides[i] = s;
        s = stride_after(s, l->dims[i]);
    }
}

static void set_dims(tlayout *l, int32_t rank, const int64_t *dims, unsigned bits)
{
    memset(l, 0, sizeof *l);
    l->rank = rank;
    l->bits = bits;
    for (int32_t i = 0; i < rank; i++)
        l->dims[i] = dims[i];
}

void layout_dense(tlayout *l, int32_t rank, const int64_t *dims, unsigned bits)
{
    set_dims(l, rank, dims, bits);
    int64_t s = 1;
    for (int32_t i = rank - 1; i >= 0; i--) {
        l->strides[i] = s;
        s = stride_after(s, dims[i]);
    }
    finish(l);
}

void layout_padded(tlayout *l, int32_t rank, const int64_t *dims, unsigned bits)
{
    set_dims(l, rank, dims, bits);
    l->strided = 1;
    if (rank == 1) {
        l->strides[0] = 2;
    } else {
        int64_t s = 1;
        for (int32_t i = rank - 1; i >= 0; i--) {
            l->strides[i] = s;
            s = stride_after(s, dims[i]);
            if (i == rank - 1 && s < INT64_MAX)
                s += 1;   /* one element of padding after each row */
        }
    }
    size1_dense(l);
    finish(l);
}

void layout_permuted(tlayout *l, int32_t rank, const int64_t *dims, unsigned bits)
{
    set_dims(l, rank, dims, bits);
    l->strided = 1;
    int64_t s = 1;
    for (int32_t i = 0; i < rank; i++) {
        l->strides[i] = s;
        s = stride_after(s, dims[i]);
    }
    size1_dense(l);
    finish(l);
}

void layout_strided(tlayout *l, int32_t rank, const int64_t *dims, const int64_t *strides,
                    uint64_t offset, unsigned bits)
{
    set_dims(l, rank, dims, bits);
    l->strided = 1;
    l->offset = offset;
    memcpy(l->strides, strides, (size_t)rank * sizeof *strides);
    finish(l);
}

int layout_broadcast_dim(int32_t rank, const int64_t *dims)
{
    int at = -1;
    for (int32_t i = rank - 1; i >= 0; i--) {
        if (dims[i] == 0)
            return -1;
        if (dims[i] > 1)
            at = i;
    }
    return at;
}

void layout_broadcast(tlayout *l, int32_t rank, const int64_t *dims, unsigned bits)
{
    int at = layout_broadcast_dim(rank, dims);
    int64_t stored[RESHAPE_MAX_RANK];
    memcpy(stored, dims, (size_t)rank * sizeof *dims);
    stored[at] = 1;
    layout_dense(l, rank, stored, bits);
    l->dims[at] = dims[at];
    l->strides[at] = 0;
    l->strided = 1;
    size1_dense(l);
    finish(l);
}

const int64_t LAYOUT_SIZE1_STRIDES[3] = {INT64_C(1) << 58, 0, 5};

int layout_has_size1(int32_t rank, const int64_t *dims)
{
    for (int32_t i = 0; i < rank; i++)
        if (dims[i] == 1)
            return 1;
    return 0;
}

void layout_size1(tlayout *l, int32_t rank, const int64_t *dims, unsigned bits)
{
    layout_dense(l, rank, dims, bits);
    l->strided = 1;
    for (int32_t i = 0, k = 0; i < rank; i++)
        if (dims[i] == 1)
            l->strides[i] = LAYOUT_SIZE1_STRIDES[k++ % 3];
}

unsigned layout_flags(const tlayout *l, int is_src)
{
    if (!l->strided)
        return 0;
    unsigned f = is_src ? RESHAPE_LAYOUT_STRIDED_SRC : RESHAPE_LAYOUT_STRIDED_DST;
    if (is_src && strided_overlaps(l->rank, l->dims, l->strides) == 1)
        f |= RESHAPE_LAYOUT_BROADCAST_SRC;
    tlayout dense;
    layout_dense(&dense, l->rank, l->dims, l->bits);
    for (int32_t i = 0; i < l->rank; i++)
        if (l->dims[i] == 1 && l->strides[i] != dense.strides[i])
            f |= RESHAPE_LAYOUT_SIZE1_STRIDES;
    return f;
}

uint64_t layout_offset(const tlayout *l, uint64_t linear)
{
    uint64_t off = l->offset;
    for (int32_t i = l->rank - 1; i >= 0; i--) {
        uint64_t d = (uint64_t)l->dims[i];
        off += (linear % d) * (uint64_t)l->strides[i];
        linear /= d;
    }
    return off;
}

void layout_index(const tlayout *l, uint64_t linear, int64_t *idx)
{
    for (int32_t i = l->rank - 1; i >= 0; i--) {
        uint64_t d = (uint64_t)l->dims[i];
        idx[i] = d ? (int64_t)(linear % d) : 0;
        linear = d ? linear / d : 0;
    }
}

/* Runs `body` for every element in row-major order with its index `i` and
 * offset `off` (strided.h's walk: no division per element). */
#define FOR_EACH_ELEMENT(l, i, off, body)                                        \
    do {                                                                         \
        strided_walk w_;                                                         \
        strided_walk_start(&w_, (l)->rank, (l)->dims, (l)->strides, (l)->offset); \
        for (uint64_t i = 0; i < (l)->volume; i++, strided_walk_next(&w_)) {     \
            uint64_t off = w_.offset;                                            \
            body;                                                                \
        }                                                                        \
    } while (0)

void layout_scatter(const tlayout *l, const uint8_t *dense, uint8_t *image)
{
    unsigned bits = l->bits;
    if (!l->strided && bits >= 8) {
        memcpy(image, dense, (size_t)l->span_bytes);
        return;
    }
    if (bits < 8) {
        FOR_EACH_ELEMENT(l, i, off, subbyte_put(image, off, bits, subbyte_get(dense, i, bits)));
    } else {
        size_t w = bits / 8;
        FOR_EACH_ELEMENT(l, i, off, memcpy(image + off * w, dense + i * w, w));
    }
}

void layout_gather(const tlayout *l, const uint8_t *image, uint8_t *dense)
{
    strided_gather(l->rank, l->dims, l->strides, l->offset, l->bits, l->volume, image, dense);
}

void layout_complement(const tlayout *l, uint8_t *image)
{
    unsigned bits = l->bits;
    if (bits < 8) {
        FOR_EACH_ELEMENT(l, i, off, subbyte_put(image, off, bits, ~subbyte_get(image, off, bits)));
    } else {
        size_t w = bits / 8;
        FOR_EACH_ELEMENT(l, i, off, for (size_t b_ = 0; b_ < w; b_++) image[off * w + b_] ^= 0xFF);
    }
}

void layout_mask(const tlayout *l, uint8_t *image)
{
    unsigned bits = l->bits;
    memset(image, 0, (size_t)l->span_bytes);
    if (bits < 8) {
        FOR_EACH_ELEMENT(l, i, off, subbyte_put(image, off, bits, 0xFu));
    } else {
        size_t w = bits / 8;
        FOR_EACH_ELEMENT(l, i, off, memset(image + off * w, 0xFF, w));
    }
}
