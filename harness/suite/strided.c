/*
 * strided.c - extents, overlaps and walks of strided tensors (strided.h).
 * Depends on fill.h and libc.
 */
#include "strided.h"

#include <stdlib.h>
#include <string.h>

#include "fill.h"

uint64_t strided_extent(int32_t rank, const int64_t *dims, const int64_t *strides)
{
    uint64_t last = 0, term;
    for (int32_t i = 0; i < rank; i++)
        if (dims[i] == 0)
            return 0;
    for (int32_t i = 0; i < rank; i++)
        if (__builtin_mul_overflow((uint64_t)(dims[i] - 1), (uint64_t)strides[i], &term) ||
            __builtin_add_overflow(last, term, &last) || last == UINT64_MAX)
            return UINT64_MAX;
    return last + 1;
}

int strided_overlaps(int32_t rank, const int64_t *dims, const int64_t *strides)
{
    uint64_t volume = 1;
    for (int32_t i = 0; i < rank; i++)
        if (__builtin_mul_overflow(volume, (uint64_t)dims[i], &volume))
            volume = UINT64_MAX;
    if (volume <= 1)
        return 0;
    for (int32_t i = 0; i < rank; i++)
        if (dims[i] > 1 && strides[i] == 0)
            return 1;
    uint64_t extent = strided_extent(rank, dims, strides);
    if (volume > extent)
        return 1;
    if (extent >= STRIDED_OVERLAP_MAX)
        return -1;
    uint8_t *seen = calloc((size_t)(extent + 7) / 8, 1);
    if (!seen)
        return -1;
    strided_walk w;
    strided_walk_start(&w, rank, dims, strides, 0);
    int found = 0;
    for (uint64_t i = 0; i < volume && !found; i++, strided_walk_next(&w)) {
        uint8_t bit = (uint8_t)(1u << (w.offset % 8));
        found = (seen[w.offset / 8] & bit) != 0;
        seen[w.offset / 8] |= bit;
    }
    free(seen);
    return found;
}

void strided_walk_start(strided_walk *w, int32_t rank, const int64_t *dims,
                        const int64_t *strides, uint64_t base)
{
    w->rank = rank;
    w->dims = dims;
    w->strides = strides;
    memset(w->index, 0, sizeof w->index);
    w->offset = base;
}

void strided_walk_next(strided_walk *w)
{
    for (int32_t k = w->rank - 1; k >= 0; k--) {
        if (++w->index[k] < w->dims[k]) {
            w->offset += (uint64_t)w->strides[k];
            return;
        }
        w->offset -= (uint64_t)(w->dims[k] - 1) * (uint64_t)w->strides[k];
        w->index[k] = 0;
    }
}

void strided_gather(int32_t rank, const int64_t *dims, const int64_t *strides, uint64_t base,
                    unsigned bits, uint64_t volume, const uint8_t *image, uint8_t *dense)
{
    strided_walk w;
    strided_walk_start(&w, rank, dims, strides, base);
    if (bits < 8) {
        memset(dense, 0, (size_t)payload_size(volume, bits));
        for (uint64_t i = 0; i < volume; i++, strided_walk_next(&w))
            subbyte_put(dense, i, bits, subbyte_get(image, w.offset, bits));
        return;
    }
    size_t n = bits / 8;
    for (uint64_t i = 0; i < volume; i++, strided_walk_next(&w))
        memcpy(dense + i * n, image + w.offset * n, n);
}
