/*
 * volume_int32.c - volumes are computed in 32 bits (an `int` accumulator),
 * so any volume of 2^31 elements or more wraps.
 */
#include "broken.h"

static reshape_status volume(int32_t rank, const int64_t *dims, int64_t *out)
{
    uint32_t v = 1;
    for (int32_t i = 0; i < rank; i++)
        v *= (uint32_t)dims[i];
    *out = (int32_t)v;
    return RESHAPE_OK;
}

const struct broken_defect broken_defect = {
    .name = "volume_int32",
    .defect = "volumes are computed in 32 bits and wrap at 2^31",
    .expect = "FAIL",
    .hooks = {.volume = volume},
};
