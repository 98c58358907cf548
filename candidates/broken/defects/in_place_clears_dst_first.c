/*
 * in_place_clears_dst_first.c - a dense dst is zeroed before the copy, a
 * harmless habit out of place that wipes the input when dst is src.
 */
#include <string.h>

#include "broken.h"

static void prepare_dst(const reshape_tensor *src, const reshape_tensor *dst)
{
    int64_t count;
    if (dst->strides != NULL || dst->data == NULL
        || base_volume(dst->rank, dst->dims, &count) != RESHAPE_OK)
        return;
    memset(dst->data, 0,
           (size_t)broken_payload_bytes(count, reshape_dtype_bits(src->dtype)));
}

const struct broken_defect broken_defect = {
    .name = "in_place_clears_dst_first",
    .defect = "dst is zeroed before the copy, which wipes src when in place",
    .expect = "FAIL",
    .hooks = {.prepare_dst = prepare_dst},
};
