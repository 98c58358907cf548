/*
 * volume_unchecked_with_zero.c - an output with a zero dim is taken to be
 * the empty tensor it describes, so the volume check is skipped for it even
 * when the input is not empty.
 */
#include "broken.h"

static reshape_status check_volume(int64_t volume, int64_t known,
                                   int32_t rank, const int64_t *dims)
{
    for (int32_t i = 0; i < rank; i++)
        if (dims[i] == 0)
            return RESHAPE_OK;
    return base_check_volume(volume, known, rank, dims);
}

const struct broken_defect broken_defect = {
    .name = "volume_unchecked_with_zero",
    .defect = "the volume check is skipped whenever the output has a 0 dim",
    /* its infer entries: executing into the empty dst it infers writes the
     * input's elements past it (the follow-up of an accepted error case) */
    .expect = "MEMORY_VIOLATION",
    .hooks = {.check_volume = check_volume},
};
