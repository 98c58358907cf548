/*
 * zero_index_off_by_one.c - "index of 0 cannot be larger than the rank"
 * read literally (D2): a copying 0 at index == rank is allowed, and copies
 * the 1 that pads the input dims to a fixed rank.
 */
#include "broken.h"

static reshape_status copy_zero(int32_t i, int32_t shape_len,
                                const reshape_tensor *src, int64_t *dim)
{
    (void)shape_len;
    if (i > src->rank)
        return RESHAPE_E_ZERO_OUT_OF_RANGE;
    *dim = i < src->rank ? src->dims[i] : 1;
    return RESHAPE_OK;
}

const struct broken_defect broken_defect = {
    .name = "zero_index_off_by_one",
    .defect = "a copying 0 at index == rank is accepted and copies 1",
    .expect = "ACCEPTED_INVALID",
    .hooks = {.copy_zero = copy_zero},
};
