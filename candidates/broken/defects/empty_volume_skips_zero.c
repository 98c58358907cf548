/*
 * empty_volume_skips_zero.c - the volume skips zero dims (written to avoid
 * a division by zero), so an empty tensor [2, 0, 3] counts 6 elements.
 */
#include "broken.h"

static reshape_status volume(int32_t rank, const int64_t *dims, int64_t *out)
{
    int64_t nonzero[RESHAPE_MAX_RANK];
    int32_t n = 0;
    for (int32_t i = 0; i < rank; i++)
        if (dims[i] != 0)
            nonzero[n++] = dims[i];
    return base_volume(n, nonzero, out);
}

const struct broken_defect broken_defect = {
    .name = "empty_volume_skips_zero",
    .defect = "the volume skips 0 dims, so empty tensors count elements",
    .expect = "FAIL",
    .hooks = {.volume = volume},
};
