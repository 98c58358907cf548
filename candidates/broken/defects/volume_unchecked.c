/*
 * volume_unchecked.c - a shape with no -1 is taken as given: the output
 * volume is never compared with the input volume.
 */
#include "broken.h"

static reshape_status check_volume(int64_t volume, int64_t known,
                                   int32_t rank, const int64_t *dims)
{
    (void)volume;
    (void)known;
    (void)rank;
    (void)dims;
    return RESHAPE_OK;
}

const struct broken_defect broken_defect = {
    .name = "volume_unchecked",
    .defect = "no volume check: a shape without -1 is taken as given",
    .expect = "ACCEPTED_INVALID",
    .hooks = {.check_volume = check_volume},
};
