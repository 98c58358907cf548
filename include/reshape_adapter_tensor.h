/*
 * reshape_adapter_tensor.h - facts about a tensor as the ABI lays it out
 * (reshape_candidate.h, reshape_tensor and D12): its volume, payload bytes,
 * extent, the 2^63-bit bound, whether two of its elements share an offset,
 * size-1 dims with strides of their own, and the RESHAPE_LAYOUT_* flags of
 * a call.  Part of the adapter kit; included by reshape_adapter.h, usable
 * alone.  Pure functions, no state.  Header-only, C11 and C++17 (GCC or
 * Clang: it uses their overflow builtins).  Depends on reshape_candidate.h
 * and libc.
 */
#ifndef RESHAPE_ADAPTER_TENSOR_H
#define RESHAPE_ADAPTER_TENSOR_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "reshape_candidate.h"

/* ================================================================ volumes */

/* The element count of `t` (1 for rank 0, 0 with any 0 dim, tested before
 * any product) into *count.  Returns 0, or -1 when it leaves int64.
 * Assumes dims >= 0 and dims non-NULL when ranked. */
static inline int reshape_adapter_volume(const reshape_tensor *t, int64_t *count)
{
    int64_t n = 1;

    for (int32_t i = 0; i < t->rank; i++)
        if (t->dims[i] == 0) {
            *count = 0;
            return 0;
        }
    for (int32_t i = 0; i < t->rank; i++)
        if (__builtin_mul_overflow(n, t->dims[i], &n))
            return -1;
    *count = n;
    return 0;
}

/* Bytes of a dense payload of `count` elements of `dtype`,
 * ceil(count * bits / 8), into *bytes.  Returns 0, or -1 when it does not
 * fit size_t or `dtype` is outside the enum. */
static inline int reshape_adapter_payload_bytes(reshape_dtype dtype, int64_t count,
                                                size_t *bytes)
{
    uint64_t bits = reshape_dtype_bits(dtype), n;

    if (bits == 0 || count < 0 || (uint64_t)count > (UINT64_MAX - 7) / bits)
        return -1;
    n = ((uint64_t)count * bits + 7) / 8;
    if (n > SIZE_MAX)
        return -1;
    *bytes = (size_t)n;
    return 0;
}

/* The extent of `t` in elements (the header's reshape_tensor): the offset of
 * its last element plus one, 1 + sum((dims[j] - 1) * strides[j]), dense
 * strides when `strides` is NULL; a size-1 dim adds nothing whatever its
 * stride; 0 for an empty tensor.  Into *extent; returns 0, or -1 when it
 * leaves int64.  Assumes dims and strides >= 0. */
static inline int reshape_adapter_extent(const reshape_tensor *t, int64_t *extent)
{
    int64_t last = 0, part, dense = 1;

    for (int32_t i = 0; i < t->rank; i++)
        if (t->dims[i] == 0) {
            *extent = 0;
            return 0;
        }
    for (int32_t i = t->rank; i-- > 0;) {
        int64_t stride = t->strides != NULL ? t->strides[i] : dense;
        if (__builtin_mul_overflow(t->dims[i] - 1, stride, &part) ||
            __builtin_add_overflow(last, part, &last))
            return -1;
        if (t->strides == NULL && __builtin_mul_overflow(dense, t->dims[i], &dense))
            return -1;
    }
    if (__builtin_add_overflow(last, 1, extent))
        return -1;
    return 0;
}

/* 1 when every bit of `t`'s elements has an offset within int64 from its
 * data, the last element ending at most at bit INT64_MAX - 7 (the header's
 * 2^63 bound, as the reference counts it); an empty tensor addresses
 * nothing.  0 otherwise, an overflow on the way included. */
static inline int reshape_adapter_addressable(const reshape_tensor *t)
{
    int64_t extent;
    unsigned bits = reshape_dtype_bits(t->dtype);

    if (bits == 0 || reshape_adapter_extent(t, &extent) != 0)
        return 0;
    return extent == 0 || extent - 1 <= (INT64_MAX - 7) / (int64_t)bits - 1;
}

/* ================================================================ overlap */

