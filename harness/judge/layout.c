/*
 * layout.c - buffer layouts of the variants; see layout.h.  Depends on
 * fill.h (sub-byte access) and libc.
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

/* Volume and span from dims and strides, saturated at UINT64_MAX (only a
 * tensor that is never allocated gets there). */
static void finish(tlayout *l)
{
    l->volume = 1;
    for (int32_t i = 0; i < l->rank; i++)
        if (l->dims[i] == 0) {
            l->volume = 0;
            l->span_elems = l->span_bytes = 0;
            return;
        }
    for (int32_t i = 0; i < l->rank; i++)
        if (__builtin_mul_overflow(l->volume, (uint64_t)l->dims[i], &l->volume))
            l->volume = UINT64_MAX;
    uint64_t last = 0, term;
    for (int32_t i = 0; i < l->rank; i++)
        if (__builtin_mul_overflow((uint64_t)(l->dims[i] - 1), (uint64_t)l->strides[i], &term) ||
            __builtin_add_overflow(last, term, &last))
            last = UINT64_MAX;
    l->span_elems = last == UINT64_MAX ? UINT64_MAX : last + 1;
    l->span_bytes = payload_size(l->span_elems, l->bits);
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
    finish(l);
}

uint64_t layout_offset(const tlayout *l, uint64_t linear)
{
    uint64_t off = 0;
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

/*
 * Calls `step` for every element in row-major order with its linear index
 * and offset, walking the multi-index incrementally (no division per
 * element).
 */
#define FOR_EACH_ELEMENT(l, i, off, body)                                        \
    do {                                                                         \
        int64_t idx_[RESHAPE_MAX_RANK] = {0};                                    \
        uint64_t off = 0;                                                        \
        for (uint64_t i = 0; i < (l)->volume; i++) {                             \
            body;                                                                \
            for (int32_t k_ = (l)->rank - 1; k_ >= 0; k_--) {                    \
                if (++idx_[k_] < (l)->dims[k_]) {                                \
                    off += (uint64_t)(l)->strides[k_];                           \
                    break;                                                       \
                }                                                                \
                off -= (uint64_t)((l)->dims[k_] - 1) * (uint64_t)(l)->strides[k_]; \
                idx_[k_] = 0;                                                    \
            }                                                                    \
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
    unsigned bits = l->bits;
    if (bits < 8) {
        memset(dense, 0, (size_t)payload_size(l->volume, bits));
        FOR_EACH_ELEMENT(l, i, off, subbyte_put(dense, i, bits, subbyte_get(image, off, bits)));
    } else {
        size_t w = bits / 8;
        FOR_EACH_ELEMENT(l, i, off, memcpy(dense + i * w, image + off * w, w));
    }
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
    (void)0;
}
