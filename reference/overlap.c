/*
 * overlap.c - whether two elements of a tensor share an offset: the exact
 * test of reference/DECISIONS.md D12 ("The overlap test"), which execute()
 * runs on dst ("a dst two of whose elements have the same offset has no
 * defined result; execute refuses it with RESHAPE_E_INVALID_ARGUMENT and
 * writes nothing").  Depends on the ABI header and libc.
 */
#include <stdlib.h>

#include "reference.h"

/* One dim that can separate elements: size above 1. */
struct dim {
    int64_t size;
    int64_t stride;
};

/* Sorts dims by stride, smallest first (insertion sort: at most 32). */
static void sort_by_stride(struct dim *d, int32_t n)
{
    for (int32_t i = 1; i < n; i++) {
        struct dim key = d[i];
        int32_t j = i - 1;

        while (j >= 0 && d[j].stride > key.stride) {
            d[j + 1] = d[j];
            j--;
        }
        d[j + 1] = key;
    }
}

/*
 * Step 5: marks every offset of the `n` dims in a bitmap of `last` + 1
 * bits; *overlaps is 1 when one is marked twice.  `volume` <= `last` + 1
 * here, and `last` is the largest offset, within int64.
 */
static reshape_status enumerate(const struct dim *d, int32_t n, int64_t last,
                                int *overlaps)
{
    uint64_t words = (uint64_t)last / 64 + 1;
    uint64_t *seen = calloc((size_t)words, sizeof *seen);
    int64_t index[RESHAPE_MAX_RANK] = {0};
    int64_t offset = 0;

    if (seen == NULL)
        return reshape_ref_fail(RESHAPE_E_INTERNAL,
                                "no memory to check whether the elements of "
                                "'dst' overlap");
    *overlaps = 0;
    for (;;) {
        uint64_t bit = (uint64_t)1 << (offset % 64);

        if (seen[offset / 64] & bit) {
            *overlaps = 1;
            break;
        }
        seen[offset / 64] |= bit;
        /* the next index, the first dim turning fastest (any order visits
         * every element once) */
        int32_t j = 0;
        while (j < n && index[j] + 1 == d[j].size) {
            offset -= index[j] * d[j].stride;
            index[j] = 0;
            j++;
        }
        if (j == n)
            break;
        index[j]++;
        offset += d[j].stride;
    }
    free(seen);
    return RESHAPE_OK;
}

reshape_status reshape_ref_overlaps(const reshape_tensor *t, int *overlaps)
{
    struct dim d[RESHAPE_MAX_RANK];
    int32_t n = 0;
    int64_t dense = 1, reach = 0, volume = 1;
    int nested = 1;

    *overlaps = 0;
    /* 1. dims of size 1 never separate two elements */
    for (int32_t i = t->rank - 1; i >= 0; i--) {
        int64_t stride = t->strides != NULL ? t->strides[i] : dense;

        dense *= t->dims[i];
        if (t->dims[i] > 1)
            d[n++] = (struct dim){t->dims[i], stride};
    }
    /* 2. a stride of 0 on a dim above 1: indices 0 and 1 coincide */
    for (int32_t i = 0; i < n; i++)
        if (d[i].stride == 0) {
            *overlaps = 1;
            return RESHAPE_OK;
        }
    /* 3. each stride beyond all the smaller dims reach: no overlap.
     * reach, the largest offset so far, is within the tensor's largest
     * offset, which execute.c has checked fits int64. */
    sort_by_stride(d, n);
    for (int32_t i = 0; i < n; i++) {
        if (d[i].stride <= reach)
            nested = 0;
        reach += (d[i].size - 1) * d[i].stride;
        volume *= d[i].size;
    }
    if (nested)
        return RESHAPE_OK;
    /* 4. more elements than offsets 0..reach: pigeonhole */
    if (volume - 1 > reach) {
        *overlaps = 1;
        return RESHAPE_OK;
    }
    /* 5. otherwise every offset, marked once */
    return enumerate(d, n, reach, overlaps);
}
