/*
 * scalar_volume_zero.c - the product of no dims is 0, not 1: a scalar
 * (rank 0) has volume 0, and so does the known part of a shape [-1].
 */
#include "broken.h"

static reshape_status volume(int32_t rank, const int64_t *dims, int64_t *out)
{
    if (rank == 0) {
        *out = 0;
        return RESHAPE_OK;
    }
    return base_volume(rank, dims, out);
}

const struct broken_defect broken_defect = {
    .name = "scalar_volume_zero",
    .defect = "the volume of rank 0 (no dims) is taken as 0, not 1",
    .expect = "FAIL",
    .hooks = {.volume = volume},
};
