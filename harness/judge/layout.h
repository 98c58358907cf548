/*
 * layout.h - how a tensor sits in a buffer for one variant: dims, strides
 * (in elements) and the span of bytes it touches, and moving a dense
 * payload into and out of such a buffer bit-exactly (sub-byte elements by
 * bits, as the ABI header packs them).  Depends on fill.h.
 */
#ifndef HARNESS_LAYOUT_H
#define HARNESS_LAYOUT_H

#include <stdint.h>

#include "reshape_candidate.h"

typedef struct tlayout {
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
    int64_t strides[RESHAPE_MAX_RANK];  /* always filled, dense ones too */
    int strided;                        /* pass `strides` to the candidate */
    unsigned bits;                      /* bits per element */
    uint64_t volume;                    /* element count */
    uint64_t span_elems;                /* 1 + the largest offset; 0 if empty */
    uint64_t span_bytes;                /* bytes holding the span */
} tlayout;

/*
 * Every layout below counts a 0 dim as 1 in the strides and saturates: a
 * stride past INT64_MAX is INT64_MAX, a volume, span_elems or span_bytes
 * past UINT64_MAX is UINT64_MAX.  Only a tensor that is never allocated
 * (infer-only, or empty: a 0 dim beside huge dims) gets there, and no
 * element of it is ever addressed.
 */

/* Dense row-major `dims`; strided = 0. */
void layout_dense(tlayout *l, int32_t rank, const int64_t *dims, unsigned bits);

/*
 * A padded buffer: rows of the last dim are one element longer than the
 * data (rank >= 2), or every element is followed by a gap (rank 1: stride
 * 2).  At most twice the dense span.  Requires rank >= 1.
 */
void layout_padded(tlayout *l, int32_t rank, const int64_t *dims, unsigned bits);

/* The strides of a transposed buffer: the first dim varies fastest
 * (strides[0] = 1).  Same span as dense.  Meaningful for rank >= 2. */
void layout_permuted(tlayout *l, int32_t rank, const int64_t *dims, unsigned bits);

/* Element offset of the element with row-major index `linear`. */
uint64_t layout_offset(const tlayout *l, uint64_t linear);

/* The multi-index of row-major element `linear` into idx[0..rank). */
void layout_index(const tlayout *l, uint64_t linear, int64_t *idx);

/* Writes element i of `dense` (a dense payload of l->volume elements) at
 * offset layout_offset(l, i) of `image`, for every i; every other bit of
 * `image` is kept. */
void layout_scatter(const tlayout *l, const uint8_t *dense, uint8_t *image);

/* The opposite: element i at offset layout_offset(l, i) of `image` into
 * element i of `dense`.  The padding bits of a sub-byte `dense` are 0. */
void layout_gather(const tlayout *l, const uint8_t *image, uint8_t *dense);

/* Inverts every bit of `image` that belongs to an element; the other
 * bits are kept. */
void layout_complement(const tlayout *l, uint8_t *image);

/* Sets every bit of `image` (l->span_bytes) that belongs to an element
 * to 1 and every other bit to 0. */
void layout_mask(const tlayout *l, uint8_t *image);

#endif
