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
    uint64_t offset;                    /* elements of the buffer before the
                                           first element (offset * bits is a
                                           multiple of 8); 0 but for a case's
                                           own layout */
    uint64_t volume;                    /* element count */
    uint64_t span_elems;                /* offset + the extent (1 + the largest
                                           element offset; 0 if empty): the
                                           buffer, from its start */
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

/*
 * `dims` with `strides` as given, their first element `offset` elements
 * into the buffer: a case's own layout (FORMAT.md, "Layouts"); strided = 1.
 */
void layout_strided(tlayout *l, int32_t rank, const int64_t *dims, const int64_t *strides,
                    uint64_t offset, unsigned bits);

/*
 * The broadcast_src variant: the first dim above 1 (index `at`) gets
 * stride 0, the others the dense strides of dims with that one taken as 1,
 * so that the buffer holds the elements of index 0 of dim `at`, the
 * payload's first volume / dims[at] (a torch.expand of them).  Requires
 * such a dim.
 */
void layout_broadcast(tlayout *l, int32_t rank, const int64_t *dims, unsigned bits);

/* Index of the first dim above 1 of `dims`, or -1 (broadcast_src applies to
 * a tensor that has one and no 0 dim). */
int layout_broadcast_dim(int32_t rank, const int64_t *dims);

/*
 * The size1_strides variant: dense, but the k-th dim of size 1 (k from 0)
 * carries LAYOUT_SIZE1_STRIDES[k % 3] (2^58, 0, 5) instead of its dense
 * stride; none of them moves an element (D12).  Same span as dense.
 */
extern const int64_t LAYOUT_SIZE1_STRIDES[3];
void layout_size1(tlayout *l, int32_t rank, const int64_t *dims, unsigned bits);

/* Nonzero when `dims` has a dim of 1 (size1_strides applies). */
int layout_has_size1(int32_t rank, const int64_t *dims);

/*
 * The RESHAPE_LAYOUT_* flags `l` adds as src (`is_src`) or dst:
 * STRIDED_SRC / STRIDED_DST when it is strided, BROADCAST_SRC for a src
 * two of whose elements share an offset (strided_overlaps), SIZE1_STRIDES
 * when a dim of 1 carries another stride than its dense row-major one.
 * The padded and permuted layouts give their dims of 1 that dense stride,
 * so they ask with the flags they asked before.
 */
unsigned layout_flags(const tlayout *l, int is_src);

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
