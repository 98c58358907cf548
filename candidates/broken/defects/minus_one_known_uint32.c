/*
 * minus_one_known_uint32.c - the -1 is solved against the product of the
 * other dims taken as a 32-bit count, as Arm NN 20.08's TfLite parser does
 * (OutputShapeOfReshape multiplies the target dims in int32_t and
 * numeric_casts the product to unsigned int): [8] to [-1, 4, 1073741825]
 * sees a known product of 4 (2^32 + 4 wrapped) and gives [2, 4,
 * 1073741825]; [0, 4] to [-1, 4, 1073741824] sees 0 and refuses it.
 */
#include "broken.h"

static reshape_status solve_minus_one(int64_t volume, int64_t known,
                                      int64_t *dim)
{
    uint32_t count = (uint32_t)known;

    if (count == 0)
        return RESHAPE_E_ZERO_AND_MINUS_ONE;
    if (volume % count != 0)
        return RESHAPE_E_NOT_DIVISIBLE;
    *dim = volume / count;
    return RESHAPE_OK;
}

const struct broken_defect broken_defect = {
    .name = "minus_one_known_uint32",
    .defect = "the -1 is solved against the other dims' product wrapped "
              "to 32 bits (Arm NN 20.08's TfLite parser)",
    .expect = "ACCEPTED_INVALID",
    .hooks = {.solve_minus_one = solve_minus_one},
};