static inline int reshape_adapter_cmp_offset_(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Whether the `n` dims (each > 1, sorted by stride) address one offset
 * twice, by listing every offset: a bitmap over the extent or a sorted list
 * of the volume, whichever is smaller.  1, 0, or -1 when neither fits
 * (over 2^30 bytes) or memory runs out. */
static inline int reshape_adapter_overlaps_by_listing_(int n, const int64_t *dims,
                                                       const int64_t *strides)
{
    int64_t volume = 1, extent = 1, part, idx[RESHAPE_MAX_RANK] = {0}, offset = 0;
    int found = 0;

    for (int k = 0; k < n; k++)
        if (__builtin_mul_overflow(volume, dims[k], &volume) ||
            __builtin_mul_overflow(dims[k] - 1, strides[k], &part) ||
            __builtin_add_overflow(extent, part, &extent))
            return -1;
    int by_bitmap = extent / 8 < volume;
    int64_t bytes = by_bitmap ? extent / 8 + 1 : volume;
    if (bytes > ((int64_t)1 << 30) / (by_bitmap ? 1 : 8))
        return -1;
    unsigned char *bitmap = by_bitmap ? (unsigned char *)calloc((size_t)bytes, 1) : NULL;
    int64_t *list = by_bitmap ? NULL : (int64_t *)malloc((size_t)volume * 8);
    if (bitmap == NULL && list == NULL)
        return -1;
    for (int64_t e = 0; e < volume && !found; e++) {
        if (by_bitmap) {
            found = (bitmap[offset / 8] >> (offset % 8)) & 1;
            bitmap[offset / 8] |= (unsigned char)(1u << (offset % 8));
        } else {
            list[e] = offset;
        }
        for (int k = n; k-- > 0;) { /* the next index, last dim fastest */
            offset += strides[k];
            if (++idx[k] < dims[k])
                break;
            offset -= strides[k] * dims[k];
            idx[k] = 0;
        }
    }
    if (list != NULL) {
        qsort(list, (size_t)volume, sizeof *list, reshape_adapter_cmp_offset_);
        for (int64_t e = 1; e < volume && !found; e++)
            found = list[e] == list[e - 1];
    }
    free(bitmap);
    free(list);
    return found;
}

/*
 * Whether two elements of `t` have the same offset (D12: a broadcast src, an
 * overlapping dst).  Dense tensors and empty ones never overlap; a size-1
 * dim never moves the address; a stride of 0 on a dim above 1 always
 * overlaps.  Otherwise, with the dims above 1 sorted by stride, each stride
 * above the largest offset the smaller ones reach proves there is no
 * overlap (dense, permuted, padded and sliced views); any other layout is
 * decided by listing the offsets.  Returns 1, 0, or -1 when it cannot tell
 * (the listing needs over 1 GiB, or memory ran out).  Assumes the tensor
 * rules hold (dims and strides >= 0).
 */
static inline int reshape_adapter_overlaps(const reshape_tensor *t)
{
    int64_t dims[RESHAPE_MAX_RANK], strides[RESHAPE_MAX_RANK], reach = 0, part;
    int n = 0;

    if (t->strides == NULL)
        return 0;
    for (int32_t i = 0; i < t->rank; i++)
        if (t->dims[i] == 0)
            return 0;
    for (int32_t i = 0; i < t->rank; i++) {
        if (t->dims[i] == 1)
            continue;
        if (t->strides[i] == 0)
            return 1;
        int k = n++;
        for (; k > 0 && strides[k - 1] > t->strides[i]; k--) {
            strides[k] = strides[k - 1];
            dims[k] = dims[k - 1];
        }
        strides[k] = t->strides[i];
        dims[k] = t->dims[i];
    }
    for (int k = 0; k < n; k++) {
        if (strides[k] <= reach)
            return reshape_adapter_overlaps_by_listing_(n, dims, strides);
        if (__builtin_mul_overflow(dims[k] - 1, strides[k], &part) ||
            __builtin_add_overflow(reach, part, &reach))
            return -1;
    }
    return 0;
}

/* 1 when `t` has strides and a dim of size 1 whose stride is not its dense
 * one (the product of the dims after it): RESHAPE_LAYOUT_SIZE1_STRIDES. */
static inline int reshape_adapter_size1_strides(const reshape_tensor *t)
{
    int64_t dense = 1;
    int wrapped = 0;

    if (t->strides == NULL)
        return 0;
    for (int32_t i = t->rank; i-- > 0;) {
        if (t->dims[i] == 1 && (wrapped || t->strides[i] != dense))
            return 1;
        wrapped = wrapped || __builtin_mul_overflow(dense, t->dims[i], &dense);
    }
    return 0;
}

/* =============================================================== layouts */

/* The RESHAPE_LAYOUT_* flags of a call, as the harness asks supports()
 * about it: STRIDED_SRC, STRIDED_DST, IN_PLACE (one non-NULL data pointer,
 * both dense), BROADCAST_SRC (two src elements share an offset; also set
 * when reshape_adapter_overlaps cannot tell), SIZE1_STRIDES.  `dst` may be
 * NULL (infer_shape). */
static inline unsigned reshape_adapter_layout(const reshape_tensor *src,
                                              const reshape_tensor *dst)
{
    unsigned layout = 0;

    if (src->strides != NULL)
        layout |= RESHAPE_LAYOUT_STRIDED_SRC;
    if (dst != NULL && dst->strides != NULL)
        layout |= RESHAPE_LAYOUT_STRIDED_DST;
    if (dst != NULL && dst->data == src->data && src->data != NULL && layout == 0)
        layout |= RESHAPE_LAYOUT_IN_PLACE;
    if (reshape_adapter_overlaps(src) != 0)
        layout |= RESHAPE_LAYOUT_BROADCAST_SRC;
    if (reshape_adapter_size1_strides(src) ||
        (dst != NULL && reshape_adapter_size1_strides(dst)))
        layout |= RESHAPE_LAYOUT_SIZE1_STRIDES;
    return layout;
}

#endif /* RESHAPE_ADAPTER_TENSOR_H */
