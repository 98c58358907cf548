/*
 * element_count_uint32.c - volumes are int64 and checked for overflow, but
 * the two element counts are compared as unsigned int, the way Arm NN
 * 20.08 validates a Reshape (TensorShape::GetNumElements() returns
 * unsigned int) and TfLite's reshape compares its int counts: two volumes
 * that differ by a multiple of 2^32 pass, so [4] to [4, 1073741825]
 * (4 * (2^30 + 1) = 2^32 + 4) is accepted.
 *
 * Unlike volume_int32, whose every volume wraps (the extremes cases of
 * 2^31 elements and more catch it), this kernel gets every product right
 * and only its comparison wraps: the wraps cases catch it.
 */
#include "broken.h"

static reshape_status check_volume(int64_t volume, int64_t known,
                                   int32_t rank, const int64_t *dims)
{
    (void)rank;
    (void)dims;
    return (uint32_t)volume == (uint32_t)known ? RESHAPE_OK
                                               : RESHAPE_E_VOLUME_MISMATCH;
}

const struct broken_defect broken_defect = {
    .name = "element_count_uint32",
    .defect = "element counts compared as unsigned int (Arm NN 20.08): "
              "volumes equal modulo 2^32 pass",
    .expect = "ACCEPTED_INVALID",
    .hooks = {.check_volume = check_volume},
};
