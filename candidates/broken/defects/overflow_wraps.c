/*
 * overflow_wraps.c - volumes are 64-bit but multiplied without a limit
 * test, so a product past INT64_MAX wraps instead of being OVERFLOW (D8).
 */
#include "broken.h"

static reshape_status volume(int32_t rank, const int64_t *dims, int64_t *out)
{
    uint64_t v = 1;
    for (int32_t i = 0; i < rank; i++)
        v *= (uint64_t)dims[i];
    *out = (int64_t)v;
    return RESHAPE_OK;
}

const struct broken_defect broken_defect = {
    .name = "overflow_wraps",
    .defect = "volume products are not checked and wrap modulo 2^64",
    .expect = "ACCEPTED_INVALID",
    .hooks = {.volume = volume},
};
