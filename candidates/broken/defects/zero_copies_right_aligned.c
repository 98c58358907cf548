/*
 * zero_copies_right_aligned.c - a copying 0 takes the input dim counted
 * from the right, as broadcasting aligns dims, instead of "left aligned"
 * (DECISIONS.md D9).
 */
#include "broken.h"

static reshape_status copy_zero(int32_t i, int32_t shape_len,
                                const reshape_tensor *src, int64_t *dim)
{
    int32_t j = src->rank - shape_len + i;
    if (j < 0 || j >= src->rank)
        return RESHAPE_E_ZERO_OUT_OF_RANGE;
    *dim = src->dims[j];
    return RESHAPE_OK;
}

const struct broken_defect broken_defect = {
    .name = "zero_copies_right_aligned",
    .defect = "a copying 0 takes the input dim aligned from the right",
    .expect = "FAIL",
    .hooks = {.copy_zero = copy_zero},
};
