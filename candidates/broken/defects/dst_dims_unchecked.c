/*
 * dst_dims_unchecked.c - the caller's dst is trusted: its dims are never
 * compared with the inferred ones, so a dst that is too small is overrun
 * instead of refused.
 */
#include "broken.h"

static reshape_status check_dst(const reshape_tensor *src,
                                const reshape_tensor *dst, int32_t rank,
                                const int64_t *dims)
{
    (void)rank;
    (void)dims;
    return dst->dtype == src->dtype ? RESHAPE_OK : RESHAPE_E_INVALID_ARGUMENT;
}

const struct broken_defect broken_defect = {
    .name = "dst_dims_unchecked",
    .defect = "dst dims are not compared with the inferred shape",
    .expect = "MEMORY_VIOLATION",
    .faults_on_most_cases = 1,
    .hooks = {.check_dst = check_dst},
};
