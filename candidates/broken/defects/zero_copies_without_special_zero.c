/*
 * zero_copies_without_special_zero.c - a 0 copies the input dim even when
 * special_zero is false (ONNX's allowzero = 1 mapped the wrong way round).
 */
#include "broken.h"

static int special_zero(const reshape_params *params)
{
    (void)params;
    return 1;
}

const struct broken_defect broken_defect = {
    .name = "zero_copies_without_special_zero",
    .defect = "a 0 copies the input dim even when special_zero is false",
    .expect = "FAIL",
    .hooks = {.special_zero = special_zero},
};
