/*
 * strided.h - a tensor of any strides as the ABI header defines it:
 * "Element (i0..ik) is at linear offset sum(i_j * strides[j]) from data"
 * (include/reshape_candidate.h, reshape_tensor), with the layout rules of
 * reference/DECISIONS.md D12: its extent, whether two of its elements share
 * an offset, and its elements walked and gathered in row-major logical
 * order.  The case loader checks a case's layouts with it and the judge
 * builds every variant's expected bytes on it; neither calls the reference.
 * Dims, strides, offsets and extents count elements.  Depends on the ABI
 * header and fill.h (sub-byte access).
 */
#ifndef HARNESS_STRIDED_H
#define HARNESS_STRIDED_H

#include <stdint.h>

#include "reshape_candidate.h"

/*
 * The extent of `rank` dims (each >= 0) with `strides` (each >= 0): the
 * offset of the last element plus one, 1 + sum((dims[j] - 1) *
 * strides[j]); 0 for an empty tensor (a 0 dim); 1 for a scalar.  A dim of
 * 1 adds nothing, whatever its stride (D12).  UINT64_MAX when the sum
 * leaves uint64 (no such tensor can be staged).
 */
uint64_t strided_extent(int32_t rank, const int64_t *dims, const int64_t *strides);

/* Offsets this many or more are not enumerated by strided_overlaps. */
#define STRIDED_OVERLAP_MAX ((uint64_t)1 << 26)

/*
 * Whether two elements share an offset: 1 or 0, or -1 when it would take
 * enumerating STRIDED_OVERLAP_MAX offsets or more to tell.  Empty tensors
 * and tensors of one element never overlap; a stride of 0 on a dim above 1
 * always does; so do more elements than offsets in the extent; otherwise
 * every offset is marked in a bitmap until one repeats (the reference
 * sorts strides first, DECISIONS.md D12; this is the plain enumeration, so
 * that the two check each other).
 */
int strided_overlaps(int32_t rank, const int64_t *dims, const int64_t *strides);

/* A walk over a tensor's elements in row-major logical order (the last dim
 * turning fastest), keeping the current element's offset. */
typedef struct strided_walk {
    int32_t rank;
    const int64_t *dims, *strides;
    int64_t index[RESHAPE_MAX_RANK];
    uint64_t offset;
} strided_walk;

/* Starts at element 0, whose offset is `base`.  The arrays are not copied:
 * they must outlive the walk. */
void strided_walk_start(strided_walk *w, int32_t rank, const int64_t *dims,
                        const int64_t *strides, uint64_t base);

/* Moves to the next element (after the last, the offset is unspecified). */
void strided_walk_next(strided_walk *w);

/*
 * Gathers the `volume` elements of a tensor of `bits`-bit elements whose
 * element 0 is at offset `base` of `image`, in row-major logical order, into
 * the dense payload `dense` (payload_size(volume, bits) bytes, the padding
 * bits of a sub-byte payload 0): what a reshape of the tensor must write.
 */
void strided_gather(int32_t rank, const int64_t *dims, const int64_t *strides, uint64_t base,
                    unsigned bits, uint64_t volume, const uint8_t *image, uint8_t *dense);

#endif
